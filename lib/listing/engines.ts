/**
 * Ready-to-run code that reads a written manifest's files with another engine (Dask, DuckDB,
 * Polars, all Python): every table format of the manifest that the engine reads, each with that
 * engine's reader (TSV with a tab separator), public files with no credentials and private ones
 * with the token from the environment (`TERRAIN_TOKEN`).
 *
 * A manifest is data, and a row may name any host: the code sends the token only to URLs under
 * the store the manifest was made for, and only when that store is the one the environment
 * configures (`TERRAIN_URL`, else tern's default), as `connect()` would. A private row anywhere
 * else stops the code before its first request, naming the row. The code holds no credential:
 * it is made from the manifest's file name, its store's URL and its rows' formats and access.
 *
 * The Dask code for a CSV manifest of CSV, TSV, JSON and JSON Lines files is what
 * `tests/listing/dask_test.ts` runs on a two-process Dask cluster and `docs/engines.md` shows;
 * any other code says in its first line that no test runs it.
 *
 * @module
 */

import type { DataFrame } from "../deps.ts";
import type { Access } from "../client/endpoints.ts";
import { BadRequestError } from "../client/errors.ts";
import { DEFAULT_URL } from "../client/same_store.ts";
import { TABLE_FORMATS, type TableFormat, tableFormat } from "../registry/file_formats.ts";
import { manifestFormatOf } from "./manifest.ts";

/**
 * The environment variable the code reads the access token from (the one `connect()` and the
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
 * The environment variable that names the store the token is for (the one `connect()` and the
 * CLI read too); unset, it is {@linkcode DEFAULT_URL}.
 */
const URL_VARIABLE = "TERRAIN_URL";

/**
 * The engines tern writes code for, as their users call them.
 *
 * @example
 * ```ts
 * import { type Engine, engineSnippets } from "./engines.ts";
 * import assert from "node:assert/strict";
 *
 * const plan = { manifest: "m.csv", store: "https://de.cyverse.org/terrain", public: [], token: [] };
 * const engines: Engine[] = engineSnippets(plan).map((snippet) => snippet.engine);
 * assert.deepEqual(engines, ["Dask", "DuckDB", "Polars"]);
 * ```
 */
export type Engine = "Dask" | "DuckDB" | "Polars";

/**
 * What the code for one manifest needs to know.
 *
 * @example
 * ```ts
 * import { engineSnippets, type SnippetPlan } from "./engines.ts";
 * import assert from "node:assert/strict";
 *
 * const plan: SnippetPlan = {
 *   manifest: "manifest.csv",
 *   store: "https://de.cyverse.org/terrain",
 *   public: ["csv", "tsv"],
 *   token: [],
 * };
 * const [dask] = engineSnippets(plan);
 * assert.ok(dask.code.includes('manifest = pd.read_csv("manifest.csv")'));
 * assert.ok(!dask.code.includes("TERRAIN_TOKEN")); // no private files, no token
 * ```
 */
export interface SnippetPlan {
  /** The manifest file the code reads: `.csv`, `.json` or `.parquet`, as `writeManifest` wrote it. */
  manifest: string;
  /** The base URL of the store the manifest was made for: the only one that gets the token. */
  store: string;
  /** The table formats of the public files (read with no credentials), in registry order. */
  public: readonly TableFormat[];
  /** The table formats of the private files (read with the token), in registry order. */
  token: readonly TableFormat[];
}

/**
 * Options of {@linkcode snippetPlan}.
 *
 * @example
 * ```ts
 * import pl from "../../polars.ts";
 * import { snippetPlan, type SnippetPlanOptions } from "./engines.ts";
 * import assert from "node:assert/strict";
 *
 * const options: SnippetPlanOptions = { store: "https://de.cyverse.org/terrain" };
 * const frame = pl.DataFrame({ format: ["csv"], access: ["public"] });
 * assert.equal(snippetPlan(frame, options).manifest, "manifest.csv");
 * ```
 */
export interface SnippetPlanOptions {
  /** The store the manifest was made for (`store.options.url`). */
  store: string;
  /**
   * The file the code reads the manifest from: `.csv`, `.json` or `.parquet`.
   *
   * @default "manifest.csv"
   */
  manifest?: string;
}

