/**
 * `tern head`: the first rows of a table file (any format of the format registry's tables) as a
 * table, CSV or JSON lines. For text formats the download stops as soon
 * as the rows have arrived.
 *
 * @module
 */

import { asUsage, exclusive, intOption } from "../args.ts";
import { checkRefs, type Command, type CommandContext, eachPath } from "../command.ts";
import { jsonLine, safeText } from "../format.ts";
import { wrap } from "../../sample/readme.ts";
import { SUPPORTED_FORMATS } from "../../registry/file_formats.ts";
import type { DataFrame } from "../../deps.ts";
import { loadPolars } from "../../polars/adapter.ts";

/**
 * `tern head [-n N] [--csv | --json] PATH...`.
 *
 * @example
 * ```sh
 * tern head -n 5 /iplant/home/shared/tern_samples/formats/penguins.parquet
 * tern head --json /iplant/home/shared/tern_samples/formats/penguins.csv | jq .Species
 * ```
 */
export const head: Command = {
  name: "head",
  summary: "preview the first rows of a table file (CSV, Parquet, …)",
  usage: "[-n N] [--csv | --json] PATH...",
  description: [
    "Reads the first N rows of each file with Polars and prints them as Polars' table.",
    wrap(`Formats: ${SUPPORTED_FORMATS}. Text formats stop downloading once N rows have arrived.`),
  ].join("\n"),
  options: {
    lines: { type: "string", short: "n", value: "N", help: "rows to show (default 10)" },
    csv: { type: "boolean", help: "CSV with a header line instead of a table" },
    json: { type: "boolean", help: "one JSON object per row and line" },
  },
  examples: [
    "tern head /iplant/home/shared/tern_samples/formats/penguins.csv",
    "tern head -n 3 --csv /iplant/home/shared/tern_samples/formats/penguins.parquet",
  ],
  run,
};

/** Table width when stdout is not a terminal (a pager or a file). */
const PIPED_WIDTH = 160;

/**
 * Polars' own table, as Polars users know it (docs/cli.md shows it): every row asked for, as
 * wide as the terminal, names and values with control characters escaped. Polars keeps its
 * table settings process-wide, so they are put back at once.
 */
async function polarsTable(frame: DataFrame, rows: number, width: number): Promise<string> {
  const { Config } = await loadPolars();
  Config.setTblRows(Math.max(rows, 1)).setTblWidthChars(width);
  try {
    return frame.toString().split("\n").map(safeText).join("\n");
  } finally {
    Config.setTblRows().setTblWidthChars();
  }
}

async function run(context: CommandContext): Promise<number> {
  const { values, positionals } = context.args;
  exclusive(values, ["csv", "json"]);
  const rows = intOption(values, "lines", 0) ?? 10;
  checkRefs(positionals);
  const store = await context.store();
  const out = context.io.stdout;
  const width = out.width(PIPED_WIDTH);
  return await eachPath(context, positionals, async (path, index) => {
    const frame = await asUsage(() => store.file(path)).head(rows);
    if (positionals.length > 1 && values.json !== true) {
      out.line(`${index > 0 ? "\n" : ""}==> ${safeText(path)} <==`);
    }
    if (values.json === true) {
      for (const record of frame.toRecords()) out.line(jsonLine(record));
    } else if (values.csv === true) {
      out.text(frame.writeCSV().toString());
    } else {
      out.line(await polarsTable(frame, rows, width));
    }
    await out.flush();
  });
}
