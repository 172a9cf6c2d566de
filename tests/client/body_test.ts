import assert from "node:assert/strict";
import { formatMs, guardBody, readAll, readBody } from "../../lib/client/body.ts";
import { NetworkError } from "../../lib/client/errors.ts";
import { withDeadline } from "../reliability/_fixtures.ts";

/** Catches a hang only (a stalled source never ends): far above the idle times used here. */
const HANG_MS = 30_000;

const context = { endpoint: "fileio/download", subject: "/iplant/home/demo/a.bin" };

function chunks(...parts: number[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const size of parts) controller.enqueue(new Uint8Array(size).fill(7));
      controller.close();
    },
  });
}

/** Five bytes, then the connection breaks. */
function brokenAfterFive(): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(5));
    },
    pull(controller) {
      controller.error(new TypeError("error reading a body from connection"));
    },
  });
}

/** The error a broken body of 10 announced bytes must give after five: typed, with its cause. */
function brokeAfterFiveOfTen(error: unknown): boolean {
  assert.ok(error instanceof NetworkError);
  assert.match(error.message, /connection broke.*after 5 bytes of 10/);
  assert.ok(error.cause instanceof TypeError);
  return true;
}

/** Five bytes, then nothing, ever; says whether it was cancelled. */
function stallingAfterFive(): { source: ReadableStream<Uint8Array>; cancelled: () => boolean } {
  let cancelled = false;
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(5));
    },
    cancel() {
      cancelled = true;
    },
  });
  return { source, cancelled: () => cancelled };
}

function guarded(source: ReadableStream<Uint8Array>, extra: {
  expectedLength?: number;
  idleTimeoutMs?: number;
  signal?: AbortSignal;
} = {}) {
  let finished = 0;
  const body = guardBody(source, {
    expectedLength: extra.expectedLength,
    idleTimeoutMs: extra.idleTimeoutMs ?? 1000,
    signal: extra.signal ?? new AbortController().signal,
    onFinish: () => finished++,
    context,
  });
  return { body, finished: () => finished };
}

Deno.test("guardBody: passes a complete body through and finishes once", async () => {
  const { body, finished } = guarded(chunks(3, 4, 5), { expectedLength: 12 });
  const bytes = await readAll(body);
  assert.equal(bytes?.length, 12);
  assert.equal(finished(), 1);
});

Deno.test("guardBody: a body shorter than Content-Length is a NetworkError", async () => {
  const { body, finished } = guarded(chunks(3, 4), { expectedLength: 12 });
  await assert.rejects(readAll(body), (error: unknown) => {
    assert.ok(error instanceof NetworkError);
    assert.match(error.message, /closed the body of "\/iplant\/home\/demo\/a.bin".*7 of 12 bytes/);
    assert.equal(error.path, context.subject);
    return true;
  });
  assert.equal(finished(), 1);
});

Deno.test("guardBody: a body longer than Content-Length is a NetworkError", async () => {
  const { body, finished } = guarded(chunks(8, 8), { expectedLength: 12 });
  await assert.rejects(readAll(body), /more than the 12 bytes it announced/);
  assert.equal(finished(), 1);
});

Deno.test("guardBody: a broken source is a NetworkError that keeps the cause", async () => {
  const source = brokenAfterFive();
  const { body, finished } = guarded(source, { expectedLength: 10 });
  await assert.rejects(readAll(body), brokeAfterFiveOfTen);
  assert.equal(finished(), 1);
});

Deno.test("guardBody: a stalled source is a NetworkError after the idle time", async () => {
  const { source, cancelled } = stallingAfterFive();
  const { body, finished } = guarded(source, { idleTimeoutMs: 50 });
  await withDeadline(HANG_MS, "a stalled source", async () => {
    await assert.rejects(readAll(body), /stopped sending .* no data for 50 ms after 5 bytes/);
  });
  assert.ok(cancelled(), "the stalled source is cancelled");
  assert.equal(finished(), 1);
});

Deno.test("guardBody: a slow consumer does not trip the idle clock", async () => {
  const { body, finished } = guarded(chunks(1, 1, 1), { idleTimeoutMs: 20, expectedLength: 3 });
  const reader = body.getReader();
  let total = 0;
  while (true) {
    await new Promise((resolve) => setTimeout(resolve, 40));
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
  }
  assert.equal(total, 3);
  assert.equal(finished(), 1);
});

Deno.test("guardBody: abort before reading errors with AbortError and finishes at once", async () => {
  const controller = new AbortController();
  let cancelled = false;
  const source = new ReadableStream<Uint8Array>({
    cancel() {
      cancelled = true;
    },
  });
  const { body, finished } = guarded(source, { signal: controller.signal });
  controller.abort();
  assert.equal(finished(), 1, "the slot comes back without anyone reading");
  assert.ok(cancelled);
  await assert.rejects(readAll(body), { name: "AbortError" });
  assert.equal(finished(), 1);
});

Deno.test("guardBody: abort while a read is pending rejects that read", async () => {
  const controller = new AbortController();
  const { body, finished } = guarded(new ReadableStream<Uint8Array>(), {
    signal: controller.signal,
    idleTimeoutMs: 10_000,
  });
  const reading = readAll(body);
  setTimeout(() => controller.abort(), 10);
  await assert.rejects(reading, { name: "AbortError" });
  assert.equal(finished(), 1);
});

Deno.test("guardBody: cancelling the body cancels the source and finishes once", async () => {
  let reason: unknown;
  const source = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(new Uint8Array(1));
    },
    cancel(why) {
      reason = why;
    },
  });
  const { body, finished } = guarded(source);
  const reader = body.getReader();
  await reader.read();
  await reader.cancel("enough");
  assert.equal(reason, "enough");
  assert.equal(finished(), 1);
});