/**
 * One engine's code for a manifest.
 *
 * @example
 * ```ts
 * import { type EngineSnippet, engineSnippets } from "./engines.ts";
 * import assert from "node:assert/strict";
 *
 * const label = (snippet: EngineSnippet) => `${snippet.engine}${snippet.tested ? "" : " (untested)"}`;
 * const plan = { manifest: "m.csv", store: "https://de.cyverse.org/terrain", public: ["csv" as const], token: [] };
 * assert.deepEqual(engineSnippets(plan).map(label), ["Dask", "DuckDB (untested)", "Polars (untested)"]);
 * ```
 */
export interface EngineSnippet {
  /** The engine, as its users call it. */
  engine: Engine;
  /** The language of `code`. */
  language: "python";
  /** The code, ending with a newline. */
  code: string;
  /**
   * Whether a tern test runs this code: the Dask code for a CSV manifest whose tables are CSV,
   * TSV, JSON or JSON Lines (the test's manifest has all four, public and private; a manifest
   * with fewer gets the same code without the others' lines).
   */
  tested: boolean;
}

/**
 * The plan for a manifest frame (its columns `format` and `access`, as `listing.manifest()`
 * gives them): the table formats of its public files and of its private ones. Files that are
 * not tables (`format` null) are not read.
 *
 * @throws {BadRequestError} when `store` is not an http(s) URL, or `manifest` does not end in
 * `.csv`, `.json` or `.parquet`.
 *
 * @example
 * ```ts
 * import pl from "../../polars.ts";
 * import { snippetPlan } from "./engines.ts";
 * import assert from "node:assert/strict";
 *
 * const manifest = pl.DataFrame({
 *   format: ["parquet", "tsv", "csv", null],
 *   access: ["public", "token", "public", "token"],
 * });
 * assert.deepEqual(snippetPlan(manifest, { store: "https://de.cyverse.org/terrain/" }), {
 *   manifest: "manifest.csv",
 *   store: "https://de.cyverse.org/terrain",
 *   public: ["csv", "parquet"],
 *   token: ["tsv"],
 * });
 * ```
 */
export function snippetPlan(frame: DataFrame, options: SnippetPlanOptions): SnippetPlan {
  const manifest = options.manifest ?? "manifest.csv";
  if (manifestFormatOf(manifest) === undefined) {
    throw new BadRequestError(
      `manifest must name a .csv, .json or .parquet file, got ${JSON.stringify(manifest)}.`,
    );
  }
  const formats = frame.getColumn("format").toArray() as (string | null)[];
  const access = frame.getColumn("access").toArray() as string[];
  const of = (kind: Access) =>
    TABLE_FORMATS.filter((format) =>
      formats.some((value, index) => value === format && access[index] === kind)
    );
  return { manifest, store: storeUrl(options.store), public: of("public"), token: of("token") };
}

/**
 * The Dask, DuckDB and Polars (Python) code that reads the plan's files, in that order. Each
 * reads the manifest file, then every public table format of the plan with the engine's reader
 * and no credentials, and every private one with `Authorization: Bearer` and the token from
 * `TERRAIN_TOKEN`, after checking that `TERRAIN_URL` (else tern's default) is the plan's store
 * and that every private row's URL is under it. Terrain's download answers no byte ranges, so a
 * private file is read whole (one Dask partition); public CSV, TSV and JSON Lines files split
 * into byte-range partitions. What an engine's code does not read (Arrow IPC files, private
 * Parquet files in Dask) it names in a comment.
 *
 * @example
 * ```ts
 * import { engineSnippets } from "./engines.ts";
 * import assert from "node:assert/strict";
 *
 * const [dask, duckdb, polars] = engineSnippets({
 *   manifest: "manifest.csv", store: "https://de.cyverse.org/terrain",
 *   public: ["csv", "tsv"], token: ["csv"],
 * });
 * assert.ok(dask.tested);
 * assert.ok(dask.code.includes('dd.read_csv(urls("public", "tsv"), sep="\\t", blocksize="16MB")'));
 * assert.ok(dask.code.includes('os.environ["TERRAIN_TOKEN"]'));
 * assert.ok(dask.code.includes('STORE = "https://de.cyverse.org/terrain"'));
 * assert.ok(duckdb.code.startsWith("# Untested"));
 * assert.ok(polars.code.includes('pl.scan_csv(urls("public", "tsv"), separator="\\t")'));
 * ```
 */
