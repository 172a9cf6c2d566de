import assert from "node:assert/strict";
import { filenameFromDisposition } from "../../lib/client/disposition.ts";

Deno.test("filenameFromDisposition: newest Terrain form prefers filename*", () => {
  assert.equal(
    filenameFromDisposition(
      `attachment; filename="_t_ude.csv"; filename*=UTF-8''%C3%A9t%C3%BCde%20one.csv`,
    ),
    "étüde one.csv",
  );
  assert.equal(
    filenameFromDisposition(`inline; filename="a.png"; filename*=UTF-8''a.png`),
    "a.png",
  );
});

Deno.test("filenameFromDisposition: the older forms without filename*", () => {
  assert.equal(filenameFromDisposition(`filename="plain name.txt"`), "plain name.txt");
  assert.equal(filenameFromDisposition(`attachment; filename="q\\"uote.txt"`), 'q"uote.txt');
  assert.equal(filenameFromDisposition(`attachment; filename=bare.csv`), "bare.csv");
});

Deno.test("filenameFromDisposition: undecodable filename* falls back, nothing gives undefined", () => {
  assert.equal(
    filenameFromDisposition(`attachment; filename="fallback.txt"; filename*=UTF-8''%FF%FE`),
    "fallback.txt",
  );
  assert.equal(
    filenameFromDisposition(`attachment; filename*=ISO-8859-1''caf%E9.txt`),
    "café.txt",
  );
  assert.equal(filenameFromDisposition(null), undefined);
  assert.equal(filenameFromDisposition("attachment"), undefined);
  assert.equal(filenameFromDisposition(`attachment; filename=""`), undefined);
});

Deno.test("filenameFromDisposition: a bare file name, never a path, control character or dot name (RFC 6266 §4.3)", () => {
  const cases: [string, string | undefined][] = [
    [`attachment; filename="../../etc/passwd"`, "passwd"],
    [`attachment; filename*=UTF-8''..%2F..%2Fx.csv`, "x.csv"],
    [`attachment; filename="..\\\\..\\\\win.ini"`, "win.ini"],
    [`attachment; filename="a\u0007b\r\nc.csv"`, "abc.csv"],
    [`attachment; filename*=UTF-8''a%00b%7F.csv`, "ab.csv"],
    [`attachment; filename=".."`, undefined],
    [`attachment; filename="dir/"`, undefined],
    [`attachment; filename="fallback.csv"; filename*=UTF-8''..%2F`, "fallback.csv"],
    [`inline; filename=" x.csv "`, "x.csv"],
  ];
  for (const [header, expected] of cases) {
    assert.equal(filenameFromDisposition(header), expected, header);
  }
});
