import assert from "node:assert/strict";
import { BadRequestError } from "../../lib/client/errors.ts";
import {
  abortSignal,
  CALL_OPTIONS,
  callback,
  count,
  defineOptions,
  filled,
  flag,
  oneOf,
  text,
} from "../../lib/client/options.ts";

interface Options {
  name?: string;
  size?: number;
  mode?: "fast" | "slow";
  quiet?: boolean;
  token?: string;
  password?: string;
  url?: string;
  onDone?: () => void;
  signal?: AbortSignal;
}

let built = 0;
const OPTIONS = defineOptions<Options>(() => {
  built++;
  return {
    name: filled("a name"),
    size: count(1),
    mode: oneOf(["fast", "slow"]),
    quiet: flag(),
    token: text("a string"),
    password: text("a string"),
    url: text("a URL as a string"),
    onDone: callback<() => void>(),
    signal: abortSignal(),
  };
});

/** The message `OPTIONS.parse("thing.make()", options)` throws, which must be a BadRequestError. */
function refusal(options: unknown): string {
  try {
    OPTIONS.parse("thing.make()", options);
  } catch (error) {
    assert.ok(error instanceof BadRequestError, String(error));
    return error.message;
  }
  assert.fail(`${Deno.inspect(options)} was accepted`);
}

Deno.test("an unknown option is refused with the nearest name, or the list of names", () => {
  assert.equal(refusal({ nam: "a" }), 'thing.make(): unknown option "nam": did you mean "name"?');
  assert.equal(
    refusal({ Quiet: true }),
    'thing.make(): unknown option "Quiet": did you mean "quiet"?',
  );
  assert.equal(
    refusal({ colour: "red" }),
    'thing.make(): unknown option "colour"; the options are name, size, mode, quiet, token, ' +
      "password, url, onDone, signal.",
  );
  // An unknown name is reported before a bad value of a known one.
  assert.equal(
    refusal({ size: 0, sise: 1 }),
    'thing.make(): unknown option "sise": did you mean "size"?',
  );
  // A huge or hostile name is quoted shortened and escaped; it gets no hint.
  const long = refusal({ ["x".repeat(100_000)]: 1 });
  assert.ok(long.length < 400, long);
  assert.match(long, /unknown option "x+…" \(100000 characters\); the options are/);
  assert.match(refusal({ "evil\u202Eeman": 1 }), /unknown option "evil\\u\{202e\}eman"/);
});

Deno.test("a bad value names the call, the option, the value given and what it must be", () => {
  const cases: [unknown, string][] = [
    [{ name: " " }, 'thing.make(): name must be a name, got " ".'],
    [{ size: 0 }, "thing.make(): size must be an integer ≥ 1, got 0."],
    [{ size: 1.5 }, "thing.make(): size must be an integer ≥ 1, got 1.5."],
    [{ size: "2" }, 'thing.make(): size must be an integer ≥ 1, got "2".'],
    [{ size: 2 ** 60 }, "thing.make(): size must be an integer ≥ 1, got 1152921504606847000."],
    [
      { mode: "FAST" },
      'thing.make(): mode must be one of "fast", "slow", got "FAST". Did you mean "fast"?',
    ],
    [{ quiet: "yes" }, 'thing.make(): quiet must be true or false, got "yes".'],
    [{ onDone: "later" }, 'thing.make(): onDone must be a function, got "later".'],
    [
      { signal: { aborted: false } },
      "thing.make(): signal must be an AbortSignal, got { aborted: false }.",
    ],
    [null, "thing.make() takes an options object, got null."],
    [[1], "thing.make() takes an options object, got [ 1 ]."],
    ["fast", 'thing.make() takes an options object, got "fast".'],
  ];
  for (const [options, message] of cases) assert.equal(refusal(options), message);
  // Long values are abbreviated, on one line, with invisible characters escaped.
  const long = refusal({ name: 12, size: "9".repeat(10_000) });
  assert.ok(long.length < 200, long);
  assert.match(
    refusal({ mode: "fast\u202Eevil" }),
    /got "fast\\u\{202e\}evil"\. Did you mean "fast"\?$/,
  );
  assert.doesNotMatch(refusal({ mode: { a: { b: { c: 1 } } } }), /\n/);
});

Deno.test("a value that may hold a credential is never shown, only its kind", () => {
  const secret = "s3cret-token-value";
  const cases: [unknown, string][] = [
    [{ token: 42 }, "thing.make(): token must be a string, got a number."],
    [{ token: { access_token: secret } }, "thing.make(): token must be a string, got an object."],
    [{ password: [secret] }, "thing.make(): password must be a string, got an array."],
    [
      { url: new URL(`https://demo:${secret}@example.org/terrain`) },
      "thing.make(): url must be a URL as a string, got a URL.",
    ],
    [{ token: null }, "thing.make(): token must be a string, got null."],
  ];
  for (const [options, message] of cases) {
    const text = refusal(options);
    assert.equal(text, message);
    assert.ok(!text.includes(secret));
  }
});

Deno.test("options come back as one plain value with what was given, and schemas are built once, on first use", () => {
  const signal = new AbortController().signal;
  const onDone = () => {};
  const every: Options = {
    name: "a",
    size: 1,
    mode: "slow",
    quiet: false,
    token: "t",
    password: "p",
    url: "http://x",
    onDone,
    signal,
  };
  const parsed = OPTIONS.parse("thing.make()", every);
  assert.deepEqual(parsed, every);
  assert.notEqual(parsed, every);
  assert.equal(parsed.signal, signal);
  assert.equal(parsed.onDone, onDone);
  assert.deepEqual(OPTIONS.parse("thing.make()", {}), {});
  assert.deepEqual(OPTIONS.parse("thing.make()", { name: undefined }), { name: undefined });
  // However many calls parsed OPTIONS in this file, its rules were made once.
  assert.equal(built, 1);
  let lazy = 0;
  const LAZY = defineOptions<{ quiet?: boolean }>(() => {
    lazy++;
    return { quiet: flag() };
  });
  assert.equal(lazy, 0);
  LAZY.parse("a()", {});
  LAZY.parse("a()", { quiet: true });
  assert.equal(lazy, 1);
});

Deno.test("calls that take only a signal refuse anything else", () => {
  const signal = AbortSignal.timeout(60_000);
  assert.deepEqual(CALL_OPTIONS.parse("file.text()", { signal }), { signal });
  assert.throws(() => CALL_OPTIONS.parse("file.text()", { signl: signal }), {
    message: 'file.text(): unknown option "signl": did you mean "signal"?',
  });
  assert.throws(() => CALL_OPTIONS.parse("file.text()", { encoding: "latin1" }), {
    message: 'file.text(): unknown option "encoding"; the options are signal.',
  });
});