export function engineSnippets(plan: SnippetPlan): EngineSnippet[] {
  return ENGINES.map((engine) => snippet(engine, plan));
}

/** How one engine reads one table format: Python calls, `URLS` standing for a list of URLs. */
interface Reader {
  /** The call that reads public files. */
  public: string;
  /** The call that reads private files, or why the code does not read them. */
  token: string | { unread: string };
  /** Whether `tests/listing/dask_test.ts` runs these calls. */
  tested: boolean;
}

/** One engine: its reader of each table format (undefined: none), and how its code is laid out. */
interface EngineCode {
  engine: Engine;
  readers: Record<TableFormat, Reader | undefined>;
  /** Why a test cannot run this engine's code, when none can. */
  untested?: string;
  /** The manifest reader for each manifest format, `PATH` standing for the file name. */
  manifest: Record<"csv" | "json" | "parquet", string>;
  /** The code, given the plan's reads. */
  lines(plan: SnippetPlan, reads: Reads): string[];
}

/** The calls the code makes for each kind of access, and what it leaves unread. */
interface Reads {
  public: string[];
  token: string[];
  unread: string[];
}

const STAGE_PARQUET = "Parquet readers need byte ranges, which Terrain's download does not " +
  "answer: stage them with `tern get -r` and read the local copies";
const ARROW = "the manifest does not tell an Arrow IPC file from a stream: read them with " +
  "tern, or `tern get` them and use the engine's IPC reader";
const MANIFEST_COMMENT = "# tern manifest FOLDER -o";

/** DuckDB: one call for both kinds, on the connection `DB` stands for (the private one downloads whole). */
const onConnection = (read: string): Reader => ({ public: read, token: read, tested: false });

const DASK: EngineCode = {
  engine: "Dask",
  readers: {
    csv: {
      public: 'dd.read_csv(URLS, blocksize="16MB")',
      token: "dd.read_csv(URLS, blocksize=None, storage_options=auth)",
      tested: true,
    },
    tsv: {
      public: 'dd.read_csv(URLS, sep="\\t", blocksize="16MB")',
      token: 'dd.read_csv(URLS, sep="\\t", blocksize=None, storage_options=auth)',
      tested: true,
    },
    json: {
      public: 'dd.read_json(URLS, orient="records", lines=False)',
      token: 'dd.read_json(URLS, orient="records", lines=False, storage_options=auth)',
      tested: true,
    },
    ndjson: {
      public: 'dd.read_json(URLS, orient="records", lines=True, blocksize="16MB")',
      token: 'dd.read_json(URLS, orient="records", lines=True, storage_options=auth)',
      tested: true,
    },
    parquet: { public: "dd.read_parquet(URLS)", token: { unread: STAGE_PARQUET }, tested: false },
    arrow: undefined,
    excel: undefined,
  },
  manifest: {
    csv: "pd.read_csv(PATH)",
    json: 'pd.read_json(PATH, orient="records")',
    parquet: "pd.read_parquet(PATH)",
  },
  lines: (plan, reads) => [
    ...(reads.token.length > 0 ? ["import os", "from urllib.parse import urlsplit", ""] : []),
    "import dask.dataframe as dd",
    "import pandas as pd",
    "from dask.distributed import Client, LocalCluster",
    "",
    ...manifestLines(plan, DASK),
    ...PANDAS_URLS,
    ...(reads.token.length > 0
      ? [
        ...tokenCheck(plan, PANDAS_TOKEN_URLS),
        "# Dask hands these options to its workers with the tasks that read private files.",
        `auth = {"client_kwargs": {"headers": {"Authorization": ${BEARER}}}}`,
      ]
      : []),
    "",
    "",
    "# A script's worker processes import it again: only the main process starts the cluster.",
    'if __name__ == "__main__":',
    "    cluster = LocalCluster(",
    "        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None",
    "    )",
    "    client = Client(cluster)",
    ...(reads.public.some((call) => call.includes("blocksize="))
      ? ["    # Public CSV, TSV and JSON Lines files: byte-range partitions of at most 16 MB."]
      : []),
    ...indent(concatenated("public", "dd.concat", reads.public), 4),
    ...(reads.token.length > 0
      ? [
        "    # Terrain's download answers no byte ranges: one partition per private file.",
        ...indent(concatenated("private", "dd.concat", reads.token), 4),
      ]
      : []),
    ...indent(reads.unread, 4),
    `    print(${reads.public.length > 0 ? "public" : "private"})`,
  ],
};

