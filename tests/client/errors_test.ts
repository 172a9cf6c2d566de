import assert from "node:assert/strict";
import {
  abortError,
  AuthError,
  BadRequestError,
  errorCodeOf,
  errorFromResponse,
  isAbortError,
  isTokenProblem,
  NetworkError,
  NotFoundError,
  PermissionError,
  ProtocolError,
  quoteInput,
  RequestTooLargeError,
  ServerError,
  SignInRequiredError,
  TernError,
  truncate,
} from "../../lib/client/errors.ts";

const base = { endpoint: "filesystem/paged-directory", authenticated: true };

Deno.test("errorFromResponse: 500 ERR_DOES_NOT_EXIST with singular path is NotFoundError", () => {
  const err = errorFromResponse({
    ...base,
    status: 500,
    body: { error_code: "ERR_DOES_NOT_EXIST", path: "/iplant/home/demo/nope" },
  });
  assert.ok(err instanceof NotFoundError);
  assert.equal(err.status, 500);
  assert.equal(err.code, "ERR_DOES_NOT_EXIST");
  assert.equal(err.path, "/iplant/home/demo/nope");
  assert.equal(err.endpoint, "filesystem/paged-directory");
  assert.match(err.message, /"\/iplant\/home\/demo\/nope" does not exist/);
  assert.match(err.message, /filesystem\/paged-directory/);
});

Deno.test("errorFromResponse: a missing path without its zone says where data-store paths start", () => {
  const missing = (path: string) =>
    errorFromResponse({ ...base, status: 500, body: { error_code: "ERR_DOES_NOT_EXIST", path } });
  for (const path of ["/home/demo/data.csv", "/shared/commons_repo", "/trash"]) {
    const err = missing(path);
    assert.ok(err instanceof NotFoundError);
    assert.match(
      err.message,
      /Data-store paths start with the zone: "\/iplant\/home\/…" on CyVerse\.$/,
    );
  }
  assert.doesNotMatch(missing("/iplant/home/demo/nope").message, /zone/);
});

Deno.test("errorFromResponse: paths[0] and uuid name the item", () => {
  const byPaths = errorFromResponse({
    ...base,
    endpoint: "filesystem/directory",
    status: 500,
    body: { error_code: "ERR_DOES_NOT_EXIST", paths: ["/iplant/home/demo/x"] },
  });
  assert.equal(byPaths.path, "/iplant/home/demo/x");
  const id = "0b8e4f52-7a31-11e5-8f2a-3c4a92e4a804";
  const byUuid = errorFromResponse({
    ...base,
    endpoint: "filesystem/{id}/metadata",
    status: 500,
    body: { error_code: "ERR_DOES_NOT_EXIST", uuid: id },
  });
  assert.ok(byUuid instanceof NotFoundError);
  assert.equal(byUuid.path, id);
});

Deno.test("errorFromResponse: the subject fills in when the body names nothing", () => {
  const err = errorFromResponse({
    ...base,
    status: 500,
    body: { error_code: "ERR_NOT_FOUND" },
    subject: "/iplant/home/demo/a",
  });
  assert.ok(err instanceof NotFoundError);
  assert.equal(err.path, "/iplant/home/demo/a");
});

Deno.test("errorFromResponse: ERR_NOT_READABLE is PermissionError naming the user", () => {
  const err = errorFromResponse({
    ...base,
    endpoint: "filesystem/directory",
    status: 500,
    body: { error_code: "ERR_NOT_READABLE", paths: ["/iplant/home/alice"], user: "demo" },
  });
  assert.ok(err instanceof PermissionError);
  assert.match(err.message, /User "demo" is not allowed to read "\/iplant\/home\/alice"/);
});

Deno.test("errorFromResponse: wrong kind of entry is BadRequestError", () => {
  const notFolder = errorFromResponse({
    ...base,
    status: 500,
    body: { error_code: "ERR_NOT_A_FOLDER", paths: ["/iplant/home/demo/a.csv"] },
  });
  assert.ok(notFolder instanceof BadRequestError);
  assert.match(notFolder.message, /is a file, not a folder/);
  const notFile = errorFromResponse({
    ...base,
    status: 500,
    body: { error_code: "ERR_NOT_A_FILE", paths: ["/iplant/home/demo"] },
  });
  assert.ok(notFile instanceof BadRequestError);
  assert.match(notFile.message, /is a folder, not a file/);
});