Deno.test("readAll: stops past the limit and cancels the rest", async () => {
  let cancelled = false;
  const source = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(new Uint8Array(100));
    },
    cancel() {
      cancelled = true;
    },
  });
  assert.equal(await readAll(source, 250), undefined);
  assert.ok(cancelled);
});

/** Reads `source` whole with {@linkcode readBody}, counting how often it finished. */
function readWhole(source: ReadableStream<Uint8Array>, extra: {
  expectedLength?: number;
  idleTimeoutMs?: number;
  signal?: AbortSignal;
  maxBytes?: number;
} = {}) {
  let finished = 0;
  const reading = readBody(source, {
    expectedLength: extra.expectedLength,
    idleTimeoutMs: extra.idleTimeoutMs ?? 1000,
    signal: extra.signal ?? new AbortController().signal,
    onFinish: () => finished++,
    context,
  }, extra.maxBytes);
  return { reading, finished: () => finished };
}

/** A source that sends `count` one-byte chunks `everyMs` apart, then ends. */
function trickle(count: number, everyMs: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      if (sent++ === count) controller.close();
      else controller.enqueue(new Uint8Array([sent]));
    },
  });
}

Deno.test("readBody: returns a body read in chunks whole and finishes once", async () => {
  const { reading, finished } = readWhole(chunks(3, 4, 5), { expectedLength: 12 });
  const bytes = await reading;
  assert.equal(bytes?.length, 12);
  assert.ok(bytes?.every((byte) => byte === 7));
  assert.equal(finished(), 1);
});

Deno.test("readBody: a body shorter or longer than Content-Length is a NetworkError", async () => {
  const short = readWhole(chunks(3, 4), { expectedLength: 12 });
  await assert.rejects(short.reading, (error: unknown) => {
    assert.ok(error instanceof NetworkError);
    assert.match(error.message, /closed the body of "\/iplant\/home\/demo\/a.bin".*7 of 12 bytes/);
    return true;
  });
  assert.equal(short.finished(), 1);
  const long = readWhole(chunks(8, 8), { expectedLength: 12 });
  await assert.rejects(long.reading, /more than the 12 bytes it announced/);
  assert.equal(long.finished(), 1);
});

Deno.test("readBody: a broken source is a NetworkError that keeps the cause", async () => {
  const source = brokenAfterFive();
  const { reading, finished } = readWhole(source, { expectedLength: 10 });
  await assert.rejects(reading, brokeAfterFiveOfTen);
  assert.equal(finished(), 1);
});

Deno.test("readBody: a stalled source is a NetworkError after the idle time", async () => {
  const { source, cancelled } = stallingAfterFive();
  const { reading, finished } = readWhole(source, { idleTimeoutMs: 50 });
  const started = performance.now();
  await withDeadline(HANG_MS, "a stalled source", async () => {
    await assert.rejects(reading, /stopped sending .* no data for 50 ms after 5 bytes/);
  });
  // Not before the idle time (a lower bound no load can break; timers may fire a ms early).
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= 45, `${elapsed.toFixed(0)} ms`);
  assert.ok(cancelled(), "the stalled source is cancelled");
  assert.equal(finished(), 1);
});

Deno.test("readBody: a slow but steady body outlasts the idle time without tripping it", async () => {
  // Twelve chunks 100 ms apart take 1.3 s in all, each a tenth of the 1 s idle time: only a
  // thread starved for most of a second could see a gap as long as the idle time (with 30 ms
  // gaps and a 60 ms idle time, the suite's parallel run once did).
  const { reading, finished } = readWhole(trickle(12, 100), { idleTimeoutMs: 1000 });
  assert.deepEqual([...(await reading)!], Array.from({ length: 12 }, (_, i) => i + 1));
  assert.equal(finished(), 1);
  const stalling = readWhole(trickle(3, 120), { idleTimeoutMs: 60 });
  await assert.rejects(stalling.reading, /no data for 60 ms after 0 bytes/);
  assert.equal(stalling.finished(), 1);
  await new Promise((resolve) => setTimeout(resolve, 130)); // the source's pending timer
});

Deno.test("readBody: an abort before or while reading is an AbortError; it finishes once", async () => {
  const before = new AbortController();
  before.abort();
  let cancelled = false;
  const idle = new ReadableStream<Uint8Array>({
    cancel() {
      cancelled = true;
    },
  });
  const early = readWhole(idle, { signal: before.signal });
  await assert.rejects(early.reading, { name: "AbortError" });
  assert.ok(cancelled);
  assert.equal(early.finished(), 1);

  const during = new AbortController();
  const late = readWhole(new ReadableStream<Uint8Array>(), {
    signal: during.signal,
    idleTimeoutMs: 10_000,
  });
  setTimeout(() => during.abort(), 10);
  await assert.rejects(late.reading, { name: "AbortError" });
  assert.equal(late.finished(), 1);
});

Deno.test("readBody: stops past maxBytes, cancels the rest and finishes once", async () => {
  let cancelled = false;
  const source = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(new Uint8Array(100));
    },
    cancel() {
      cancelled = true;
    },
  });
  const { reading, finished } = readWhole(source, { maxBytes: 250 });
  assert.equal(await reading, undefined);
  assert.ok(cancelled);
  assert.equal(finished(), 1);
});

Deno.test("formatMs: milliseconds and seconds", () => {
  assert.equal(formatMs(800), "800 ms");
  assert.equal(formatMs(30_000), "30 s");
  assert.equal(formatMs(1500), "1.5 s");
});
