/**
 * Errors that name the real problem, as a new user meets them: a base URL with no Terrain API
 * behind it, `https://` to a server that speaks plain HTTP, a password given as an option, a
 * private path met anonymously by any command, a download into a folder that cannot be
 * created, and `tern cite` on a file.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DEMO_USER, FORMATS_PATH } from "../../lib/sample/mod.ts";
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

  await t.step(
    "https:// to a plain-HTTP server fails at once, saying it speaks http://",
    async () => {
      const https = cli.url.replace(/^http:/, "https:");
      const run = await cli.run(["--debug", "--url", https, "ls", "/iplant/home/shared"]);
      assertFailed(
        run,
        "TlsError",
        /127\.0\.0\.1:\d+ answered the TLS handshake .* in plain HTTP: the server speaks http:\/\/, not https:\/\/\. Use http:\/\/127\.0\.0\.1:\d+\/terrain\./,
      );
      // One attempt: a handshake that met plain HTTP is not retried.
      assert.match(run.stderr, /^debug: 1 requests, 0 retries/m);
    },
  );

  await t.step("any command meeting a private path anonymously says how to sign in", async () => {
    const hint = /^hint: sign in with --token TOKEN \(or TERRAIN_TOKEN\), or --username NAME/m;
    const runs = await Promise.all([
      cli.run(["ls", DEMO_USER.home]),
      cli.run(["get", "-r", DEMO_USER.home, "-o", join(cli.dir, "private")]),
      cli.run(["stat", `${DEMO_USER.home}/notes.txt`]),
      cli.run(["cat", `${DEMO_USER.home}/notes.txt`]),
    ]);
    for (const run of runs) {
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /^error: (SignInRequiredError|PermissionError): /m);
      assert.match(run.stderr, hint);
    }
    // Signed in, a refusal is about the item, not about signing in.
    const alice = await cli.run(["--token", DEMO_USER.token, "stat", "/iplant/home/alice"]);
    assert.equal(alice.code, 1, alice.stderr);
    assert.doesNotMatch(alice.stderr, hint);
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