const DUCKDB: EngineCode = {
  engine: "DuckDB",
  untested: "DuckDB's httpfs extension cannot be installed where they run",
  readers: {
    csv: onConnection("DB.read_csv(URLS)"),
    tsv: onConnection('DB.read_csv(URLS, sep="\\t")'),
    json: onConnection('DB.read_json(URLS, format="array")'),
    ndjson: onConnection('DB.read_json(URLS, format="newline_delimited")'),
    parquet: onConnection("DB.read_parquet(URLS)"),
    arrow: undefined,
    excel: undefined,
  },
  manifest: {
    csv: "db.read_csv(PATH).df()",
    json: "db.read_json(PATH).df()",
    parquet: "db.read_parquet(PATH).df()",
  },
  lines: (plan, reads) => [
    ...(reads.token.length > 0 ? ["import os", "from urllib.parse import urlsplit", ""] : []),
    "import duckdb",
    "",
    "db = duckdb.connect()",
    'db.execute("INSTALL httpfs; LOAD httpfs;")',
    ...manifestLines(plan, DUCKDB),
    ...PANDAS_URLS,
    ...(reads.token.length > 0 ? tokenCheck(plan, PANDAS_TOKEN_URLS) : []),
    "",
    "",
    ...unions("public", reads.public.map((call) => call.replace("DB.", "db."))),
    ...(reads.token.length > 0
      ? [
        "# Private files: a second connection sends your token as a bearer header to the store's",
        "# URLs only, and downloads each file whole (Terrain's download answers no byte ranges).",
        "private_db = duckdb.connect()",
        'private_db.execute("LOAD httpfs; SET force_download = true;")',
        `bearer = ${BEARER}`,
        "",
        "",
        "def sql_text(text):",
        '    """The body of a DuckDB string literal holding text: a quote inside it is doubled."""',
        `    return text.replace("'", "''")`,
        "",
        "",
        "private_db.execute(",
        `    f"CREATE SECRET terrain (TYPE http, SCOPE '{sql_text(STORE)}/', "`,
        `    f"EXTRA_HTTP_HEADERS MAP {{'Authorization': '{sql_text(bearer)}'}})"`,
        ")",
        ...unions("private", reads.token.map((call) => call.replace("DB.", "private_db."))),
      ]
      : []),
    ...reads.unread,
    `print(${reads.public.length > 0 ? "public" : "private"}.limit(10))`,
  ],
};

const POLARS: EngineCode = {
  engine: "Polars",
  untested: "Python Polars is not installed where they run",
  readers: {
    csv: polarsReader("pl.scan_csv(URLS)", "pl.read_csv(BODY)"),
    tsv: polarsReader('pl.scan_csv(URLS, separator="\\t")', 'pl.read_csv(BODY, separator="\\t")'),
    json: polarsReader(undefined, "pl.read_json(BODY)"),
    ndjson: polarsReader("pl.scan_ndjson(URLS)", "pl.read_ndjson(BODY)"),
    parquet: polarsReader("pl.scan_parquet(URLS)", "pl.read_parquet(BODY)"),
    arrow: undefined,
    excel: undefined,
  },
  manifest: {
    csv: "pl.read_csv(PATH)",
    json: "pl.read_json(PATH)",
    parquet: "pl.read_parquet(PATH)",
  },
  lines: (plan, reads) => [
    "import io",
    ...(reads.token.length > 0 ? ["import os", "from urllib.parse import urlsplit"] : []),
    "",
    "import polars as pl",
    "import requests",
    "",
    ...manifestLines(plan, POLARS),
    "",
    "",
    "def urls(access, table_format):",
    '    """The URLs of the manifest\'s files with this access and table format."""',
    '    rows = manifest.filter((pl.col("access") == access) & (pl.col("format") == table_format))',
    '    return rows["url"].to_list()',
    "",
    "",
    "def fetch(url, headers=None):",
    '    """A whole file, for formats Polars does not scan and routes with no byte ranges."""',
    "    response = requests.get(url, headers=headers, timeout=300)",
    "    response.raise_for_status()",
    "    return io.BytesIO(response.content)",
    ...(reads.token.length > 0
      ? tokenCheck(plan, 'manifest.filter(pl.col("access") == "token")["url"].to_list()')
      : []),
    "",
    "",
    ...(reads.public.length > 0
      ? [
        "# Public files: Polars scans http(s) URLs itself, fetching byte ranges.",
        ...concatenated("public", "pl.concat", reads.public),
      ]
      : []),
    ...(reads.token.length > 0
      ? [
        "# Private files: fetched whole with your token as a bearer header (no byte ranges).",
        `headers = {"Authorization": ${BEARER}}`,
        ...concatenated("private", "pl.concat", reads.token),
      ]
      : []),
    ...reads.unread,
    `print(${reads.public.length > 0 ? "public" : "private"}.head(10).collect())`,
  ],
};

