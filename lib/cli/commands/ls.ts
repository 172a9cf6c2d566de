/**
 * `tern ls`: a folder's entries, printed page by page as they arrive — a folder of 100,000
 * entries starts printing after the first request and never sits in memory whole.
 *
 * @module
 */

import { BadRequestError, type Entry, type ListOptions, type SortKey } from "../../../mod.ts";
import { asUsage, choiceOption, intOption, stringOption, UsageError } from "../args.ts";
import { checkRef, type Command, type CommandContext, eachPath } from "../command.ts";
import { entryJson, entryName, jsonLine, longLine, safeText } from "../format.ts";
import { type Output, printPages } from "../io.ts";

const SORT_KEYS: readonly SortKey[] = ["name", "path", "size", "created", "modified"];

/** Where `tern ls` starts without a PATH when anonymous: CyVerse's Community Data. */
const COMMUNITY_DATA = "/iplant/home/shared";

/**
 * `tern ls [options] [PATH...]`.
 *
 * @example
 * ```sh
 * tern ls -l --sort size --order desc /iplant/home/shared/tern_samples/formats
 * tern ls --json --type file --glob '*.csv' /iplant/home/shared/tern_samples/many_files | head
 * ```
 */
export const ls: Command = {
  name: "ls",
  summary: "list a folder, page by page as entries arrive",
  usage: "[options] [PATH...]",
  description: [
    "Lists each folder PATH (default: your home when signed in, else /iplant/home/shared).",
    "Folders come first and end in /; the server sorts and filters, --glob filters here.",
    "A file PATH lists just that file. Dates are UTC.",
  ].join("\n"),
  options: {
    long: { type: "boolean", short: "l", help: "kind, size, date modified, file type, name" },
    json: { type: "boolean", help: "one JSON object per entry and line (exact sizes, ISO dates)" },
    sort: { type: "string", value: "KEY", help: "name (default), path, size, created, modified" },
    order: { type: "string", value: "ORDER", help: "asc (default) or desc" },
    type: { type: "string", value: "TYPE", help: "file, folder or any (default)" },
    glob: { type: "string", value: "GLOB", help: "keep names matching GLOB, e.g. '*.csv'" },
    limit: { type: "string", value: "N", help: "stop after N entries" },
    "full-path": { type: "boolean", short: "p", help: "print full data-store paths, not names" },
    bytes: { type: "boolean", help: "with -l: exact byte counts instead of 13.5 kB" },
  },
  examples: [
    "tern ls /iplant/home/shared/commons_repo/curated",
    "tern ls -l --sort size --order desc /iplant/home/shared/tern_samples/formats",
    "tern ls --json --type file --glob 'part-0000*' /iplant/home/shared/tern_samples/many_files",
  ],
  run,
};

type Plan = ReturnType<typeof planOf>;

async function run(context: CommandContext): Promise<number> {
  const { values, positionals } = context.args;
  const plan = planOf(values);
  positionals.forEach(checkRef);
  const store = await context.store();
  const paths = positionals.length > 0 ? positionals : [
    store.options.auth === "anonymous" ? COMMUNITY_DATA : (await store.root()).home.path!,
  ];
  const out = context.io.stdout;
  const headers = paths.length > 1 && !plan.json;
  return await eachPath(context, paths, async (path, index) => {
    const listing = asUsage(() => store.folder(path).list(plan.options));
    if (headers) out.line(`${index > 0 ? "\n" : ""}${safeText(path)}:`);
    const line = (entry: Entry) => lineOf(entry, plan, out);
    try {
      await printPages(listing.pages(), out, line, plan.limit);
    } catch (error) {
      // `tern ls FILE` shows the file, as ls does; only the listing of a file fails that way.
      if (!(error instanceof BadRequestError) || error.code !== "ERR_NOT_A_FOLDER") throw error;
      out.line(lineOf(await store.file(path).stat(), plan, out));
      await out.flush();
    }
  });
}

function planOf(values: CommandContext["args"]["values"]) {
  const limit = intOption(values, "limit", 1);
  const glob = stringOption(values, "glob");
  const options: ListOptions = {
    sort: choiceOption(values, "sort", SORT_KEYS),
    order: choiceOption(values, "order", ["asc", "desc"] as const),
    type: choiceOption(values, "type", ["file", "folder", "any"] as const),
    glob,
    // Without a glob every entry counts, so a small limit needs only a small first page.
    pageSize: limit !== undefined && glob === undefined ? Math.min(limit, 1000) : undefined,
  };
  if (values.json === true && values.long === true) {
    throw new UsageError("--json and --long cannot be combined (JSON has every field)");
  }
  return {
    options,
    limit,
    json: values.json === true,
    long: values.long === true,
    fullPath: values["full-path"] === true,
    bytes: values.bytes === true,
  };
}

function lineOf(entry: Entry, plan: Plan, out: Output): string {
  if (plan.json) return jsonLine(entryJson(entry));
  if (plan.long) return longLine(entry, out.style, plan);
  return entryName(entry, out.style, plan.fullPath);
}
