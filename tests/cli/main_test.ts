import assert from "node:assert/strict";
import { VERSION } from "../../mod.ts";
import { DEMO_USER, FORMATS_PATH, SAMPLE_CASES } from "../../lib/sample/mod.ts";
import { assertFailed, assertUsage, lines, startCli } from "./_cli.ts";

Deno.test("tern: help, usage errors, exit statuses, sign-in and credentials", async (t) => {
  await using cli = await startCli();

  await t.step("--help lists every command and the environment; exit 0", async () => {
    const run = await cli.run(["--help"]);
    assert.equal(run.code, 0);
    for (const name of ["ls", "tree", "stat", "meta", "cite", "cat", "head", "get", "serve"]) {
      assert.match(run.stdout, new RegExp(`^  ${name} `, "m"));
    }
    assert.match(run.stdout, /TERRAIN_TOKEN/);
    assert.equal(run.stderr, "");
  });

  await t.step("--help names every form a PATH may take, and each works", async () => {
    const help = (await cli.run(["--help"])).stdout;
    assert.match(
      help,
      /^PATH is an absolute data-store path \(\/iplant\/home\/shared\/\.\.\.\), or$/m,
    );
    assert.match(
      help,
      /^ {2}an item id \(UUID\), a dav or dav-anon URL, a Discovery Environment data link, a DOI or an ARK\.$/m,
    );
    const dataset = SAMPLE_CASES.fullMetadata;
    const [byDoi, byArk] = await Promise.all([
      cli.run(["stat", "doi:10.25739/9k2v-7q4m"]),
      cli.run(["stat", "ark:/87946/p3x9k1"]),
    ]);
    for (const run of [byDoi, byArk]) {
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, new RegExp(`^path +${dataset}$`, "m"));
    }
  });

  await t.step("--version, and help for one command in both spellings", async () => {
    assert.equal((await cli.run(["--version"])).stdout, `tern ${VERSION}\n`);
    const [flag, word] = await Promise.all([
      cli.run(["ls", "--help"]),
      cli.run(["help", "ls"]),
    ]);
    assert.equal(flag.code, 0);
    assert.equal(flag.stdout, word.stdout);
    assert.match(flag.stdout, /^usage: tern ls \[options\] \[PATH\.\.\.\]$/m);
    assert.match(flag.stdout, /--glob GLOB/);
  });

  await t.step(
    "the real program (deno run cli.ts) gives what runCli gives: 0, 1 and 2",
    async () => {
      const args = [
        ["ls", FORMATS_PATH],
        ["ls", `${FORMATS_PATH}/nope`],
        ["lss"],
      ];
      const [listed, missing, unknown] = await Promise.all(
        args.map((each) => cli.runProcess(each)),
      );
      assert.equal(listed.code, 0, listed.stderr);
      assert.deepEqual(listed, await cli.run(args[0]));
      assertFailed(missing, "NotFoundError");
      assert.equal(missing.stderr, (await cli.run(args[1])).stderr);
      assertUsage(unknown, /unknown command "lss"/);
    },
  );

  await t.step("an embedding's interrupt stops the command as Ctrl-C does: 130", async () => {
    const run = await cli.run(["ls", FORMATS_PATH], { interrupt: AbortSignal.abort() });
    assert.equal(run.code, 130, run.stderr);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /^interrupted$/m);
  });

  await t.step("no command: the help on stderr, exit 2", async () => {
    const run = await cli.run([]);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /^commands:$/m);
  });

  await t.step("an unknown command or option is a usage error with a suggestion", async () => {
    const [command, option, value, relative] = await Promise.all([
      cli.run(["lss"]),
      cli.run(["ls", "--sortt", "size", FORMATS_PATH]),
      cli.run(["ls", "--sort", "sise", FORMATS_PATH]),
      cli.run(["stat", "shared/data.csv"]),
    ]);
    assertUsage(command, /unknown command "lss" \(did you mean "ls"\?\)/);
    assertUsage(option, /unknown option --sortt \(did you mean --sort\?\)/);
    assert.match(option.stderr, /Run "tern ls --help" for more\./);
    assertUsage(value, /--sort must be one of name, path, size, created, modified, got "sise"/);
    assertUsage(relative, /"shared\/data\.csv" is not a data-store path/);
    const climbing = await cli.run(["cat", "/iplant/home/shared/../demo/notes.txt"]);
    assertUsage(climbing, /has a "\." or "\.\." segment/);
  });

  await t.step("a misspelt option's value is never echoed (it may be a token)", async () => {
    const run = await cli.run(["ls", "--tokn=hunter2-secret-token", FORMATS_PATH], {
      secrets: ["hunter2-secret-token"],
    });
    assertUsage(run, /unknown option --tokn \(did you mean --token\?\)/);
  });

  await t.step("contradicting global options are usage errors", async () => {
    const [both, anonymous, cache] = await Promise.all([
      cli.run(["--token", DEMO_USER.token, "--username", "demo", "ls"]),
      cli.run(["--anonymous", "--token", DEMO_USER.token, "ls"]),
      cli.run(["--no-cache", "ls"]),
    ]);
    assertUsage(both, /use either --token or --username, not both/);
    assertUsage(anonymous, /--anonymous cannot be combined with --token or --username/);
    assertUsage(cache, /--cache-dir and --no-cache cannot be combined/);
  });

  await t.step("not found: exit 1, a typed error and a hint, nothing on stdout", async () => {
    const run = await cli.run(["ls", `${FORMATS_PATH}/nope`]);
    assertFailed(run, "NotFoundError", /"\/iplant\/home\/shared\/tern_samples\/formats\/nope"/);
    assert.match(run.stderr, /^hint: paths are case-sensitive; "tern ls \/iplant/m);
    assert.equal(run.stdout, "");
  });

  await t.step("sign-in needed: exit 1 with how to sign in", async () => {
    const run = await cli.run(["ls", DEMO_USER.home]);
    assertFailed(run, "SignInRequiredError");
    assert.match(run.stderr, /hint: sign in with --token TOKEN \(or TERRAIN_TOKEN\)/);
  });

  await t.step(
    "a token from the environment or --token signs in; home is the default",
    async () => {
      const [env, flag] = await Promise.all([
        cli.run(["ls"], { env: { TERRAIN_TOKEN: DEMO_USER.token } }),
        cli.run(["--token", DEMO_USER.token, "ls", DEMO_USER.home]),
      ]);
      assert.equal(env.code, 0, env.stderr);
      assert.ok(lines(env).includes("scratch/"), env.stdout);
      assert.equal(flag.stdout, env.stdout);
    },
  );

  await t.step("--anonymous ignores a token in the environment", async () => {
    const run = await cli.run(["--anonymous", "ls", DEMO_USER.home], {
      env: { TERRAIN_TOKEN: DEMO_USER.token },
    });
    assertFailed(run, "SignInRequiredError");
  });

  await t.step("a refused token: exit 1, the token appears nowhere", async () => {
    const forged = `${DEMO_USER.token.slice(0, -6)}AAAAAA`;
    const run = await cli.run(["--token", forged, "ls", FORMATS_PATH], { secrets: [forged] });
    assertFailed(run, "AuthError", /access token was rejected/);
    assert.match(run.stderr, /hint: the token may have expired/);
  });

  await t.step("a token that is no JWT is refused before any request, and said so", async () => {
    const garbled = "copied-wrong-Secret";
    const run = await cli.run(["ls", FORMATS_PATH], {
      env: { TERRAIN_TOKEN: garbled },
      secrets: [garbled],
    });
    assertFailed(run, "AuthError", /The token is not an access token: Terrain takes a JWT/);
    assert.match(run.stderr, /^hint: pass the access token itself/m);
    assert.doesNotMatch(run.stderr, /expired/);
  });

  await t.step("--debug adds the stack and request counts, still without the token", async () => {
    const forged = `${DEMO_USER.token.slice(0, -6)}BBBBBB`;
    const run = await cli.run(["--debug", "--token", forged, "ls", FORMATS_PATH], {
      secrets: [forged],
    });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^\s+at .+:\d+:\d+\)?$/m);
    assert.match(run.stderr, /^debug: \d+ requests, 0 retries/m);
  });

  await t.step("username and TERRAIN_PASSWORD sign in; a wrong password is exit 1", async () => {
    const [good, bad] = await Promise.all([
      cli.run(["--username", "demo", "ls", DEMO_USER.home], {
        env: { TERRAIN_PASSWORD: DEMO_USER.password },
      }),
      cli.run(["ls", DEMO_USER.home], {
        env: { TERRAIN_USERNAME: "demo", TERRAIN_PASSWORD: "not-the-password" },
        secrets: ["not-the-password"],
      }),
    ]);
    assert.equal(good.code, 0, good.stderr);
    assert.ok(lines(good).includes("notes.txt"));
    assertFailed(bad, "AuthError", /Sign-in as "demo" failed/);
    assert.match(bad.stderr, /hint: check the username and password/);
  });

  await t.step("a username without a password and no terminal to ask on: exit 2", async () => {
    const run = await cli.run(["--username", "demo", "ls"]);
    assertUsage(run, /signing in as "demo" needs a password: set TERRAIN_PASSWORD/);
  });

  await t.step("an unreachable server: exit 1 with the URL to check", async () => {
    const run = await cli.run(["--url", "http://127.0.0.1:1/terrain", "ls", FORMATS_PATH]);
    assertFailed(run, "NetworkError");
    assert.match(run.stderr, /hint: check that the server is reachable at http:\/\/127\.0\.0\.1:1/);
  });

  await t.step("a bad URL is a usage error", async () => {
    const run = await cli.run(["--url", "not a url", "ls", FORMATS_PATH]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /^error: /m);
  });
});
