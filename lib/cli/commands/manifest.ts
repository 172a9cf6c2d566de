/**
 * `tern manifest`: the manifest of a folder's files (everything under it, or what `--glob`
 * matches) written to a file for another engine — Dask, DuckDB, Polars on another machine —
 * as CSV, JSON or Parquet by its extension, and with `--code ENGINE` the Python code that reads
 * it with that engine, on stdout. Public files get their anonymous URL; private ones Terrain's
 * download URL, read with the caller's token. No token is written, in the file or the code.
 *
 * @module
 */

import { engineSnippets, manifestFormatOf, snippetPlan, writeManifest } from "../../../mod.ts";
import { asUsage, stringOption, UsageError } from "../args.ts";
import { checkRef, type Command, onlyArg, resolveArg } from "../command.ts";
import { localPath } from "../io.ts";
import { plural, safeText } from "../format.ts";

/** The engines `--code` names, as the option takes them. */
const CODE_ENGINES = ["dask", "duckdb", "polars"];

/**
 * `tern manifest [options] FOLDER -o FILE`.
 *
 * @example
 * ```sh
 * tern manifest /iplant/home/shared/commons_repo/curated/BTS_FlightDelays_OnTime_2021 -o flights.csv
 * tern manifest --glob '**' + '/*.parquet' /iplant/home/shared/commons_repo -o tables.parquet
 * tern manifest /iplant/home/shared/commons_repo/curated/BTS_FlightDelays_OnTime_2021 -o flights.csv --code dask > flights.py
 * ```
 */
export const manifest: Command = {
  name: "manifest",
  summary: "write a folder's files as a manifest of URLs for other engines",
  usage: "[options] FOLDER -o FILE",
  description: [
    "Writes one row per file under FOLDER (path, id, size, modified, checksum, format,",
    "contentType, url, access) to FILE, as CSV, JSON or Parquet by its extension (.csv, .json,",
    ".parquet).",
    "--glob matches paths relative to FOLDER ('**' crosses folders). A public file's url is",
    "its anonymous dav-anon URL (access public); a private file's is Terrain's download URL",
    '(access token): send your token as "Authorization: Bearer ..." to read it. No token is',
    "written into FILE. --code prints Python code that reads FILE's tables with Dask, DuckDB",
    "or Polars (stdout holds only the code): it reads your token from TERRAIN_TOKEN and sends",
    "it only to this store's URLs, when TERRAIN_URL names this store. See docs/engines.md.",
  ].join("\n"),
  options: {
    output: {
      type: "string",
      short: "o",
      value: "FILE",
      help: "where to write: FILE.csv, FILE.json or FILE.parquet",
    },
    glob: { type: "string", value: "GLOB", help: "only files matching GLOB, e.g. '**/*.csv'" },
    code: {
      type: "string",
      value: "ENGINE",
      help: "also print code that reads FILE: dask, duckdb or polars",
    },
    quiet: { type: "boolean", short: "q", help: "no summary line, only errors" },
  },
  examples: [
    "tern manifest /iplant/home/shared/commons_repo/curated/BTS_FlightDelays_OnTime_2021 -o flights.csv",
    "tern manifest --glob '**/*.parquet' /iplant/home/shared/commons_repo/curated -o tables.parquet",
    'tern manifest --token "$TERRAIN_TOKEN" /iplant/home/me/project -o mine.json',
    "tern manifest /iplant/home/shared/commons_repo/curated -o tables.csv --code dask > tables.py",
  ],
  run: async (context) => {
    const { values, positionals } = context.args;
    const given = onlyArg(positionals, "manifest", "FOLDER");
    const output = stringOption(values, "output");
    if (output === undefined) throw new UsageError("missing -o FILE (.csv, .json or .parquet)");
    if (manifestFormatOf(output) === undefined) {
      throw new UsageError(
        `-o ${JSON.stringify(output)}: the file name must end in .csv, .json or .parquet`,
      );
    }
    const code = stringOption(values, "code");
    if (code !== undefined && !CODE_ENGINES.includes(code)) {
      throw new UsageError(
        `--code ${JSON.stringify(code)}: the engine is one of ${CODE_ENGINES.join(", ")}`,
      );
    }
    const glob = stringOption(values, "glob");
    const folder = await resolveArg(context, checkRef(given));
    const store = await context.store({ progress: true });
    const walk = asUsage(() => store.folder(folder).walk({ type: "file", glob }));
    const frame = await walk.manifest({ signal: context.signal });
    await writeManifest(frame, localPath(context.io, output));
    if (values.quiet !== true) {
      const access = frame.getColumn("access").toArray() as string[];
      const private_ = access.filter((value) => value === "token").length;
      const stderr = context.io.stderr;
      stderr.line(
        `wrote ${plural(frame.height, "file")} to ${safeText(output)}` +
          (private_ === 0 ? "" : `; ${private_} private: read with your token as a bearer header`),
      );
      await stderr.flush();
    }
    if (code !== undefined) {
      const plan = snippetPlan(frame, { manifest: output, store: store.options.url });
      const snippet = engineSnippets(plan).find((each) => each.engine.toLowerCase() === code)!;
      context.io.stdout.text(snippet.code);
      await context.io.stdout.flush();
    }
    return 0;
  },
};
