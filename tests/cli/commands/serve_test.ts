import assert from "node:assert/strict";
import { basename, dirname } from "node:path";
import { Output, runCli } from "../../../cli.ts";
import { FORMATS_PATH } from "../../../lib/sample/mod.ts";
import { COMMANDS } from "../../../lib/cli/commands/mod.ts";
import { usageLine } from "../../../lib/cli/help.ts";
import { assertUsage, lines, startCli } from "../_cli.ts";

/** The first line from a reader of a child's stdout. */
async function firstLine(reader: ReadableStreamDefaultReader<string>): Promise<string> {
  let text = "";
  while (!text.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) break;
    text += value;
  }
  return text.split("\n")[0];
}

Deno.test("tern serve and tern sample-store: delegated, with tern's name in their help", async (t) => {
  await using cli = await startCli();

  await t.step("serve prints its URL, answers tern, and stops cleanly on Ctrl-C", async () => {
    const child = cli.spawn(["serve", "--root", cli.root, "--port", "0", "--quiet"], {
      noCacheFlag: true,
    });
    const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const url = await firstLine(stdout);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/terrain$/);
    const run = await cli.run(["--url", url, "ls", "--type", "file", FORMATS_PATH]);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(lines(run).includes("penguins.csv"));
    child.kill("SIGINT");
    const [status] = await Promise.all([
      child.status,
      stdout.cancel(),
      child.stderr.cancel(),
    ]);
    assert.equal(status.code, 0);
  });

  await t.step(
    "from code: a relative --root from CliIo.cwd, stopped by CliIo.interrupt",
    async () => {
      const url = Promise.withResolvers<string>();
      const stop = new AbortController();
      const text = new TextDecoder();
      const out = new Output(
        {
          write: (bytes) => {
            const line = text.decode(bytes).trim();
            if (line.startsWith("http")) url.resolve(line);
            return Promise.resolve(bytes.length);
          },
        },
        false,
        false,
      );
      // The store's folder named relative to its parent, as the command's own folder.
      const io = {
        stdout: out,
        stderr: out,
        interactive: false,
        readSecret: () => Promise.resolve(""),
        env: {},
        cwd: dirname(cli.root),
      };
      const running = runCli(
        ["serve", "--root", basename(cli.root), "--port", "0", "--quiet"],
        { ...io, interrupt: stop.signal },
      );
      const served = await Promise.race([url.promise, running.then((code) => `exit ${code}`)]);
      assert.match(served, /^http:\/\/127\.0\.0\.1:\d+\/terrain$/);
      const run = await cli.run(["--url", served, "ls", "--type", "file", FORMATS_PATH]);
      assert.ok(lines(run).includes("penguins.csv"), run.stderr);
      stop.abort();
      // A deadline that only turns a server that never stops into a failure rather than a hang.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const hung = new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve("still serving a minute after the interrupt"), 60_000);
      });
      assert.equal(await Promise.race([running, hung]), 0);
      clearTimeout(timer);
      // sample-store takes its DIR from the same folder.
      assert.equal(await runCli(["sample-store", "--reuse", basename(cli.root)], io), 0);
    },
  );

  await t.step("serve's own help and usage errors, named for tern", async () => {
    const [help, port, flag] = await Promise.all([
      cli.run(["serve", "--help"], { noCacheFlag: true }),
      cli.run(["serve", "--root", cli.root, "--port", "http"], { noCacheFlag: true }),
      cli.run(["--token", "x", "serve", "--root", cli.root], { noCacheFlag: true }),
    ]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^usage: tern serve --root DIR \[options\]$/m);
    assert.equal(port.code, 2);
    assert.match(port.stderr, /--port must be an integer \(got "http"\)/);
    assertUsage(flag, /tern serve does not take --token/);
  });

  await t.step("every command's help has tern's one format, in all three spellings", async () => {
    for (const command of COMMANDS) {
      const runs = await Promise.all([
        cli.run([command.name, "--help"], { noCacheFlag: true }),
        cli.run(["help", command.name], { noCacheFlag: true }),
        cli.run(["--help", command.name], { noCacheFlag: true }),
      ]);
      for (const run of runs) {
        assert.equal(run.code, 0, run.stderr);
        assert.equal(run.stdout, runs[0].stdout, command.name);
      }
      const help = runs[0].stdout.split("\n");
      assert.equal(help[0], `tern ${command.name}: ${command.summary}`);
      assert.equal(help[1], "");
      assert.equal(help[2], usageLine(command));
      if (Object.keys(command.options).length > 0 || command.delegates) {
        assert.ok(help.includes("options:"), command.name);
      }
      assert.ok(help.includes("examples:"), command.name);
      assert.doesNotMatch(runs[0].stdout, /^(Usage|Options|Examples):/m, command.name);
      assert.doesNotMatch(runs[0].stdout, /deno task/, command.name);
    }
  });

  await t.step("the delegated commands' usage errors look like every other command's", async () => {
    for (const name of ["serve", "sample-store"]) {
      const run = await cli.run([name, "--frobnicate"], { noCacheFlag: true });
      assertUsage(run, /^error: .*--frobnicate/);
      const command = COMMANDS.find((candidate) => candidate.name === name)!;
      assert.deepEqual(run.stderr.split("\n").slice(1), [
        usageLine(command),
        `Run "tern ${name} --help" for more.`,
        "",
      ]);
    }
  });

  await t.step("sample-store reuses an up-to-date store, and needs a DIR", async () => {
    const [reuse, missing] = await Promise.all([
      cli.run(["sample-store", "--reuse", cli.root], { noCacheFlag: true }),
      cli.run(["sample-store"], { noCacheFlag: true }),
    ]);
    assert.equal(reuse.code, 0, reuse.stderr);
    assert.match(
      reuse.stdout,
      new RegExp(`^Sample store ready at ${cli.root.replaceAll("/", "\\/")}`),
    );
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing DIR/);
    assert.match(missing.stderr, /^usage: tern sample-store DIR \[--reuse\]/m);
  });
});
