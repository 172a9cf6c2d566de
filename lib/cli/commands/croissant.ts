/**
 * `tern croissant`: a dataset folder as Croissant 1.0 JSON-LD, the description ML tooling
 * (Hugging Face, Kaggle, mlcroissant loaders) reads: its metadata, its files with the URLs a
 * reader fetches them at and the store's checksums, and the typed columns of its tables.
 *
 * @module
 */

import { asUsage, intOption, outputOption } from "../args.ts";
import { checkRef, type Command, onlyArg, resolveArg } from "../command.ts";
import { plural, safeText } from "../format.ts";
import { visibleJson } from "../../registry/visible_text.ts";
import { localPath } from "../io.ts";

/**
 * `tern croissant [--no-record-sets] [--head-rows N] DATASET [-o FILE]`.
 *
 * @example
 * ```sh
 * tern croissant /iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020 -o croissant.json
 * ```
 */
export const croissant: Command = {
  name: "croissant",
  summary: "describe a dataset as Croissant 1.0 JSON-LD for ML tooling",
  usage: "[--no-record-sets] [--head-rows N] DATASET [-o FILE]",
  description: [
    "Prints the Croissant 1.0 document of the dataset folder DATASET (or writes it to FILE):",
    "its metadata, one FileObject per file under it (a public file's anonymous URL, a private",
    "file's download URL, read with your token; no token is written), with its size, media",
    "type and the store's checksum, and one RecordSet per table file whose Fields are its",
    "columns, typed from the first --head-rows rows (default 1000; a public Parquet file",
    "gives its types from its footer). --no-record-sets lists the files only. See",
    "docs/reproducibility.md.",
  ].join("\n"),
  options: {
    output: { type: "string", short: "o", value: "FILE", help: "write the document to FILE" },
    "no-record-sets": { type: "boolean", help: "list the files only: no table is read" },
    "head-rows": {
      type: "string",
      value: "N",
      help: "rows a CSV, TSV or JSON Lines file's types are inferred from (default 1000)",
    },
    quiet: { type: "boolean", short: "q", help: "no summary line, only errors" },
  },
  examples: [
    "tern croissant /iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020",
    "tern croissant --no-record-sets /iplant/home/shared/commons_repo/curated/BTS_FlightDelays_OnTime_2021 -o flights.json",
  ],
  run: async (context) => {
    const { values, positionals } = context.args;
    const dataset = onlyArg(positionals, "croissant", "DATASET");
    const headRows = intOption(values, "head-rows", 1);
    const output = outputOption(values, "without -o the document goes to stdout");
    const path = await resolveArg(context, checkRef(dataset));
    const store = await context.store({ progress: true });
    const document = await asUsage(() => store.dataset(path)).croissant({
      recordSets: values["no-record-sets"] !== true,
      headRows,
      signal: context.signal,
    });
    const json = `${visibleJson(JSON.stringify(document, null, 2))}\n`;
    if (output === undefined) {
      context.io.stdout.text(json);
      await context.io.stdout.flush();
    } else {
      await Deno.writeTextFile(localPath(context.io, output), json);
      if (values.quiet !== true) {
        context.io.stderr.line(
          `wrote the Croissant of ${safeText(document.name)} (${
            plural(document.distribution.length, "file")
          }, ${plural(document.recordSet.length, "record set")}) to ${safeText(output)}`,
        );
        await context.io.stderr.flush();
      }
    }
    return 0;
  },
};
