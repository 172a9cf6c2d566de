/**
 * Ready-to-run code that reads a written manifest's files with another engine (Dask, DuckDB,
 * Polars, all Python). The code takes the access token from the environment (`TERRAIN_TOKEN`)
 * and holds none itself: a snippet is made from the manifest's file name and what its rows
 * need, never from a credential. The Dask snippet for CSV files is the one
 * `tests/listing/dask_test.ts` runs on a two-process Dask cluster and `docs/engines.md` shows;
 * the others say in their first line that no test runs them.
 *
 * @module
 */

import type { DataFrame } from "../deps.ts";

/**
 * The environment variable the snippets read the access token from (the one `connect()` and the
 * CLI read too).
 *
 * @example
 * ```ts
 * import { TOKEN_VARIABLE } from "./engines.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(TOKEN_VARIABLE, "TERRAIN_TOKEN");
 * ```
 */
export const TOKEN_VARIABLE = "TERRAIN_TOKEN";

/**
 * What the snippets for one manifest need to know.
 *
 * @example
 * ```ts
 * import type { SnippetPlan } from "./engines.ts";
 *
 * const plan: SnippetPlan = { manifest: "manifest.csv", format: "csv", public: true, token: false };
 * ```
 */
export interface SnippetPlan {
  /** The manifest file the code reads (written as CSV: `writeManifest` or `tern manifest`). */
  manifest: string;
  /** The table format of the files to read. */
  format: "csv" | "parquet";
  /** Whether some of those files are public (read with no credentials). */
  public: boolean;
  /** Whether some of those files need the caller's token. */
  token: boolean;
}

/**
 * One engine's code for a manifest.
 *
 * @example
 * ```ts
 * import type { EngineSnippet } from "./engines.ts";
 *
 * const label = (snippet: EngineSnippet) => `${snippet.engine}${snippet.tested ? "" : " (untested)"}`;
 * ```
 */
export interface EngineSnippet {
  /** The engine, as its users call it. */
  engine: "Dask" | "DuckDB" | "Polars";
  /** The language of `code`. */
  language: "python";
  /** The code, ending with a newline. */
  code: string;
  /**
   * Whether a tern test runs this code: the Dask code for CSV files, as given for a manifest with
   * both public and private files (a manifest with one kind gets the same code without the
   * other's lines).
   */
  tested: boolean;
}

/**
 * The plan for a manifest frame (the columns `format` and `access` of `listing.manifest()`): the
 * table format most of its files have (CSV when there is none), and which kinds of access those
 * files need.
 *
 * @example
 * ```ts
 * import pl from "../../polars.ts";
 * import { snippetPlan } from "./engines.ts";
 * import assert from "node:assert/strict";
 *
 * const manifest = pl.DataFrame({
 *   format: ["parquet", "parquet", "csv"],
 *   access: ["public", "token", "public"],
 * });
 * assert.deepEqual(snippetPlan(manifest), {
 *   manifest: "manifest.csv", format: "parquet", public: true, token: true,
 * });
 * ```
 */
export function snippetPlan(frame: DataFrame, manifest = "manifest.csv"): SnippetPlan {
  const formats = frame.getColumn("format").toArray() as (string | null)[];
  const access = frame.getColumn("access").toArray() as string[];
  const count = (format: string) => formats.filter((value) => value === format).length;
  const format = count("parquet") > count("csv") ? "parquet" : "csv";
  const kinds = new Set(access.filter((_, index) => formats[index] === format));
  return { manifest, format, public: kinds.has("public"), token: kinds.has("token") };
}

/**
 * The Dask, DuckDB and Polars (Python) code that reads the plan's files, in that order. Each
 * reads the manifest file, picks the rows of the plan's format, reads public URLs with no
 * credentials and `token` URLs with `Authorization: Bearer` and the token from `TERRAIN_TOKEN`.
 * Terrain's download answers no byte ranges, so a private file is read whole (one Dask
 * partition); public files split into byte-range partitions. A plan with neither public nor
 * token files still gets code for public ones.
 *
 * @example
 * ```ts
 * import { engineSnippets } from "./engines.ts";
 * import assert from "node:assert/strict";
 *
 * const [dask, duckdb] = engineSnippets({
 *   manifest: "manifest.csv", format: "csv", public: true, token: true,
 * });
 * assert.ok(dask.tested);
 * assert.ok(dask.code.includes('os.environ["TERRAIN_TOKEN"]'));
 * assert.ok(duckdb.code.startsWith("# Untested"));
 * ```
 */
export function engineSnippets(plan: SnippetPlan): EngineSnippet[] {
  const wanted = { ...plan, public: plan.public || !plan.token };
  return [
    { engine: "Dask", language: "python", code: dask(wanted), tested: wanted.format === "csv" },
    { engine: "DuckDB", language: "python", code: duckdb(wanted), tested: false },
    { engine: "Polars", language: "python", code: polars(wanted), tested: false },
  ];
}

/** A Python string literal (JSON's escapes are Python's). */
function py(text: string): string {
  return JSON.stringify(text);
}

function untested(why: string): string {
  return `# Untested: no tern test runs this code (${why}).\n`;
}