const ENGINES: readonly EngineCode[] = [DASK, DUCKDB, POLARS];

const BEARER = `"Bearer " + os.environ["${TOKEN_VARIABLE}"]`;

const PANDAS_URLS = [
  "",
  "",
  "def urls(access, table_format):",
  '    """The URLs of the manifest\'s files with this access and table format."""',
  '    rows = manifest[(manifest["access"] == access) & (manifest["format"] == table_format)]',
  '    return rows["url"].tolist()',
];
const PANDAS_TOKEN_URLS = 'manifest.loc[manifest["access"] == "token", "url"].tolist()';

/** Polars: a scan of public URLs (or whole reads when it has none), whole reads of private ones. */
function polarsReader(scan: string | undefined, read: string): Reader {
  const each = (headers: string) =>
    `*[${read.replace("BODY", `fetch(url${headers})`)}.lazy() for url in URLS]`;
  return { public: scan ?? each(""), token: each(", headers"), tested: false };
}

function snippet(engine: EngineCode, plan: SnippetPlan): EngineSnippet {
  const reads: Reads = { public: [], token: [], unread: [] };
  let tested = engine.untested === undefined && manifestFormatOf(plan.manifest) === "csv";
  for (const access of ["public", "token"] as const) {
    const urls = `urls(${py(access)}, `;
    for (const format of plan[access]) {
      const reader = engine.readers[format];
      const kind = access === "public" ? "public" : "private";
      const label = tableFormat(format).label;
      const call = reader?.[access];
      if (reader === undefined || typeof call !== "string") {
        const why = reader === undefined ? ARROW : (call as { unread: string }).unread;
        reads.unread.push(...comment(`Not read here: the ${kind} ${label} files (${why}).`));
        continue;
      }
      reads[access].push(call.replace("URLS", `${urls}${py(format)})`));
      tested &&= reader.tested;
    }
  }
  if (reads.public.length === 0 && reads.token.length === 0) {
    const note = `# ${engine.engine} reads no file of this manifest: it lists no table it reads.`;
    return {
      engine: engine.engine,
      language: "python",
      code: `${[note, ...reads.unread].join("\n")}\n`,
      tested: false,
    };
  }
  const why = engine.untested ??
    (tested
      ? undefined
      : manifestFormatOf(plan.manifest) !== "csv"
      ? "the tests write the manifest as CSV"
      : "Debian's Dask, which the tests use, has no Parquet engine");
  const lines = [
    ...(why === undefined ? [] : [`# Untested: no tern test runs this code (${why}).`]),
    ...engine.lines(plan, reads),
  ];
  return { engine: engine.engine, language: "python", code: `${lines.join("\n")}\n`, tested };
}

/**
 * The lines that read the manifest file. The comment names the file only when it is one plain
 * shell word: a name with a line break would end the comment and run the rest as code.
 */
function manifestLines(plan: SnippetPlan, engine: EngineCode): string[] {
  const read = engine.manifest[manifestFormatOf(plan.manifest)!].replace("PATH", py(plan.manifest));
  const file = /^[\w@%+=:,./-]+$/.test(plan.manifest) ? plan.manifest : "FILE";
  return [`manifest = ${read}  ${MANIFEST_COMMENT} ${file}`];
}

