import assert from "node:assert/strict";
import { TerrainError } from "../../lib/server/errors.ts";
import { echo, MAX_ERROR_REASON, ParamCheck } from "../../lib/server/params.ts";
import { get, serveStore } from "./_store.ts";

function reasons(check: ParamCheck): unknown {
  try {
    check.done();
  } catch (error) {
    assert.ok(error instanceof TerrainError);
    assert.equal(error.status, 400);
    return (error.body as { reason: unknown }).reason;
  }
  return undefined;
}

Deno.test("ParamCheck reports every bad parameter at once, in the schema library's words", () => {
  const check = new ParamCheck(
    new URLSearchParams("limit=abc&offset=-1&sort-dir=up&entity-type=x&path="),
  );
  check.string("path", { required: true, nonBlank: true });
  check.integer("limit", { required: true, min: 1 });
  check.integer("offset", { min: 0 });
  check.choice("sort-dir", ["ASC", "DESC"], (value) => value.toUpperCase());
  check.choice("entity-type", ["any", "file", "folder"], (value) => value.toLowerCase());
  assert.deepEqual(reasons(check), {
    path: '(not (non-blank-string? ""))',
    limit: '(not (instance? java.lang.Long "abc"))',
    offset: "(not (non-negative-integer? -1))",
    "sort-dir": '(not (#{"ASC" "DESC"} "UP"))',
    "entity-type": '(not (#{"any" "file" "folder"} "x"))',
  });
});

Deno.test("ParamCheck integers: missing, zero, too big for a long, repeated, huge but valid", () => {
  const check = new ParamCheck(
    new URLSearchParams("a=0&b=99999999999999999999&c=1&c=2&d=9007199254740993&e=%2B7"),
  );
  assert.equal(check.integer("limit", { required: true, min: 1 }), undefined);
  assert.equal(check.integer("a", { min: 1 }), undefined);
  assert.equal(check.integer("b", { min: 0 }), undefined);
  assert.equal(check.integer("c", { min: 0 }), undefined);
  assert.equal(check.integer("d", { min: 0 }), Number.MAX_SAFE_INTEGER);
  assert.equal(check.integer("e", { min: 0 }), 7);
  assert.deepEqual(reasons(check), {
    limit: "missing-required-key",
    a: "(not (positive-integer? 0))",
    b: '(not (instance? java.lang.Long "99999999999999999999"))',
    c: '(not (instance? java.lang.Long ["1" "2"]))',
  });
});

Deno.test("ParamCheck strings refuse NUL bytes and repeated values", () => {
  const check = new ParamCheck(new URLSearchParams("path=/a%00b&x=1&x=2&ok=%20fine%20"));
  assert.equal(check.string("path"), undefined);
  assert.equal(check.string("x"), undefined);
  assert.equal(check.string("ok", { nonBlank: true }), " fine ");
  assert.deepEqual(reasons(check), {
    path: '(not (nul-free-string? "/a\\u0000b"))',
    x: '(not (instance? java.lang.String ["1" "2"]))',
  });
});

Deno.test("ParamCheck.choices validates repeated values and marks the good ones nil", () => {
  const ok = new ParamCheck(new URLSearchParams("t=csv&t=tsv"));
  assert.deepEqual(ok.choices("t", ["csv", "tsv"]), ["csv", "tsv"]);
  assert.equal(reasons(ok), undefined);
  const bad = new ParamCheck(new URLSearchParams("t=csv&t=nope"));
  assert.deepEqual(bad.choices("t", ["csv"]), []);
  assert.deepEqual(reasons(bad), { t: '[nil (not (#{"csv"} "nope"))]' });
});

Deno.test("echo quotes and bounds caller-supplied values", () => {
  assert.equal(echo('a"b'), '"a\\"b"');
  const long = echo("x".repeat(10_000));
  assert.ok(long.length < 200);
  assert.ok(long.endsWith('..."'));
});

Deno.test("repeated bad values cannot amplify the error body: at most a few are echoed", async () => {
  await using fixture = await serveStore();
  const bad = (name: string) => Array.from({ length: 2000 }, (_, i) => `${name}=x${i}`).join("&");
  for (const name of ["info-type", "sort-dir", "limit", "path"]) {
    const query = `path=/iplant/home/shared&limit=10&${bad(name)}`;
    const response = await fetch(`${fixture.url}/filesystem/paged-directory?${query}`);
    const body = await response.text();
    assert.equal(response.status, 400, name);
    assert.ok(body.length <= 2 * MAX_ERROR_REASON, `${name}: ${body.length} bytes of error body`);
    assert.ok(
      body.length < query.length / 10,
      `${name}: body ${body.length}, query ${query.length}`,
    );
    assert.match(body, /\.\.\./, "says that values were left out");
  }
  // The first values are still named, as Terrain names them.
  const { json } = await get(
    `${fixture.url}/filesystem/paged-directory?path=/iplant/home/shared&info-type=bogus`,
  );
  assert.match(json.reason["info-type"], /"bogus"/);
});