Deno.test("errorFromResponse: 400 ERR_ILLEGAL_ARGUMENT lists each parameter's problem", () => {
  const err = errorFromResponse({
    ...base,
    status: 400,
    body: { error_code: "ERR_ILLEGAL_ARGUMENT", reason: { limit: "missing-required-key" } },
    subject: "/iplant/home/demo",
  });
  assert.ok(err instanceof BadRequestError);
  assert.match(err.message, /limit: missing-required-key/);
  const field = errorFromResponse({
    ...base,
    status: 400,
    body: { fields: ["path"], error_code: "ERR_BAD_OR_MISSING_FIELD", reason: null },
  });
  assert.ok(field instanceof BadRequestError);
  assert.match(field.message, /missing or bad field\(s\): path/);
});

Deno.test("errorFromResponse: downloads' ERR_REQUEST_FAILED means missing, or a folder", () => {
  const missing = errorFromResponse({
    ...base,
    endpoint: "fileio/download",
    status: 500,
    subject: "/iplant/home/demo/missing.txt",
    body: {
      error_code: "ERR_REQUEST_FAILED",
      message: "GET http://data-info/data/path/iplant/home/demo/missing.txt had a service error",
    },
  });
  assert.ok(missing instanceof NotFoundError);
  assert.equal(missing.path, "/iplant/home/demo/missing.txt");
  const folder = errorFromResponse({
    ...base,
    endpoint: "fileio/download",
    status: 500,
    subject: "/iplant/home/demo",
    body: {
      error_code: "ERR_REQUEST_FAILED",
      message: "interal error related to usage of GET http://data-info/data/path: bad request",
    },
  });
  assert.ok(folder instanceof BadRequestError);
});

Deno.test("errorFromResponse: 401 is SignInRequiredError when anonymous, AuthError otherwise", () => {
  const body = { user: null, error_code: "ERR_NOT_AUTHORIZED", reason: null };
  const anonymous = errorFromResponse({
    ...base,
    authenticated: false,
    status: 401,
    body,
    subject: "/iplant/home/demo",
  });
  assert.ok(anonymous instanceof SignInRequiredError);
  assert.match(anonymous.message, /Sign-in needed for filesystem\/paged-directory/);
  const signedIn = errorFromResponse({ ...base, status: 401, body });
  assert.ok(signedIn instanceof AuthError);
  assert.ok(!(signedIn instanceof SignInRequiredError));
});

Deno.test("errorFromResponse: 403 token problems are AuthError, other 403s PermissionError", () => {
  const expired = errorFromResponse({
    ...base,
    status: 403,
    body: { error_code: "ERR_FORBIDDEN", reason: "Token is expired (1700000000)" },
  });
  assert.ok(expired instanceof AuthError);
  assert.match(expired.message, /Token is expired/);
  const untrusted = errorFromResponse({
    ...base,
    status: 403,
    body: { error_code: "ERR_FORBIDDEN", reason: "Untrusted JWT signature." },
  });
  assert.ok(untrusted instanceof AuthError);
  const disabled = errorFromResponse({
    ...base,
    status: 403,
    body: { error_code: "ERR_FORBIDDEN", reason: "Data search is not enabled in this deployment" },
  });
  assert.ok(disabled instanceof PermissionError);
});

Deno.test("errorFromResponse: 404 unrecognized service path says the endpoint is missing", () => {
  const err = errorFromResponse({
    ...base,
    endpoint: "filesystem/search-documentation",
    status: 404,
    body: { reason: "unrecognized service path" },
  });
  assert.ok(err instanceof NotFoundError);
  assert.match(err.message, /does not offer filesystem\/search-documentation/);
});

Deno.test("errorFromResponse: 5xx and 429 are ServerError mentioning the attempts", () => {
  const err = errorFromResponse({ ...base, status: 503, body: "", attempts: 5 });
  assert.ok(err instanceof ServerError);
  assert.match(err.message, /after 5 attempts/);
  const unchecked = errorFromResponse({
    ...base,
    status: 500,
    body: { error_code: "ERR_UNCHECKED_EXCEPTION", reason: "NullPointerException" },
  });
  assert.ok(unchecked instanceof ServerError);
  assert.match(unchecked.message, /NullPointerException/);
  assert.ok(errorFromResponse({ ...base, status: 429, body: "" }) instanceof ServerError);
});

Deno.test("errorFromResponse: a long text reason is cut", () => {
  const err = errorFromResponse({ ...base, status: 502, body: "x".repeat(5000) });
  assert.ok(err.message.length < 400);
  assert.match(err.message, /…/);
});

