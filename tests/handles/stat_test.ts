import assert from "node:assert/strict";
import { Transport } from "../../lib/client/transport.ts";
import { kindOf, statFile, statFolder } from "../../lib/handles/stat.ts";
import { BadRequestError, NotFoundError } from "../../mod.ts";
import { generatedName, PAGED_FILES, PATHS, serve } from "./_store.ts";

Deno.test("statFile is one stat request for any file of a 2,345-file folder, with the store's checksum", async () => {
  await using served = await serve();
  const transport = new Transport({ url: served.url });
  for (const index of [0, 999, 1000, 2300, PAGED_FILES - 1]) {
    const before = transport.requests;
    const entry = await statFile(transport, `${PATHS.paged}/${generatedName(index)}`);
    assert.equal(entry.path, `${PATHS.paged}/${generatedName(index)}`);
    assert.equal(entry.type, "file");
    assert.match(entry.checksum ?? "", /^md5:[0-9a-f]{32}$/);
    assert.equal(transport.requests - before, 1);
  }
});

Deno.test("statFile: a missing file is a NotFoundError, a folder a BadRequestError", async () => {
  await using served = await serve();
  const transport = new Transport({ url: served.url });
  for (const name of ["f-999999.txt", "a-before-all.txt", "f-001500.txt.bak"]) {
    const before = transport.requests;
    await assert.rejects(statFile(transport, `${PATHS.paged}/${name}`), NotFoundError);
    // The stat, then the folder's listing for a "did you mean".
    assert.equal(transport.requests - before, 2);
  }
  await assert.rejects(
    statFile(transport, `${PATHS.paged}/dir-3`),
    (error) =>
      error instanceof BadRequestError && error.code === "ERR_NOT_A_FILE" &&
      /is a folder, not a file/.test(error.message),
  );
});

Deno.test("statFile: a misspelt name asks whether the nearest file of its folder was meant", async () => {
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
  // A folder of more than 1,000 files: no guess from part of it (f-000500.txt is one typo from
  // f-001500.tx too).
  assert.doesNotMatch(await missing(`${PATHS.paged}/f-001500.tx`), /Did you mean/);
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
