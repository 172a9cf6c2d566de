/**
 * `tern get`: downloads files (and with `-r`, folders) to local paths, a few at a time, with
 * one progress bar on a terminal's stderr. A file whose local copy is already current is
 * skipped; one the store's local cache holds is copied from there without a download. Either
 * way it says so.
 *
 * @module
 */

import { isAbsolute, relative } from "node:path";
import { BadRequestError, type Entry, File, type Store } from "../../../mod.ts";
import { asUsage, outputOption, stringOption, UsageError } from "../args.ts";
import { localPath, type Output } from "../io.ts";
import { checkRefs, type Command, type CommandContext, isItemFailure } from "../command.ts";
import { count, humanSize, jsonLine, plural, safeText } from "../format.ts";
import { TransferProgress } from "../progress.ts";
import {
  type Destination,
  destinationOf,
  fileTarget,
  folderTarget,
  targetUnder,
} from "../targets.ts";
import { saveFile, type SaveResult } from "../transfer.ts";
import { mapConcurrent } from "../../client/map_concurrent.ts";
import { statPaths } from "../../client/stat_many.ts";
import { STORE_CONTEXT } from "../../handles/store_context.ts";
import { localStep } from "../../handles/file.ts";
import { quoteInput } from "../../client/errors.ts";

/**
 * `tern get [options] PATH... [-o DEST]`.
 *
 * @example
 * ```sh
 * tern get /iplant/home/shared/tern_samples/formats/penguins.csv
 * tern get -r /iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020 -o data/
 * ```
 */
export const get: Command = {
  name: "get",
  summary: "download files or folders (-r), skipping what is already here",
  usage: "[options] PATH... [-o DEST]",
  description: [
    "Downloads each PATH into DEST (default: the current folder). With one file PATH, DEST",
    "may name the file; otherwise DEST is a folder, created if needed. -r downloads a folder",
    "with everything under it into DEST/<folder name>/.",
    "",
    "A local file with the server's size and date is skipped (counted as up to date); a",
    'file the local cache holds is copied from it ("from cache", no download). Files are',
    "written whole or not at all, and get the server's modification time. A file whose",
    "store checksum is known (one stat per 1,000 files gives them) is checked against it as",
    'it is written, and its line says so ("md5 verified"); a mismatch is read once more,',
    "then an error, with nothing saved. Progress goes to stderr on a terminal; -q keeps",
    "stderr for errors only.",
  ].join("\n"),
  options: {
    output: { type: "string", short: "o", value: "DEST", help: "file or folder to write to" },
    recursive: { type: "boolean", short: "r", help: "download folders with everything under them" },
    glob: {
      type: "string",
      value: "GLOB",
      help: "with -r: only files matching GLOB, e.g. '**/*.csv'",
    },
    force: { type: "boolean", short: "f", help: "write even files that are up to date" },
    quiet: { type: "boolean", short: "q", help: "no status lines or progress, only errors" },
    json: {
      type: "boolean",
      help: "one JSON object per file on stdout: path, local, size, source, checksum",
    },
  },
  examples: [
    "tern get /iplant/home/shared/tern_samples/formats/penguins.csv",
    "tern get /iplant/home/shared/tern_samples/formats/penguins.csv -o data/penguins.csv",
    "tern get -r --glob '**/*.csv' /iplant/home/shared/commons_repo/curated -o data/",
  ],
  run,
};

/** A file to save, and where. */
interface Item {
  entry: Entry;
  target: string;
}

/** What the command was asked to fetch: a file as it is, or a folder to walk (with -r). */
interface Source {
  entry: Entry;
  walk: boolean;
}

/** Runs a task for one item; its failure is reported and the rest go on. */
type Attempt = (task: () => unknown) => Promise<void>;

async function run(context: CommandContext): Promise<number> {
  const { values, positionals } = context.args;
  checkRefs(positionals);
  const glob = stringOption(values, "glob");
  if (glob !== undefined && values.recursive !== true) {
    throw new UsageError("--glob selects files inside folders, so it needs -r");
  }
  const output = outputOption(values, "tern cat PATH prints a file's bytes to stdout");
  const store = await context.store();
  const quiet = values.quiet === true;
  const stderr = context.io.stderr;

  let status = 0;
  const attempt: Attempt = async (task) => {
    try {
      await task();
    } catch (error) {
      if (!isItemFailure(error)) throw error;
      await context.report(error);
      status = 1;
    }
  };
  const sources = await sourcesOf(store, positionals, {
    recursive: values.recursive === true,
    attempt,
  });
  const single = sources.length === 1 && !sources[0].walk;
  // A destination under a file (or unreadable) is a LocalFileError naming both paths.
  const destination = await localStep(
    sources[0]?.entry.path ?? "",
    localPath(context.io, output),
    () => destinationOf(output, single, localPath(context.io)),
    (error) => error instanceof UsageError,
  );
  const items = await itemsOf(store, sources, { destination, glob, attempt });
  await withChecksums(store, items, context.signal);
  const unique = withoutClashes(items, stderr);
  if (unique.length < items.length) status = 1;
  await stderr.flush();

  const totalBytes = unique.reduce((sum, item) => sum + item.entry.size, 0);
  const label = sources.length === 1 ? sources[0].entry.name : plural(sources.length, "item");
  const progress = quiet
    ? undefined
    : new TransferProgress(stderr, label, unique.length, totalBytes);
  const results: SaveResult[] = [];
  // A failed file is reported and the rest go on, so each call settles.
  const save = (item: Item) =>
    attempt(async () => {
      const result = await saveFile(store, item.entry, item.target, {
        force: values.force === true,
        ...(destination.isFolder ? { root: destination.path } : {}),
        onBytes: (count) => progress?.bytes(count),
        signal: context.signal,
      });
      results.push(result);
      progress?.fileDone(item.entry.path, result.source !== "downloaded");
      // Files already here only count in the summary, as rsync does; the rest get a line.
      if (result.source !== "up-to-date") {
        progress?.note(statusLine(result, stderr.style.dim, localPath(context.io)));
      }
      if (values.json === true) {
        context.io.stdout.line(jsonLine({
          path: item.entry.path,
          local: result.local,
          size: result.size,
          source: result.source,
          checksum: result.checksum ?? null,
        }));
        await context.io.stdout.flush();
      }
    });
  try {
    await mapConcurrent(unique, store.options.concurrency, save, { signal: context.signal });
  } finally {
    // Ctrl-C leaves the bar saying so, never drawn as finished.
    await progress?.finish(context.signal.aborted ? "interrupted" : status === 0);
  }
  if (!quiet && results.length > 0) stderr.line(summaryLine(results));
  if (!quiet && items.length === 0 && status === 0) {
    stderr.line(`nothing to download: no files${glob === undefined ? "" : " matched the glob"}`);
  }
  await stderr.flush();
  return status;
}

