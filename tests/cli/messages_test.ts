/**
 * Errors that name the real problem, as a new user meets them: a base URL with no Terrain API
 * behind it, a password given as an option, a download into a folder that cannot be created,
 * and `tern cite` on a file.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { FORMATS_PATH } from "../../lib/sample/mod.ts";
import { assertFailed, assertUsage, startCli } from "./_cli.ts";

Deno.test("tern: errors say what is really wrong", async (t) => {
  await using cli = await startCli();
  const csv = `${FORMATS_PATH}/penguins.csv`;

  await t.step("a base URL with no Terrain API says so, not 'sign in'", async () => {
    // Terrain's catch-all asks anonymous callers to sign in even on routes it serves anonymously.
    const nonsense = `${new URL(cli.url).origin}/nonsense`;
    const run = await cli.run(["--url", nonsense, "--anonymous", "ls", "/iplant/home/shared"]);
    assertFailed(
      run,
      "ProtocolError",
      /No Terrain API answers at "http:\/\/127\.0\.0\.1:\d+\/nonsense"/,
    );
    assert.doesNotMatch(run.stderr, /sign in|Sign-in/i);
    // A server that is not Terrain at all: a 404 page.
    await using other = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      () =>
        new Response("<h1>Not Found</h1>", {
          status: 404,
          headers: { "content-type": "text/html" },
        }),
    );
    const page = await cli.run([
      "--url",
      `http://127.0.0.1:${other.addr.port}/nonsense`,
      "--anonymous",
      "ls",
      "/iplant/home/shared",
    ]);
    assertFailed(page, "ProtocolError", /No Terrain API answers at/);
  });

  await t.step("--password is an unknown option, with how to give a password", async () => {
    const before = await cli.run(["--password", "x", "ls"]);
    assertUsage(before, /unknown option --password: .*set TERRAIN_PASSWORD.*--username NAME/);
    assert.doesNotMatch(before.stderr, /unknown command/);
    const after = await cli.run(["ls", "--password=x", FORMATS_PATH]);
    assertUsage(after, /unknown option --password: /);
    assert.doesNotMatch(after.stderr, /=x/);
  });

  await t.step("a download under a file is a LocalFileError naming both paths", async () => {
    const blocker = join(cli.dir, "blocker");
    await Deno.writeTextFile(blocker, "a file where a folder would go");
    const one = await cli.run(["get", csv, "-o", join(blocker, "sub", "penguins.csv")]);
    assertFailed(one, "LocalFileError");
    assert.ok(
      one.stderr.includes(`Could not save "${csv}" to "${join(blocker, "sub")}`),
      one.stderr,
    );
    const two = await cli.run([
      "get",
      csv,
      `${FORMATS_PATH}/penguins.tsv`,
      "-o",
      join(blocker, "sub"),
    ]);
    assertFailed(two, "LocalFileError", /Could not save ".*penguins\.(csv|tsv)" to ".*blocker/);
  });

  await t.step("tern cite on a file says it needs a dataset folder", async () => {
    const run = await cli.run(["cite", csv]);
    assertFailed(
      run,
      "BadRequestError",
      /tern cite needs a dataset folder, and ".*penguins\.csv" is a file/,
    );
  });
});
