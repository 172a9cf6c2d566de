/**
 * `tern stat`: what the store knows about files and folders — kind, size, dates, id,
 * permission, and for files the detected media type and public URL.
 *
 * @module
 */

import { File } from "../../../mod.ts";
import { asUsage } from "../args.ts";
import { checkRefs, type Command, type CommandContext, eachPath } from "../command.ts";
import {
  count,
  entryJson,
  fields,
  fileType,
  humanSize,
  isoDate,
  jsonLine,
  safeText,
} from "../format.ts";

/**
 * `tern stat [options] PATH...`.
 *
 * @example
 * ```sh
 * tern stat /iplant/home/shared/tern_samples/formats/penguins.csv
 * tern stat --json 5fd7deff-dc59-52aa-86bf-4ccace6f7a31
 * ```
 */
export const stat: Command = {
  name: "stat",
  summary: "show a file's or folder's size, dates, id, type and public URL",
  usage: "[options] PATH...",
  options: {
    json: { type: "boolean", help: "one JSON object per PATH and line" },
  },
  examples: [
    "tern stat /iplant/home/shared/tern_samples/formats/penguins.csv",
    "tern stat --json /iplant/home/shared/tern_samples/formats/penguins.csv | jq .size",
  ],
  run,
};

async function run(context: CommandContext): Promise<number> {
  const { values, positionals } = context.args;
  checkRefs(positionals);
  const store = await context.store();
  const out = context.io.stdout;
  return await eachPath(context, positionals, async (path, index) => {
    const handle = await asUsage(() => store.entry(path));
    const entry = await handle.stat();
    const manifest = handle instanceof File ? await handle.manifest() : undefined;
    if (values.json === true) {
      const extra = manifest === undefined
        ? {}
        : { contentType: manifest.contentType, publicUrl: manifest.publicUrl ?? null };
      out.line(jsonLine(entryJson(entry, extra)));
    } else {
      if (index > 0) out.line();
      out.line(fields([
        ["path", safeText(entry.path)],
        ["type", entry.type],
        [
          "size",
          entry.type === "file"
            ? `${count(entry.size)} bytes (${humanSize(entry.size)})`
            : undefined,
        ],
        ["modified", isoDate(entry.modified) ?? "unknown"],
        ["created", isoDate(entry.created) ?? "unknown"],
        ["file type", entry.type === "folder" ? undefined : safeText(fileType(entry))],
        ["media type", manifest === undefined ? undefined : safeText(manifest.contentType)],
        ["permission", entry.permission],
        ["id", entry.id],
        [
          "public URL",
          manifest === undefined ? undefined : safeText(manifest.publicUrl ?? "none (not public)"),
        ],
      ]));
    }
    await out.flush();
  });
}