/** Each path's entry; a folder without -r is that path's failure. */
async function sourcesOf(
  store: Store,
  paths: readonly string[],
  { recursive, attempt }: { recursive: boolean; attempt: Attempt },
): Promise<Source[]> {
  const sources: Source[] = [];
  for (const path of paths) {
    await attempt(async () => {
      const handle = await asUsage(() => store.resolve(path));
      const entry = await handle.stat();
      const walk = !(handle instanceof File);
      if (walk && !recursive) {
        throw new BadRequestError(
          `${quoteInput(entry.path)} is a folder; use -r to download it with everything ` +
            "under it.",
          { path: entry.path },
        );
      }
      sources.push({ entry, walk });
    });
  }
  return sources;
}

/** Files as they are, and folders walked (files only, those matching `glob`). */
async function itemsOf(
  store: Store,
  sources: readonly Source[],
  { destination, glob, attempt }: { destination: Destination; glob?: string; attempt: Attempt },
): Promise<Item[]> {
  const items: Item[] = [];
  for (const source of sources) {
    if (!source.walk) {
      items.push({ entry: source.entry, target: fileTarget(destination, source.entry) });
      continue;
    }
    await attempt(async () => {
      const walk = asUsage(() => store.folder(source.entry).walk({ type: "file", glob }));
      const base = folderTarget(destination, source.entry);
      for await (const entry of walk) {
        await attempt(() => items.push({ entry, target: targetUnder(base, source.entry, entry) }));
      }
    });
  }
  return items;
}

/**
 * A walk's listing carries no checksums: one stat per 1,000 walked files gives them, so each
 * download is checked against the store's checksum too.
 */
async function withChecksums(store: Store, items: Item[], signal: AbortSignal): Promise<void> {
  const walked = items.filter((item) => item.entry.checksum === undefined);
  if (walked.length === 0) return;
  const { transport } = store[STORE_CONTEXT];
  const paths = walked.map((item) => item.entry.path);
  const { entries } = await statPaths(transport, paths, { signal });
  for (const item of walked) item.entry = entries.get(item.entry.path) ?? item.entry;
}

/** The items but those whose local path an earlier one has: one would overwrite the other. */
function withoutClashes(items: readonly Item[], stderr: Output): Item[] {
  const byTarget = Map.groupBy(items, (item) => item.target);
  return items.filter((item) => {
    const [first] = byTarget.get(item.target)!;
    if (first === item) return true;
    stderr.line(
      `${stderr.style.error("error:")} ${safeText(item.entry.path)} and ` +
        `${safeText(first.entry.path)} ` +
        `would both be saved as ${safeText(item.target)}; skipped the second`,
    );
    return false;
  });
}

function statusLine(result: SaveResult, dim: (text: string) => string, cwd: string): string {
  const [verb, size] = result.source === "downloaded"
    ? ["downloaded", humanSize(result.size)]
    : ["from cache", `${humanSize(result.size)}, no download`];
  const algorithm = result.checksum?.slice(0, result.checksum.indexOf(":"));
  const detail = `${size}, ${algorithm ? `${algorithm} verified` : "checksum unknown"}`;
  return `${verb}  ${safeText(shortLocal(result.local, cwd))} ${dim(`(${detail})`)}`;
}

/** A local path as short as it can be said: relative to the current folder when under it. */
function shortLocal(path: string, cwd: string): string {
  const shorter = relative(cwd, path);
  return shorter !== "" && !shorter.startsWith("..") && !isAbsolute(shorter) ? shorter : path;
}

function summaryLine(results: readonly SaveResult[]): string {
  const by = (source: SaveResult["source"]) => results.filter((r) => r.source === source).length;
  const bytes = results.reduce((sum, result) => sum + result.size, 0);
  const parts = [
    [by("downloaded"), "downloaded"],
    [by("cache"), "from the local cache"],
    [by("up-to-date"), "already up to date"],
  ].filter(([n]) => n !== 0).map(([n, what]) => `${count(n as number)} ${what}`);
  return `${plural(results.length, "file")} (${humanSize(bytes)}): ${parts.join(", ")}`;
}
