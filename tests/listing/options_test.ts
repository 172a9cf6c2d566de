import assert from "node:assert/strict";
import { BadRequestError } from "../../lib/client/errors.ts";
import {
  compileGlob,
  DEFAULT_PAGE_SIZE,
  resolveListOptions,
  resolveWalkOptions,
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

Deno.test("bad options are BadRequestErrors naming the option and the value", () => {
  const cases: [() => unknown, RegExp][] = [
    [
      () => resolveListOptions({ type: "File" as "file" }),
      /type must be one of "file", "folder", "any", got "File"/,
    ],
    [
      () => resolveListOptions({ sort: "date" as "name" }),
      /sort must be one of .*"modified", got "date"/,
    ],
    [
      () => resolveListOptions({ order: "DESC" as "desc" }),
      /order must be one of "asc", "desc", got "DESC"/,
    ],
    [() => resolveListOptions({ pageSize: 0 }), /pageSize must be an integer ≥ 1, got 0/],
    [() => resolveListOptions({ pageSize: 2.5 }), /pageSize must be an integer ≥ 1, got 2.5/],
    [() => resolveListOptions({ infoType: [] }), /infoType must be/],
    [() => resolveListOptions({ infoType: [""] }), /infoType must be/],
    [() => resolveListOptions({ signal: {} as AbortSignal }), /signal must be an AbortSignal/],
    [() => resolveListOptions(null as unknown as object), /must be an object/],
    [() => resolveWalkOptions({ maxDepth: 0 }, 4), /maxDepth must be an integer ≥ 1, got 0/],
    [() => resolveWalkOptions({ concurrency: -1 }, 4), /concurrency must be an integer ≥ 1/],
    [() => compileGlob(""), /glob must be a non-empty pattern/],
    [() => compileGlob(7), /glob must be a non-empty pattern .* got 7/],
    [() => compileGlob("/iplant/*.csv"), /relative to the listed folder.*cannot start with "\/"/],
  ];
  for (const [run, message] of cases) {
    assert.throws(run, (error: unknown) => {
      assert.ok(error instanceof BadRequestError, String(error));
      assert.match(error.message, message);
      return true;
    });
  }
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
