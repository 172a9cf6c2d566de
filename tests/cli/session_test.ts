import assert from "node:assert/strict";
import { UsageError } from "../../lib/cli/args.ts";
import { type CliIo, Output } from "../../lib/cli/io.ts";
import { openStore, storeFlags } from "../../lib/cli/session.ts";
import { DEMO_USER } from "../../lib/sample/mod.ts";
import { CLI, CONFIG, runTern, startCli } from "./_cli.ts";

function fakeIo(interactive: boolean, answer = ""): CliIo & { asked: string[] } {
  const sink = { write: (bytes: Uint8Array) => Promise.resolve(bytes.length) };
  const asked: string[] = [];
  return {
    stdout: new Output(sink, false),
    stderr: new Output(sink, false),
    interactive,
    readSecret: (question) => {
      asked.push(question);
      return Promise.resolve(answer);
    },
    asked,
  };
}

Deno.test("storeFlags reads the global options and refuses contradictions", () => {
  assert.deepEqual(storeFlags({ url: "http://h/terrain", "no-cache": true }), {
    url: "http://h/terrain",
    anonymous: false,
    noCache: true,
  });
  assert.throws(() => storeFlags({ anonymous: true, username: "demo" }), UsageError);
  assert.throws(() => storeFlags({ token: "t", username: "demo" }), UsageError);
  assert.throws(() => storeFlags({ "cache-dir": "/tmp/x", "no-cache": true }), UsageError);
  assert.throws(() => storeFlags({ url: " " }), /--url needs a non-empty value/);
});

Deno.test("openStore asks for a password on a terminal, and only there", async () => {
  const signal = new AbortController().signal;
  const flags = {
    username: "demo",
    anonymous: false,
    noCache: true,
    url: "http://127.0.0.1:9/terrain",
  };
  const io = fakeIo(true, "typed-password");
  const store = await openStore(flags, io, signal);
  assert.equal(store.options.auth, "password");
  assert.equal(store.options.username, "demo");
  assert.deepEqual(io.asked, ["Password for demo at http://127.0.0.1:9/terrain: "]);
  await assert.rejects(openStore(flags, fakeIo(false), signal), /needs a password/);
  await assert.rejects(openStore(flags, fakeIo(true, ""), signal), /no password was entered/);
  const token = await openStore(
    { token: "a.b.c", anonymous: false, noCache: true },
    fakeIo(false),
    signal,
  );
  assert.equal(token.options.auth, "token");
  await assert.rejects(
    openStore({ url: "not a url", anonymous: true, noCache: true }, fakeIo(false), signal),
    UsageError,
  );
});

/** `script` runs a command on a pseudo-terminal, which is what the prompt needs. */
const script = await new Deno.Command("script", {
  args: ["--version"],
  stdout: "null",
  stderr: "null",
})
  .output().then((output) => output.success, () => false);

Deno.test({
  name: "the password prompt on a real terminal: no echo, then signed in; Ctrl-C cancels",
  ignore: !script,
  fn: async (t) => {
    await using cli = await startCli();
    const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
    const typing = async (keys: string) => {
      const line = [
        Deno.execPath(),
        "run",
        "-A",
        "--config",
        CONFIG,
        CLI,
        "--no-cache",
        "--url",
        cli.url,
        "--username",
        "demo",
        "ls",
        DEMO_USER.home,
      ]
        .map(quote).join(" ");
      const child = new Deno.Command("script", {
        args: ["-qec", line, "/dev/null"],
        cwd: cli.dir,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
        env: { NO_COLOR: "1", TERRAIN_PASSWORD: "" },
      }).spawn();
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let seen = "";
      while (!seen.includes("Password for demo")) {
        const { done, value } = await reader.read();
        if (done) break;
        seen += value;
      }
      // `script` ends when its input does; the keys are read before that end arrives.
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(keys));
      await writer.close();
      while (true) {
        const { done, value } = await reader.read();
        if (done) break;
        seen += value;
      }
      const [status] = await Promise.all([child.status, child.stderr.cancel()]);
      return { code: status.code, output: seen };
    };

    await t.step("the typed password is not shown, and it signs in", async () => {
      const { code, output } = await typing(`${DEMO_USER.password}\r`);
      assert.equal(code, 0, output);
      assert.match(output, new RegExp(`Password for demo at ${cli.url.replaceAll("/", "\\/")}: `));
      assert.ok(!output.includes(DEMO_USER.password), "the password was echoed");
      assert.match(output, /notes\.txt/);
    });

    await t.step("Ctrl-C at the prompt cancels with status 130", async () => {
      const { code, output } = await typing("\x03");
      assert.equal(code, 130, output);
      assert.match(output, /interrupted/);
    });

    await t.step("backspace removes a typed character, multi-byte ones whole", async () => {
      const { code, output } = await typing(`xé\x7f\x7f${DEMO_USER.password}\r`);
      assert.equal(code, 0, output);
      assert.match(output, /notes\.txt/);
    });
  },
});

Deno.test("a password in --url or TERRAIN_URL is never printed, with or without --debug (issue 12)", async () => {
  const url = "http://demo:hunter2@127.0.0.1:99999/terrain";
  const runs: { args: string[]; env: Record<string, string> }[] = [
    { args: ["ls", "--url", url, "/iplant"], env: {} },
    { args: ["ls", "--debug", "--url", url, "/iplant"], env: {} },
    { args: ["ls", "--anonymous", "/iplant"], env: { TERRAIN_URL: url } },
    { args: ["ls", "--debug", "--anonymous", "/iplant"], env: { TERRAIN_URL: url } },
    {
      args: ["ls", "--debug", "--url", "http://demo:hunter2@127.0.0.1:1/terrain", "/iplant"],
      env: {},
    },
  ];
  const cwd = await Deno.makeTempDir({ prefix: "tern-cli-" });
  try {
    for (const run of runs) {
      const output = await runTern(run.args, { cwd, env: { ...run.env, TERRAIN_PASSWORD: "" } });
      const text = output.stdout + output.stderr;
      assert.equal(output.code, 2, text);
      assert.ok(!text.includes("hunter2"), `${run.args.join(" ")} printed: ${text}`);
      assert.match(text, /http:\/\/\*\*\*@127\.0\.0\.1/);
    }
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});