/** The lines that pick the manifest rows of the plan's format and each kind of access. */
function urlLines(plan: SnippetPlan, read: string): string[] {
  return [
    `manifest = ${read}(${py(plan.manifest)})  # tern manifest FOLDER -o ${plan.manifest}`,
    `tables = manifest[manifest["format"] == ${py(plan.format)}]`,
    ...(plan.public
      ? ['public_urls = tables.loc[tables["access"] == "public", "url"].tolist()']
      : []),
    ...(plan.token ? ['token_urls = tables.loc[tables["access"] == "token", "url"].tolist()'] : []),
  ];
}

const BEARER = `"Bearer " + os.environ["${TOKEN_VARIABLE}"]`;

function dask(plan: SnippetPlan): string {
  const csv = plan.format === "csv";
  const lines = [
    ...(csv ? [] : [untested("Debian's Dask, which the tests use, has no Parquet engine").trim()]),
    ...(plan.token && csv ? ["import os", ""] : []),
    "import dask.dataframe as dd",
    "import pandas as pd",
    "from dask.distributed import Client, LocalCluster",
    "",
    ...urlLines(plan, "pd.read_csv"),
    ...(plan.token && csv
      ? [
        "# Private files: Terrain's download, with your token (from the environment) as a bearer",
        "# header. Dask hands these options to its workers with the tasks that read the files.",
        `auth = {"client_kwargs": {"headers": {"Authorization": ${BEARER}}}}`,
      ]
      : []),
    "",
    "# A script's worker processes import it again: only the main process starts the cluster.",
    'if __name__ == "__main__":',
    "    cluster = LocalCluster(",
    "        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None",
    "    )",
    "    client = Client(cluster)",
    ...(plan.public
      ? csv
        ? [
          "    # Public files: byte-range partitions of at most 16 MB.",
          '    public = dd.read_csv(public_urls, blocksize="16MB")',
        ]
        : ["    public = dd.read_parquet(public_urls)"]
      : []),
    ...(plan.token
      ? csv
        ? [
          "    # Terrain's download answers no byte ranges: one partition per private file.",
          "    private = dd.read_csv(token_urls, blocksize=None, storage_options=auth)",
        ]
        : [
          "    # Terrain's download answers no byte ranges, which Parquet readers need: stage",
          "    # private Parquet files with `tern get -r` and read the local copies instead.",
        ]
      : []),
    `    print(${plan.public ? "public" : csv ? "private" : "client"})`,
  ];
  return `${lines.join("\n")}\n`;
}

function duckdb(plan: SnippetPlan): string {
  const read = plan.format === "csv" ? "read_csv" : "read_parquet";
  const lines = [
    untested("DuckDB's httpfs extension cannot be installed where they run").trim(),
    ...(plan.token ? ["import os", ""] : []),
    "import duckdb",
    "",
    "db = duckdb.connect()",
    'db.execute("INSTALL httpfs; LOAD httpfs;")',
    `manifest = db.read_csv(${py(plan.manifest)}).df()  # tern manifest FOLDER -o ${plan.manifest}`,
    ...urlLines(plan, "").slice(1),
    ...(plan.public ? [`public = db.${read}(public_urls)`] : []),
    ...(plan.token
      ? [
        "# Private files: Terrain's download, with your token (from the environment) as a bearer",
        "# header for URLs under the download route only. It answers no byte ranges, so this",
        "# second connection downloads each file whole.",
        "private_db = duckdb.connect()",
        'private_db.execute("LOAD httpfs; SET force_download = true;")',
        `bearer = ${BEARER}`,
        'scope = token_urls[0].split("?")[0]',
        "private_db.execute(",
        `    f"CREATE SECRET terrain (TYPE http, SCOPE '{scope}', "`,
        `    f"EXTRA_HTTP_HEADERS MAP {{'Authorization': '{bearer}'}})"`,
        ")",
        `private = private_db.${read}(token_urls)`,
      ]
      : []),
    `print(${plan.public ? "public" : "private"}.limit(10))`,
  ];
  return `${lines.join("\n")}\n`;
}

function polars(plan: SnippetPlan): string {
  const scan = plan.format === "csv" ? "scan_csv" : "scan_parquet";
  const read = plan.format === "csv" ? "read_csv" : "read_parquet";
  const lines = [
    untested("Python Polars is not installed where they run").trim(),
    ...(plan.token ? ["import os", ""] : []),
    "import polars as pl",
    ...(plan.token ? ["import requests"] : []),
    "",
    `manifest = pl.read_csv(${py(plan.manifest)})  # tern manifest FOLDER -o ${plan.manifest}`,
    `tables = manifest.filter(pl.col("format") == ${py(plan.format)})`,
    ...(plan.public
      ? [
        'public_urls = tables.filter(pl.col("access") == "public")["url"].to_list()',
        "# Polars reads http(s) URLs itself, fetching byte ranges.",
        `public = pl.${scan}(public_urls)`,
      ]
      : []),
    ...(plan.token
      ? [
        'token_urls = tables.filter(pl.col("access") == "token")["url"].to_list()',
        "# Private files: Terrain's download, with your token (from the environment) as a bearer",
        "# header; it answers no byte ranges, so each file is fetched whole.",
        `headers = {"Authorization": ${BEARER}}`,
        "",
        "",
        "def fetch(url):",
        "    response = requests.get(url, headers=headers, timeout=300)",
        "    response.raise_for_status()",
        `    return pl.${read}(response.content)`,
        "",
        "",
        "private = pl.concat([fetch(url) for url in token_urls])",
      ]
      : []),
    `print(${plan.public ? "public.head(10).collect()" : "private.head(10)"})`,
  ];
  return `${lines.join("\n")}\n`;
}
