import assert from "node:assert/strict";
import { join } from "node:path";
import { BadRequestError } from "../../mod.ts";
import { UsageError } from "../../lib/cli/args.ts";
import {
  destinationOf,
  fileTarget,
  folderTarget,
  localName,
  targetUnder,
} from "../../lib/cli/targets.ts";

Deno.test("remote names that could escape the destination are refused", () => {
  // `C:evil.csv` and `c:` are drive-relative names on Windows: outside any folder there.
  for (const name of ["", ".", "..", "a/b", "a\\b", "a\0b", "C:evil.csv", "c:", "z:..\\x"]) {
    assert.throws(() => localName(name), BadRequestError, JSON.stringify(name));
  }
  assert.equal(localName("..hidden"), "..hidden");
  assert.equal(localName("field notes (2024).txt"), "field notes (2024).txt");
  assert.equal(localName("10:30 readings.csv"), "10:30 readings.csv");
});

Deno.test("targetUnder maps a walked entry under its local folder, checked", () => {
  const folder = { path: "/iplant/home/shared/formats" };
  assert.equal(
    targetUnder("/tmp/out/formats", folder, { path: "/iplant/home/shared/formats/raw/a.csv" }),
    "/tmp/out/formats/raw/a.csv",
  );
  for (
    const path of [
      "/iplant/home/shared/formats/../../../etc/passwd",
      "/iplant/home/shared/formats/raw/../../x",
      "/iplant/home/shared/formatsX/a.csv",
      "/etc/passwd",
      "/iplant/home/shared/formats//a.csv",
    ]
  ) {
    assert.throws(() => targetUnder("/tmp/out/formats", folder, { path }), BadRequestError, path);
  }
});

Deno.test("destinations: a folder by default, a file for one file, a folder to make otherwise", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, "taken"), "");
    assert.deepEqual(await destinationOf(undefined, true), { path: Deno.cwd(), isFolder: true });
    assert.deepEqual(await destinationOf(dir, true), { path: dir, isFolder: true });
    assert.deepEqual(await destinationOf(join(dir, "new.csv"), true), {
      path: join(dir, "new.csv"),
      isFolder: false,
    });
    assert.deepEqual(await destinationOf(join(dir, "new") + "/", true), {
      path: join(dir, "new"),
      isFolder: true,
    });
    assert.deepEqual(await destinationOf(join(dir, "many"), false), {
      path: join(dir, "many"),
      isFolder: true,
    });
    await assert.rejects(destinationOf(join(dir, "taken"), false), UsageError);
    const destination = { path: dir, isFolder: true };
    assert.equal(fileTarget(destination, { name: "a.csv" }), join(dir, "a.csv"));
    assert.equal(
      fileTarget({ path: join(dir, "b.csv"), isFolder: false }, { name: "a.csv" }),
      join(dir, "b.csv"),
    );
    assert.equal(folderTarget(destination, { name: "formats" }), join(dir, "formats"));
    assert.throws(() => folderTarget(destination, { name: ".." }), BadRequestError);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