Deno.test("errorCodeOf and isTokenProblem read bodies defensively", () => {
  assert.equal(errorCodeOf({ error_code: "ERR_X" }), "ERR_X");
  assert.equal(errorCodeOf({ error_code: "" }), undefined);
  assert.equal(errorCodeOf(null), undefined);
  assert.equal(errorCodeOf(["ERR_X"]), undefined);
  assert.equal(isTokenProblem(401, ""), true);
  assert.equal(
    isTokenProblem(403, { reason: "Missing required JWT claims: [:entitlement]" }),
    true,
  );
  assert.equal(isTokenProblem(403, {}), false);
  assert.equal(isTokenProblem(500, { reason: "token" }), false);
});

Deno.test("TernError: subclasses carry their name and serialise without cause", () => {
  const classes = [
    NotFoundError,
    PermissionError,
    AuthError,
    SignInRequiredError,
    BadRequestError,
    ServerError,
    NetworkError,
    ProtocolError,
  ];
  for (const Class of classes) {
    const err = new Class("m.", { status: 500, cause: new Error("inner") });
    assert.ok(err instanceof TernError);
    assert.equal(err.name, Class.name);
    const json = JSON.parse(JSON.stringify(err));
    assert.deepEqual(json, { name: Class.name, message: "m.", status: 500 });
  }
});

Deno.test("abortError: keeps an AbortError reason, wraps any other", () => {
  const plain = new AbortController();
  plain.abort();
  assert.equal(abortError(plain.signal), plain.signal.reason);
  const custom = new AbortController();
  const reason = new Error("closing the store");
  custom.abort(reason);
  const err = abortError(custom.signal);
  assert.ok(isAbortError(err));
  assert.equal(err.cause, reason);
  assert.equal(isAbortError(new Error("AbortError")), false);
});

Deno.test("truncate: leaves short text alone", () => {
  assert.equal(truncate("short"), "short");
  assert.equal(truncate("abcdef", 4), "abc…");
});

Deno.test("quoteInput: at most 200 visible characters, its length said when cut", () => {
  const huge = "ab".repeat(250_000);
  const quoted = quoteInput(huge);
  assert.equal(quoted, `"${huge.slice(0, 200)}…" (500000 characters)`);
  assert.equal(quoteInput("x".repeat(200)), `"${"x".repeat(200)}"`);
  // Characters, not UTF-16 units: a family emoji or an accented letter counts once.
  const family = "👨‍👩‍👧";
  assert.equal(
    quoteInput(family.repeat(300)),
    `"${family.repeat(200)}…" (${family.length * 300} characters)`,
  );
  assert.equal(quoteInput("e\u0301".repeat(10)), `"${"e\u0301".repeat(10)}"`);
});

Deno.test("quoteInput: bidi controls and invisible characters are shown as escapes", () => {
  for (
    const char of [
      "\u202E",
      "\u2066",
      "\u2069",
      "\u200B",
      "\u200E",
      "\uFEFF",
      "\u061C",
      "\u2028",
      "\u{E0041}",
    ]
  ) {
    const quoted = quoteInput(`a${char}b`);
    assert.equal(quoted, `"a\\u{${char.codePointAt(0)!.toString(16)}}b"`, quoted);
    assert.ok(!quoted.includes(char));
  }
  assert.equal(quoteInput('say "hi"\n\u0007\u0085'), '"say \\"hi\\"\\n\\u0007\\x85"');
  // Joiners stay: emoji sequences and Persian or Indic words need them.
  assert.equal(quoteInput("👨‍👩‍👧"), '"👨‍👩‍👧"');
  assert.equal(quoteInput("می\u200Cخواهم"), '"می\u200Cخواهم"');
});

Deno.test("errorFromResponse: 413, 414 and 431 are RequestTooLargeError and quote the path briefly", () => {
  for (const status of [413, 414, 431]) {
    const error = errorFromResponse({
      status,
      body: "Request Header Fields Too Large\n",
      endpoint: "filesystem/file/manifest",
      subject: `/iplant/home/shared/${"\u202E".repeat(70_000)}`,
      authenticated: false,
    });
    assert.ok(error instanceof RequestTooLargeError, String(status));
    assert.equal(error.status, status);
    assert.match(error.message, /too large for the server/);
    // 200 characters of the path, each an escape of 8 characters here.
    assert.ok(error.message.length < 2_000, `${error.message.length} characters`);
    assert.ok(!error.message.includes("\u202E"));
  }
});