/**
 * The lines that decide whether the token may go anywhere: the store the manifest was made for
 * must be the one the environment names, and every private row must be under it. A URL that
 * starts with the store's own URL and a `/` has that host for every URL parser, so the rows are
 * compared as text; `TERRAIN_URL` is the user's own and is compared the way tern compares stores.
 */
function tokenCheck(plan: SnippetPlan, tokenUrls: string): string[] {
  return [
    "",
    "",
    "# Your token goes only to the store this manifest was made for, and only when that is the",
    `# store ${URL_VARIABLE} names (unset: tern's default): a manifest is data, and a row may name`,
    "# any host.",
    `STORE = ${py(plan.store)}`,
    "",
    "",
    "def store_key(url):",
    '    """Scheme, host, port and base path: what makes two URLs one store."""',
    "    parts = urlsplit(url.strip())",
    '    port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)',
    '    return parts.scheme, parts.hostname, port, parts.path.rstrip("/")',
    "",
    "",
    `configured = os.environ.get(${py(URL_VARIABLE)}, ${py(DEFAULT_URL)})`,
    "if store_key(configured) != store_key(STORE):",
    "    raise ValueError(",
    `        f"Not sending ${TOKEN_VARIABLE}: this manifest was made for {STORE}, but your "`,
    `        f"token is for {configured} (${URL_VARIABLE}, else tern's default). Set "`,
    `        f"${URL_VARIABLE}={STORE} and ${TOKEN_VARIABLE} to a token of that store."`,
    "    )",
    `token_urls = ${tokenUrls}`,
    'elsewhere = [url for url in token_urls if not str(url).startswith(STORE + "/")]',
    "if elsewhere:",
    "    raise ValueError(",
    `        f"Not sending ${TOKEN_VARIABLE} to private rows of the manifest that are not on "`,
    `        f"{STORE}, the store it was made for ({len(elsewhere)}): "`,
    '        + ", ".join(str(url) for url in elsewhere[:3])',
    "    )",
  ];
}

/** `name = call`, or `name = concat([calls])` for several (or a list to spread). */
function concatenated(name: string, concat: string, calls: readonly string[]): string[] {
  if (calls.length === 0) return [];
  if (calls.length === 1 && !calls[0].startsWith("*")) return [`${name} = ${calls[0]}`];
  return [`${name} = ${concat}([`, ...calls.map((call) => `    ${call},`), "])"];
}

/** DuckDB: the first relation, then each further one appended with `union` (UNION ALL). */
function unions(name: string, calls: readonly string[]): string[] {
  return calls.map((call, index) =>
    index === 0 ? `${name} = ${call}` : `${name} = ${name}.union(${call})`
  );
}

/** A Python comment, wrapped to lines of at most 96 characters. */
function comment(text: string): string[] {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + word.length < 96) lines[last] += ` ${word}`;
    else lines.push(`# ${word}`);
  }
  return lines;
}

function indent(lines: readonly string[], spaces: number): string[] {
  return lines.map((line) => `${" ".repeat(spaces)}${line}`);
}

/**
 * A Python string literal of `text`: a backslash and a double quote escaped, and every
 * character but printable ASCII written as its `\x`, `\u` or `\U` escape, so no name can end
 * the literal or the line.
 */
function py(text: string): string {
  let body = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    const hex = (digits: number) => code.toString(16).padStart(digits, "0");
    if (char === "\\" || char === '"') body += `\\${char}`;
    else if (code >= 0x20 && code < 0x7f) body += char;
    else if (code <= 0xff) body += `\\x${hex(2)}`;
    else if (code <= 0xffff) body += `\\u${hex(4)}`;
    else body += `\\U${hex(8)}`;
  }
  return `"${body}"`;
}

/** The store's base URL as tern writes it in a manifest's URLs: parsed, no trailing `/`. */
function storeUrl(store: string): string {
  const url = URL.parse(store);
  if (
    url === null || (url.protocol !== "http:" && url.protocol !== "https:") ||
    url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== ""
  ) {
    throw new BadRequestError(
      "store must be the store's base URL (http or https, no credentials, query or fragment), " +
        `as store.url gives it; got ${JSON.stringify(store.replace(/\/\/[^/]*@/, "//***@"))}.`,
    );
  }
  return url.href.replace(/(?<!\/)\/+$/, "");
}
