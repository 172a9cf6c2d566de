import assert from "node:assert/strict";
import { join } from "node:path";
import {
  ALICE_USER,
  DEMO_USER,
  isSampleStoreCurrent,
  SAMPLE_TOKEN_SECRET,
} from "../../lib/sample/mod.ts";
import { sampleStoreMain } from "../../lib/sample/main.ts";

const MAIN = new URL("../../lib/sample/main.ts", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;
const REPO = new URL("../../", import.meta.url).pathname;

/**
 * Runs the command in this process (`sampleStoreMain` with lines kept), for what needs no
 * process of its own: arguments, help, refusals, reuse.
 */
async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await sampleStoreMain(args, {
    out: (line) => out.push(`${line}\n`),
    err: (line) => err.push(`${line}\n`),
  });
  return { code, out: out.join(""), err: err.join("") };
}

/**
 * Runs the real CLI in a child process, as `deno task sample-store` does: in the project folder,
 * with the folder the user typed the command in as `INIT_CWD`.
 */
async function cliFrom(
  caller: string,
  ...args: string[]
): Promise<{ code: number; out: string; err: string }> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", CONFIG, MAIN, ...args],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", INIT_CWD: caller },
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code, out: decode(stdout), err: decode(stderr) };
}

/** `text` as a regular expression matching it literally. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

function assertNoSecrets(text: string): void {
  for (
    const secret of [DEMO_USER.password, DEMO_USER.token, ALICE_USER.password, SAMPLE_TOKEN_SECRET]
  ) {
    assert.ok(!text.includes(secret), "output must not contain credentials");
  }
}

function assertNoStackTrace(text: string): void {
  assert.doesNotMatch(text, /^\s+at /m);
  assert.doesNotMatch(text, /Stack backtrace/);
}

Deno.test("sample-store CLI: bad arguments exit 2 with a clear message and usage", async () => {
  const cases: [string[], RegExp][] = [
    [[], /missing DIR/],
    [["--frobnicate", "x"], /--frobnicate/],
    [["a", "b"], /expected one DIR, got 2: a b/],
    [["   "], /missing DIR/],
  ];
  for (const [args, message] of cases) {
    const { code, out, err } = await cli(...args);
    assert.equal(code, 2, args.join(" "));
    assert.equal(out, "");
    assert.match(err, message);
    assert.match(err, /^usage: deno task sample-store DIR/m);
    assert.match(err, /^error: /);
    assertNoStackTrace(err);
  }
});

Deno.test("sample-store CLI: --help prints usage and exits 0", async () => {
  const { code, out, err } = await cli("--help");
  assert.equal(code, 0);
  assert.match(out, /^usage: deno task sample-store DIR \[--reuse\]/m);
  assert.equal(err, "");
});

// One build (20,000 files take seconds) for all of it: `deno task sample-store ./store` typed in
// the user's folder writes there (lib/entry/caller_folder.ts), not in the project folder where
// `deno task` runs tasks; the summary; and reuse.
Deno.test("sample-store CLI: builds ./store where the user typed the command, prints a summary, reuses it with --reuse", async () => {
  const parent = await Deno.makeTempDir({ prefix: "tern-sample-cli-" });
  try {
    const dir = join(await Deno.realPath(parent), "store");
    const built = await cliFrom(parent, "./store");
    assert.equal(built.code, 0, built.err);
    assert.match(built.out, new RegExp(`^Sample store written to ${escape(dir)}$`, "m"));
    assert.match(built.out, new RegExp(`^Serve it: +deno task serve --root ${escape(dir)}$`, "m"));
    assert.ok(Deno.statSync(join(dir, ".terrain/sample-store.json")).isFile);
    assert.match(built.out, /datasets: 12 published/);
    assert.match(built.out, /files: {4}\d{2},\d{3} \(\d+\.\d MB\)/);
    assert.match(built.out, /time: {5}\d+\.\d s/);
    // How to sign in, with no source to read: the demo user's (public) password, and only it.
    const signIn = built.out.match(
      /^Sign in: +export TERRAIN_USERNAME=(\S+) TERRAIN_PASSWORD=(\S+) .*$/m,
    );
    assert.ok(signIn, built.out);
    assert.deepEqual(signIn.slice(1), [DEMO_USER.username, DEMO_USER.password]);
    assertNoSecrets(built.out.replace(signIn[0], "") + built.err);
    assert.equal(await isSampleStoreCurrent(dir), true);

    const stamp = Deno.statSync(join(dir, ".terrain/sample-store.json")).ino;
    const reused = await cli(dir, "--reuse");
    assert.equal(reused.code, 0, reused.err);
    assert.match(reused.out, /Sample store ready at /);
    assert.equal(Deno.statSync(join(dir, ".terrain/sample-store.json")).ino, stamp, "not rebuilt");
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("sample-store CLI: refuses a non-store directory with exit 1 and no stack trace", async () => {
  const parent = await Deno.makeTempDir({ prefix: "tern-sample-cli-" });
  try {
    Deno.writeTextFileSync(join(parent, "keep.txt"), "mine");
    const { code, out, err } = await cli(parent);
    assert.equal(code, 1);
    assert.equal(out, "");
    assert.match(err, /^sample-store: .* is not empty and is not a tern sample store/);
    assertNoStackTrace(err);
    assert.equal(Deno.readTextFileSync(join(parent, "keep.txt")), "mine");
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
