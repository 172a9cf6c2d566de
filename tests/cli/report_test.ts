import assert from "node:assert/strict";
import {
  AuthError,
  NetworkError,
  NotFoundError,
  SignInRequiredError,
  UnsupportedFormatError,
} from "../../mod.ts";
import { UsageError } from "../../lib/cli/args.ts";
import { styles } from "../../lib/cli/format.ts";
import { describeFailure, EXIT } from "../../lib/cli/report.ts";

const plain = { debug: false, style: styles(false) };

Deno.test("usage errors exit 2 with their message", () => {
  assert.deepEqual(describeFailure(new UsageError("missing PATH"), plain), {
    lines: ["error: missing PATH"],
    status: EXIT.usage,
  });
});

Deno.test("typed errors exit 1 with their type and a hint", () => {
  const missing = describeFailure(
    new NotFoundError('"/iplant/home/x/y" does not exist.', { path: "/iplant/home/x/y" }),
    plain,
  );
  assert.equal(missing.status, 1);
  assert.deepEqual(missing.lines, [
    'error: NotFoundError: "/iplant/home/x/y" does not exist.',
    'hint: paths are case-sensitive; "tern ls /iplant/home/x" shows what is there',
  ]);
  const hints = [
    [new SignInRequiredError("Sign-in needed."), /--token TOKEN/],
    [new AuthError("Sign-in failed.", { endpoint: "token/keycloak" }), /username and password/],
    [new AuthError("Token rejected.", { endpoint: "filesystem/root" }), /token may have expired/],
    [new NetworkError("No answer."), /reachable at http:\/\/h\/terrain/],
  ] as const;
  for (const [error, hint] of hints) {
    const failure = describeFailure(error, { ...plain, url: "http://h/terrain" });
    assert.equal(failure.status, 1);
    assert.match(failure.lines[1], hint);
  }
  const format = new UnsupportedFormatError("/a.png", "it is a PNG image");
  assert.match(describeFailure(format, plain).lines[1], /tern cat/);
});

Deno.test("an interruption exits 130", () => {
  const failure = describeFailure(new DOMException("stop", "AbortError"), plain);
  assert.deepEqual(failure, { lines: ["interrupted"], status: EXIT.interrupted });
});

Deno.test("anything else is reported as a bug, with the stack only under --debug", () => {
  const bug = new TypeError("x is undefined");
  const quiet = describeFailure(bug, plain);
  assert.equal(quiet.status, 1);
  assert.equal(quiet.lines[0], "error: internal error: TypeError: x is undefined");
  assert.match(quiet.lines[1], /run again with --debug/);
  assert.ok(!quiet.lines.some((line) => /^\s+at /.test(line)));
  const loud = describeFailure(bug, { ...plain, debug: true });
  assert.ok(loud.lines.some((line) => /^\s+at /.test(line)));
});

Deno.test("messages are escaped for the terminal", () => {
  const failure = describeFailure(new NotFoundError('"/a\x1b[2Jb" does not exist.'), plain);
  assert.equal(failure.lines[0], 'error: NotFoundError: "/a\\x1b[2Jb" does not exist.');
});
