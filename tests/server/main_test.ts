import assert from "node:assert/strict";
import { serveMain } from "../../lib/server/main.ts";
import { makeStore, spawnServe } from "./_store.ts";

const MAIN = new URL("../../lib/server/main.ts", import.meta.url).pathname;

Deno.test("serveMain rejects bad arguments with exit status 2 and says why", async () => {
  await using store = await makeStore({});
  const cases: [string[], RegExp][] = [
    [[], /--root DIR is required/],
    [["--root", store.root, "--port", "http"], /--port must be an integer \(got "http"\)/],
    [["--root", store.root, "--fail-rate", "2"], /"failRate" must be a fraction/],
    [["--root", store.root, "--bogus"], /Unknown option '--bogus'/],
    [["--root", store.root, "extra"], /positional/],
    [["--root", `${store.root}/nope`], /names no folder/],
    [["--root", store.root, "--zone", "a/b"], /"zone"/],
    [["--root", store.root, "--max-connections", "0"], /"maxConnections" must be a positive/],
    [["--root", store.root, "--idle-timeout-ms", "soon"], /--idle-timeout-ms must be an integer/],
    [["--root", store.root, "--max-long-answers", "0"], /"maxLongAnswers" must be a positive/],
  ];
  for (const [args, pattern] of cases) {
    const lines: string[] = [];
    const status = await serveMain(args, { stderr: (line) => lines.push(line), stdout: () => {} });
    assert.equal(status, 2, args.join(" "));
    assert.match(lines.join("\n"), pattern);
  }
});

Deno.test("serveMain --help prints usage and exits 0", async () => {
  const lines: string[] = [];
  assert.equal(await serveMain(["--help"], { stdout: (line) => lines.push(line) }), 0);
  assert.match(lines.join("\n"), /--latency-ms N/);
});

Deno.test("serveMain prints the URL, serves, and stops when asked", async () => {
  await using store = await makeStore({});
  const stop = new AbortController();
  const printed = Promise.withResolvers<string>();
  const running = serveMain(["--root", store.root, "--quiet", "--latency-ms", "1"], {
    stdout: (line) => printed.resolve(line),
    signal: stop.signal,
  });
  const url = await printed.promise;
  const response = await fetch(`${url}/`);
  assert.equal(await response.text(), "The infinite is attainable with Terrain!\n");
  stop.abort();
  assert.equal(await running, 0);
});

Deno.test("the CLI runs until SIGTERM and exits 0", {
  ignore: Deno.build.os === "windows",
}, async () => {
  await using store = await makeStore({});
  const { child, url, stdout } = await spawnServe(["--root", store.root, "--port", "0"]);
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/terrain$/);
  assert.equal((await fetch(`${url}/`)).status, 200);
  child.kill("SIGTERM");
  const status = await child.status;
  await stdout.cancel();
  const log = await new Response(child.stderr).text();
  assert.equal(status.code, 0);
  assert.match(log, /GET \/terrain\/ 200/);
});

Deno.test("the CLI exits 2 on bad arguments", async () => {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "--port", "1"],
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(code, 2);
  assert.match(new TextDecoder().decode(stderr), /error: --root DIR is required/);
});
