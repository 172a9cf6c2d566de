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
