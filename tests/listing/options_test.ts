import assert from "node:assert/strict";
import { BadRequestError } from "../../lib/client/errors.ts";
import {
  compileGlob,
  DEFAULT_PAGE_SIZE,
  LIST_OPTIONS,
  resolveListOptions,
  resolveWalkOptions,
  WALK_OPTIONS,
} from "../../lib/listing/options.ts";

Deno.test("list options translate to Terrain's parameters", () => {
  assert.deepEqual(resolveListOptions(), { entityType: "any", type: undefined, pageSize: 1000 });
  assert.equal(DEFAULT_PAGE_SIZE, 1000);
  const resolved = resolveListOptions({
    type: "file",
    sort: "modified",
    order: "desc",
    infoType: "csv",
    pageSize: 50,
  });
  assert.equal(resolved.entityType, "file");
  assert.equal(resolved.type, "file");
  assert.equal(resolved.sortCol, "datemodified");
  assert.equal(resolved.sortDir, "DESC");
  assert.deepEqual(resolved.infoType, ["csv"]);
  assert.equal(resolved.pageSize, 50);
  assert.equal(resolveListOptions({ sort: "created" }).sortCol, "datecreated");
  assert.equal(resolveListOptions({ sort: "size", order: "asc" }).sortDir, "ASC");
  assert.equal(resolveListOptions({ type: "any" }).type, undefined);
});

Deno.test("walk options list everything from the server unless only folders are wanted", () => {
  assert.equal(resolveWalkOptions({ type: "file" }, 4).entityType, "any");
  assert.equal(resolveWalkOptions({ type: "file" }, 4).type, "file");
  assert.equal(resolveWalkOptions({ type: "folder" }, 4).entityType, "folder");
  assert.equal(resolveWalkOptions({}, 3).concurrency, 3);
  assert.equal(resolveWalkOptions({ concurrency: 1 }, 3).concurrency, 1);
  assert.equal(resolveWalkOptions({}, 3).maxDepth, Infinity);
  assert.equal(resolveWalkOptions({ maxDepth: 2 }, 3).maxDepth, 2);
});

Deno.test("bad options are BadRequestErrors naming the call, the option and the value", () => {
  const list = (options: unknown) => () => LIST_OPTIONS.parse("folder.list()", options);
  const walk = (options: unknown) => () => WALK_OPTIONS.parse("folder.walk()", options);
  const cases: [() => unknown, RegExp][] = [
    [
      list({ type: "File" }),
      /^folder\.list\(\): type must be one of "file", "folder", "any", got "File"\. Did you mean "file"\?$/,
    ],
    [list({ sort: "date" }), /sort must be one of .*"modified", got "date"/],
    [list({ order: "DESC" }), /order must be one of "asc", "desc", got "DESC"/],
    [list({ pageSize: 0 }), /pageSize must be an integer ≥ 1, got 0/],
    [list({ pageSize: 2.5 }), /pageSize must be an integer ≥ 1, got 2.5/],
    [list({ infoType: [] }), /infoType must be a Terrain file type .*, got \[\]/],
    [list({ infoType: [""] }), /infoType must be/],
    [list({ infoType: 7 }), /infoType must be .*, got 7\.$/],
    [list({ signal: {} }), /signal must be an AbortSignal/],
    [list(null), /^folder\.list\(\) takes an options object, got null\.$/],
    [list({ maxDepth: 2 }), /^folder\.list\(\): unknown option "maxDepth"; the options are type, /],
    [
      list({ infotype: "csv" }),
      /^folder\.list\(\): unknown option "infotype": did you mean "infoType"\?$/,
    ],
    [
      walk({ maxDepth: 0 }),
      /^folder\.walk\(\): maxDepth must be an integer ≥ 1, or Infinity, got 0\.$/,
    ],
    [walk({ concurrency: -1 }), /concurrency must be an integer ≥ 1/],
    [walk({ depth: 2 }), /^folder\.walk\(\): unknown option "depth": did you mean "maxDepth"\?$/],
    [list({ glob: "" }), /glob must be a pattern relative to the listed folder .*, got ""\.$/],
    [list({ glob: 7 }), /glob must be a pattern .* got 7\.$/],
    [list({ glob: "/iplant/*.csv" }), /not starting with "\/".*got "\/iplant\/\*\.csv"\.$/],
  ];
  for (const [run, message] of cases) {
    assert.throws(run, (error: unknown) => {
      assert.ok(error instanceof BadRequestError, String(error));
      assert.match(error.message, message);
      return true;
    });
  }
});

Deno.test("every list and walk option passes the schema as given", () => {
  const signal = new AbortController().signal;
  const list = {
    type: "file",
    sort: "size",
    order: "desc",
    infoType: ["csv", "tsv"],
    pageSize: 10,
    glob: "raw/*.csv",
    signal,
  } as const;
  assert.deepEqual(LIST_OPTIONS.parse("folder.list()", list), list);
  assert.deepEqual(LIST_OPTIONS.parse("folder.list()", { infoType: "csv" }), { infoType: "csv" });
  const walk = { ...list, maxDepth: 3, concurrency: 2 };
  assert.deepEqual(WALK_OPTIONS.parse("folder.walk()", walk), walk);
  assert.equal(WALK_OPTIONS.parse("folder.walk()", { maxDepth: Infinity }).maxDepth, Infinity);
});

Deno.test("a compiled glob matches relative paths, dotfiles included, and knows its scope", async () => {
  const compiled = async (pattern: string) => {
    const glob = compileGlob(pattern);
    await glob.ready();
    return glob;
  };
  const csv = await compiled("*.csv");
  assert.ok(csv.matches("a.csv") && csv.matches(".hidden.csv"));
  assert.ok(!csv.matches("sub/a.csv"));
  assert.equal(csv.depth, 1);
  assert.equal(csv.base, "");
  const nested = await compiled("raw/2019/*.tif");
  assert.equal(nested.base, "raw/2019");
  assert.equal(nested.depth, 3);
  const any = await compiled("raw/**/*.tif");
  assert.equal(any.base, "raw");
  assert.equal(any.depth, Infinity);
  assert.ok(any.matches("raw/a/b/c.tif") && !any.matches("cooked/c.tif"));
  assert.equal((await compiled("{a,b/c}/*.csv")).depth, Infinity);
  const negated = await compiled("!*.tmp");
  assert.equal(negated.base, "");
  assert.equal(negated.depth, Infinity);
  assert.ok(negated.matches("a/b.csv") && !negated.matches("x.tmp"));
});

Deno.test("a glob loads its matcher only when asked: checked at once, compiled by ready()", async () => {
  const glob = compileGlob("*.csv");
  assert.throws(() => glob.matches("a.csv"), /await ready\(\) first/);
  // picomatch refuses patterns over 65,536 characters: a typed error once the matcher loads.
  const huge = compileGlob("a".repeat(70_000));
  await assert.rejects(huge.ready(), (error: unknown) => {
    assert.ok(error instanceof BadRequestError, String(error));
    assert.match(error.message, /is not a valid pattern/);
    return true;
  });
});

Deno.test("importing tern loads no glob matcher: picomatch comes with the first glob", async () => {
  const script = `import "${new URL("../../mod.ts", import.meta.url).href}";\n` +
    `import { createRequire } from "node:module";\n` +
    `const cache = createRequire(import.meta.url).cache;\n` +
    `console.log(Object.keys(cache).some((path) => path.includes("picomatch")));\n`;
  const { stdout, success, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(success, new TextDecoder().decode(stderr));
  assert.equal(new TextDecoder().decode(stdout).trim(), "false");
});
