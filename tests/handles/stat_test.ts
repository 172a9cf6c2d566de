import assert from "node:assert/strict";
import { Transport } from "../../lib/client/transport.ts";
import { kindOf, statFile, statFolder } from "../../lib/handles/stat.ts";
import { BadRequestError, NotFoundError } from "../../mod.ts";
import { item, pageAnswer, serveDouble, window } from "./_double.ts";
import { generatedName, PAGED_FILES, PATHS, serve } from "./_store.ts";

Deno.test("statFile finds any file of a 2,345-file folder in a handful of requests", async () => {
  await using served = await serve();
  const transport = new Transport({ url: served.url });
  for (const index of [0, 999, 1000, 1234, 1999, 2000, 2300, PAGED_FILES - 1]) {
    const before = transport.requests;
    const entry = await statFile(transport, `${PATHS.paged}/${generatedName(index)}`);
    assert.equal(entry.path, `${PATHS.paged}/${generatedName(index)}`);
    assert.equal(entry.type, "file");
    const requests = transport.requests - before;
    // One page of 1,000, then halving the remaining 1,345 names in probes of 100: ≤ 5 more.
    assert.ok(requests <= (index < 1000 ? 1 : 6), `${requests} requests for index ${index}`);
  }
});

Deno.test("statFile reports a missing file as NotFoundError after one manifest check", async () => {
  await using served = await serve();
  const transport = new Transport({ url: served.url });
  for (const name of ["f-999999.txt", "a-before-all.txt", "f-001500.txt.bak"]) {
    const before = transport.requests;
    await assert.rejects(statFile(transport, `${PATHS.paged}/${name}`), NotFoundError);
    assert.ok(transport.requests - before <= 7, `${transport.requests - before} requests`);
  }
  await assert.rejects(statFile(transport, `${PATHS.paged}/dir-3`), /is a folder, not a file/);
});

Deno.test("statFile: a misspelt name asks whether the nearest file listed on the way was meant", async () => {
  await using served = await serve();
  const transport = new Transport({ url: served.url });
  const missing = async (path: string) => {
    const error = await statFile(transport, path).then(
      () => assert.fail(`${path} was found`),
      (error: unknown) => error,
    );
    assert.ok(error instanceof NotFoundError, String(error));
    assert.equal(error.path, path);
    assert.equal(error.code, "ERR_DOES_NOT_EXIST");
    return error.message;
  };
  // A letter missing, letters swapped, another case: the listed name is suggested whole.
  for (const typo of ["tabe.csv", "talbe.csv", "Table.csv"]) {
    assert.match(
      await missing(`/iplant/home/shared/public/${typo}`),
      /does not exist .* Did you mean "\/iplant\/home\/shared\/public\/table\.csv"\?$/,
    );
  }
  // Beyond the first page of a large folder: from the names the probes listed.
  assert.match(
    await missing(`${PATHS.paged}/f-001500.tx`),
    /Did you mean "\/iplant\/home\/shared\/paged\/f-001500\.txt"\?$/,
  );
  // Nothing close: no guess.
  assert.doesNotMatch(await missing("/iplant/home/shared/public/weather.parquet"), /Did you mean/);
});

Deno.test("statFolder is one request; kindOf tells files from folders with one request", async () => {
  await using served = await serve();
  const transport = new Transport({ url: served.url });
  const entry = await statFolder(transport, PATHS.paged);
  assert.equal(entry.type, "folder");
  assert.equal(entry.name, "paged");
  assert.equal(transport.requests, 1);
  assert.equal(await kindOf(transport, PATHS.table), "file");
  assert.equal(await kindOf(transport, PATHS.public), "folder");
  assert.equal(transport.requests, 3);
  await assert.rejects(kindOf(transport, `${PATHS.public}/nope`), NotFoundError);
  await assert.rejects(statFolder(transport, PATHS.table), BadRequestError);
});

Deno.test("statFile still finds a file when the server collates names differently (test double)", async () => {
  const folder = "/iplant/home/shared/odd";
  // The double sorts names in reverse while claiming ascending order, like a foreign collation.
  const names = Array.from({ length: 1500 }, (_, index) => `n${String(index).padStart(4, "0")}`)
    .reverse();
  await using double = serveDouble((url) => {
    if (url.pathname.endsWith("/filesystem/file/manifest")) {
      return Response.json({ "content-type": "text/plain", infoType: "unknown", urls: [] });
    }
    const { offset, limit } = window(url);
    const items = names.slice(offset, offset + limit).map((name) =>
      item(`${folder}/${name}`, "file", Number(name.slice(1)))
    );
    return pageAnswer(folder, items, names.length);
  });
  const transport = new Transport({ url: double.url });
  const entry = await statFile(transport, `${folder}/n0100`);
  assert.equal(entry.path, `${folder}/n0100`);
  assert.equal(entry.size, 100);
  assert.ok(double.requests.some((url) => url.pathname.endsWith("/file/manifest")));
});
