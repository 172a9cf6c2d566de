import assert from "node:assert/strict";
import { engineSnippets, type SnippetPlan, snippetPlan } from "../../lib/listing/engines.ts";
import { DEFAULT_URL } from "../../lib/client/same_store.ts";
import { BadRequestError } from "../../lib/client/errors.ts";
import { TABLE_FORMATS, type TableFormat } from "../../lib/registry/file_formats.ts";
import pl from "../../polars.ts";

const ROOT = new URL("../../", import.meta.url);
const DOCS = await Deno.readTextFile(new URL("docs/engines.md", ROOT));

/** The plan whose code docs/engines.md shows: the Dask test's formats, public and private. */
const DOCS_PLAN: SnippetPlan = {
  manifest: "manifest.csv",
  store: "https://de.cyverse.org/terrain",
  public: ["csv", "tsv", "json", "ndjson"],
  token: ["csv", "tsv", "json", "ndjson"],
};

/** The fenced blocks of docs/engines.md in `language`, in order. */
function blocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp(`^\`\`\`${language}\\n([^]*?)^\`\`\`$`, "gm"))]
    .map((match) => match[1]);
}

Deno.test("engines: docs/engines.md shows the code the Dask test runs, and says the rest is untested", () => {
  const snippets = engineSnippets(DOCS_PLAN);
  const python = blocks(DOCS, "python");
  // Dask, DuckDB and Python Polars exactly as tern gives them, then Spark.
  assert.deepEqual(python.slice(0, 3), snippets.map((snippet) => snippet.code));
  assert.deepEqual(snippets.map((snippet) => snippet.tested), [true, false, false]);
  for (const block of python.slice(1)) {
    assert.match(block, /^# Untested: no tern test runs this code/);
  }
});

Deno.test("engines: docs/engines.md imports tern from a path that resolves, and names real exports", async () => {
  const imports = blocks(DOCS, "ts").flatMap((block) => [
    ...block.matchAll(/^import \{([^}]*)\} from "([^"]+)";/gm),
  ]);
  assert.ok(imports.length > 0);
  for (const [, names, specifier] of imports) {
    assert.match(specifier, /^\.\//, "a checkout's relative path, as README's step 2 shows");
    const module = await import(new URL(specifier, ROOT).href);
    for (const name of names.split(",").map((each) => each.trim())) {
      assert.ok(name in module, `${specifier} exports ${name}`);
    }
  }
});

