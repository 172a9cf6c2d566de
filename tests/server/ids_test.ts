import assert from "node:assert/strict";
import { IdIndex, isUuid, nameUuid, uuidV5 } from "../../lib/server/ids.ts";

Deno.test("uuidV5 matches the RFC algorithm's known answers", () => {
  const dns = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";
  const url = "6ba7b811-9dad-11d1-80b4-00c04fd430c8";
  assert.equal(uuidV5(dns, "www.example.com"), "2ed6657d-e927-568b-95e1-2665a8aea6a2");
  assert.equal(uuidV5(dns, "python.org"), "886313e1-3b8a-5372-9b90-0c9aee199e5d");
  assert.equal(uuidV5(url, "https://www.python.org/"), "5406f80d-92e9-51cd-a176-77445955e733");
  assert.equal(uuidV5(url, "/iplant/home/shared"), "aa421db5-4d5a-50c2-b69c-b16d68f2d8d2");
});

Deno.test("nameUuid is a stable version-5 UUID per name", () => {
  const id = nameUuid("/iplant/home/shared");
  assert.equal(id, nameUuid("/iplant/home/shared"));
  assert.notEqual(id, nameUuid("/iplant/home/shared/"));
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.ok(isUuid(id));
  assert.ok(isUuid(id.toUpperCase()));
  assert.ok(!isUuid(`${id}0`));
  assert.ok(!isUuid("xyz"));
});

Deno.test("IdIndex finds remembered ids without walking, and unknown ids after one walk", async () => {
  let walks = 0;
  const index = new IdIndex((visit) => {
    walks++;
    visit("/iplant/home/shared/found-by-walk");
    return Promise.resolve();
  });
  const known = index.idFor("/iplant/home/shared/known");
  assert.equal(await index.pathOf(known), "/iplant/home/shared/known");
  assert.equal(await index.pathOf(known.toUpperCase()), "/iplant/home/shared/known");
  assert.equal(walks, 0);
  const walked = nameUuid("/iplant/home/shared/found-by-walk");
  assert.equal(await index.pathOf(walked), "/iplant/home/shared/found-by-walk");
  assert.equal(walks, 1);
  assert.equal(await index.pathOf(nameUuid("/nowhere")), undefined);
  assert.equal(walks, 2);
});

Deno.test("IdIndex coalesces concurrent lookups into at most two walks", async () => {
  let walks = 0;
  const gate = Promise.withResolvers<void>();
  const index = new IdIndex(async () => {
    walks++;
    await gate.promise;
  });
  const lookups = Array.from({ length: 50 }, (_, i) => index.pathOf(nameUuid(`/x/${i}`)));
  gate.resolve();
  const results = await Promise.all(lookups);
  assert.ok(results.every((result) => result === undefined));
  assert.ok(walks <= 2, `walks: ${walks}`);
});

Deno.test("IdIndex recovers after a walk fails", async () => {
  let calls = 0;
  const index = new IdIndex((visit) => {
    calls++;
    if (calls === 1) return Promise.reject(new Error("disk on fire"));
    visit("/iplant/later");
    return Promise.resolve();
  });
  await assert.rejects(index.pathOf(nameUuid("/iplant/later")), /disk on fire/);
  assert.equal(await index.pathOf(nameUuid("/iplant/later")), "/iplant/later");
});