Deno.test("engines: the readers table in docs/engines.md is each engine's code for each format", () => {
  // | CSV (`csv`) | `dask call` | `duckdb call` | `polars call` |, `urls` for the list of URLs.
  const rows = [...DOCS.matchAll(/^\| [^|]* \(`(\w+)`\) +\|(.*)\|$/gm)];
  assert.deepEqual(rows.map((row) => row[1]), TABLE_FORMATS);
  for (const [, format, cells] of rows) {
    const snippets = engineSnippets({
      manifest: "m.csv",
      store: DEFAULT_URL,
      public: [format as TableFormat],
      token: [],
    });
    const calls = cells.split("|").map((cell) => /^ *`(.*)` *$/.exec(cell)?.[1]);
    assert.equal(calls.length, 3);
    snippets.forEach((snippet, index) => {
      const call = calls[index];
      if (call === undefined) {
        assert.match(snippet.code, /^# Not read here: the public /m, snippet.engine);
        return;
      }
      const code = call.replaceAll("urls", `urls("public", "${format}")`);
      assert.ok(snippet.code.includes(code), `${snippet.engine} ${format}: ${code}`);
    });
  }
});

Deno.test("engines: every format an engine reads, TSV with a tab, and nothing for a format it does not", () => {
  const code = (format: TableFormat, access: "public" | "token") =>
    engineSnippets({
      manifest: "m.csv",
      store: DEFAULT_URL,
      public: access === "public" ? [format] : [],
      token: access === "token" ? [format] : [],
    }).map((snippet) => snippet.code);
  const [daskTsv, duckdbTsv, polarsTsv] = code("tsv", "public");
  assert.ok(daskTsv.includes('dd.read_csv(urls("public", "tsv"), sep="\\t", blocksize="16MB")'));
  assert.ok(duckdbTsv.includes('db.read_csv(urls("public", "tsv"), sep="\\t")'));
  assert.ok(polarsTsv.includes('pl.scan_csv(urls("public", "tsv"), separator="\\t")'));
  const [daskPrivateTsv, duckdbPrivateTsv, polarsPrivateTsv] = code("tsv", "token");
  assert.ok(daskPrivateTsv.includes('sep="\\t", blocksize=None, storage_options=auth)'));
  assert.ok(duckdbPrivateTsv.includes('private_db.read_csv(urls("token", "tsv"), sep="\\t")'));
  assert.ok(polarsPrivateTsv.includes('pl.read_csv(fetch(url, headers), separator="\\t")'));

  // Dask reads public Parquet (untested: Debian's Dask has no Parquet engine), not private.
  const [daskParquet] = code("parquet", "public");
  assert.match(daskParquet, /^# Untested: .*no Parquet engine/);
  assert.ok(daskParquet.includes('public = dd.read_parquet(urls("public", "parquet"))'));
  const [daskPrivateParquet, duckdbPrivateParquet] = code("parquet", "token");
  assert.match(daskPrivateParquet, /^# Dask reads no file of this manifest/);
  assert.match(daskPrivateParquet, /private Parquet files \(Parquet readers need byte ranges/);
  assert.ok(!daskPrivateParquet.includes("TERRAIN_TOKEN"));
  assert.ok(duckdbPrivateParquet.includes('private_db.read_parquet(urls("token", "parquet"))'));
  // Arrow: named, not read, by every engine.
  for (const snippet of code("arrow", "public")) {
    assert.match(snippet, /^# Not read here: the public Arrow IPC files/m);
  }
  // Mixed: what is read is read, and what is not is named.
  const [mixed] = engineSnippets({
    manifest: "m.csv",
    store: DEFAULT_URL,
    public: ["csv", "arrow"],
    token: [],
  });
  assert.ok(mixed.code.includes('public = dd.read_csv(urls("public", "csv"), blocksize="16MB")'));
  assert.match(mixed.code, /# Not read here: the public Arrow IPC files/);
});

Deno.test("engines: code holds only what its files need, and reads the token only from the environment", () => {
  const publicOnly = engineSnippets({ ...DOCS_PLAN, manifest: "m.csv", token: [] });
  for (const snippet of publicOnly) {
    assert.ok(!snippet.code.includes("TERRAIN_TOKEN"), snippet.engine);
    assert.ok(!snippet.code.includes("STORE"), snippet.engine);
    assert.ok(!snippet.code.includes('"token"'), snippet.engine);
    assert.ok(snippet.code.includes('"m.csv"'), snippet.engine);
  }
  const privateOnly = engineSnippets({ ...DOCS_PLAN, public: [] });
  for (const snippet of privateOnly) {
    assert.ok(snippet.code.includes('os.environ["TERRAIN_TOKEN"]'), snippet.engine);
    assert.ok(snippet.code.includes('STORE = "https://de.cyverse.org/terrain"'), snippet.engine);
    assert.ok(
      snippet.code.includes(
        'configured = os.environ.get("TERRAIN_URL", ' +
          `"${DEFAULT_URL}")`,
      ),
      snippet.engine,
    );
    assert.ok(!snippet.code.includes('"public"'), snippet.engine);
  }
  // The check comes before any read: nothing is fetched from a manifest it refuses.
  for (const snippet of engineSnippets(DOCS_PLAN)) {
    const check = snippet.code.indexOf("if elsewhere:");
    const firstRead = snippet.code.search(/(read_|scan_)\w+\(urls\(/);
    assert.ok(check > 0 && check < firstRead, snippet.engine);
  }
});

Deno.test("engines: the manifest is read the way it was written", () => {
  const first = (manifest: string) => engineSnippets({ ...DOCS_PLAN, manifest });
  const [dask, duckdb, polars] = first("out/m.json");
  assert.ok(dask.code.includes('manifest = pd.read_json("out/m.json", orient="records")'));
  assert.ok(duckdb.code.includes('manifest = db.read_json("out/m.json").df()'));
  assert.ok(polars.code.includes('manifest = pl.read_json("out/m.json")'));
  // Only a CSV manifest is what the Dask test reads.
  assert.equal(dask.tested, false);
  assert.match(dask.code, /^# Untested: .*the tests write the manifest as CSV/);
  const [parquet] = first("m.parquet");
  assert.ok(parquet.code.includes('manifest = pd.read_parquet("m.parquet")'));
  // A name is quoted as a Python string, whatever it holds.
  const [odd] = first('we"ird\n.csv');
  assert.ok(odd.code.includes('pd.read_csv("we\\"ird\\x0a.csv")'));
});

Deno.test("engines: the plan follows the manifest's formats and access kinds", () => {
  const manifest = pl.DataFrame({
    format: ["csv", "tsv", "parquet", null, "tsv"],
    access: ["token", "token", "public", "public", "public"],
  });
  assert.deepEqual(snippetPlan(manifest, { manifest: "x.csv", store: "HTTP://Example.org/t/" }), {
    manifest: "x.csv",
    store: "http://example.org/t",
    public: ["tsv", "parquet"],
    token: ["csv", "tsv"],
  });
  // No table at all: each engine's code says it reads nothing, and no test runs that.
  const none = pl.DataFrame({ format: [null], access: ["public"] }, {
    schema: { format: pl.Utf8, access: pl.Utf8 },
  });
  for (const snippet of engineSnippets(snippetPlan(none, { store: DEFAULT_URL }))) {
    assert.match(snippet.code, /^# \w+ reads no file of this manifest/);
    assert.equal(snippet.tested, false);
  }
});

Deno.test("engines: a bad store or manifest name is a BadRequestError that shows no password", () => {
  const manifest = pl.DataFrame({ format: ["csv"], access: ["public"] });
  for (const store of ["ftp://example.org/terrain", "not a url", "http://x/t?token=1"]) {
    assert.throws(() => snippetPlan(manifest, { store }), BadRequestError);
  }
  assert.throws(
    () => snippetPlan(manifest, { store: "https://me:hunter2@example.org/terrain" }),
    (error: Error) =>
      error instanceof BadRequestError && !error.message.includes("hunter2") &&
      error.message.includes("https://***@example.org/terrain"),
  );
  assert.throws(
    () => snippetPlan(manifest, { store: DEFAULT_URL, manifest: "m.txt" }),
    /manifest must name a \.csv, \.json or \.parquet file, got "m\.txt"/,
  );
});

/** What Python makes of `code`: the names it calls, and the value of each string literal. */
async function pythonReading(code: string): Promise<{ calls: string[]; strings: string[] }> {
  const script = [
    "import ast, json, sys",
    "tree = ast.parse(sys.stdin.read())",
    "nodes = list(ast.walk(tree))",
    "calls = [n.func.id if isinstance(n.func, ast.Name) else n.func.attr",
    "         for n in nodes if isinstance(n, ast.Call)]",
    "strings = [n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)]",
    "print(json.dumps({'calls': calls, 'strings': strings}))",
  ].join("\n");
  const child = new Deno.Command(PYTHON, { args: ["-c", script], stdin: "piped", stdout: "piped" })
    .spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(code));
  await writer.close();
  const { success, stdout } = await child.output();
  assert.ok(success, "Python refused the code");
  return JSON.parse(new TextDecoder().decode(stdout));
}

const PYTHON = "/usr/bin/python3";
const NO_PYTHON = await Deno.stat(PYTHON).then(() => false, () => true);

Deno.test({
  name: "engines: a hostile manifest name or store path stays a literal in every engine's code",
  ignore: NO_PYTHON,
  fn: async () => {
    const manifest = 'x"\nboom()\n"""\\\u2028${1}\'); DROP TABLE t; --.csv';
    const store = "https://de.cyverse.org/terrain/it's{x}";
    const plan: SnippetPlan = { manifest, store, public: ["csv"], token: ["csv"] };
    for (const snippet of engineSnippets(plan)) {
      const { calls, strings } = await pythonReading(snippet.code);
      assert.ok(!calls.includes("boom"), `${snippet.engine} runs code from the manifest's name`);
      assert.ok(strings.includes(manifest), `${snippet.engine} reads another manifest`);
      assert.ok(strings.includes(store), `${snippet.engine} names another store`);
    }
  },
});

Deno.test({
  name: "engines: DuckDB's secret holds the store and the token as SQL literals, quotes doubled",
  ignore: NO_PYTHON,
  fn: async () => {
    const store = "https://de.cyverse.org/terrain/it's";
    const [, duckdb] = engineSnippets({ manifest: "m.csv", store, public: [], token: ["csv"] });
    // The statement the code hands DuckDB, made by Python from the code's own f-string.
    const script = [
      "import ast, sys",
      "code = sys.stdin.read()",
      "start = code.index('def sql_text')",
      "end = code.index('private_db.execute(', start)",
      "exec(code[start:end])",
      "call = [n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Call)",
      "        and getattr(n.func, 'attr', '') == 'execute' and isinstance(n.args[0], ast.JoinedStr)][0]",
      "print(eval(compile(ast.Expression(call.args[0]), 'f', 'eval'),",
      "           {'STORE': " + JSON.stringify(store) +
      ", 'bearer': \"Bearer t'ok\", 'sql_text': sql_text}))",
    ].join("\n");
    const child = new Deno.Command(PYTHON, {
      args: ["-c", script],
      stdin: "piped",
      stdout: "piped",
    })
      .spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(duckdb.code));
    await writer.close();
    const { success, stdout } = await child.output();
    assert.ok(success);
    const sql = new TextDecoder().decode(stdout);
    const literals = [...sql.matchAll(/'((?:[^']|'')*)'/g)].map((match) =>
      match[1].replaceAll("''", "'")
    );
    assert.deepEqual(literals, [`${store}/`, "Authorization", "Bearer t'ok"]);
  },
});
