import assert from "node:assert/strict";
import { formatMs, guardBody, readAll, readBody } from "../../lib/client/body.ts";
import { NetworkError } from "../../lib/client/errors.ts";
import { until, withDeadline } from "../reliability/_fixtures.ts";

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

/** A source that never sends a byte; says when a read reached it. */
function silent(): { source: ReadableStream<Uint8Array>; pulled: () => boolean } {
  let pulled = false;
  const source = new ReadableStream<Uint8Array>({
    pull() {
      pulled = true;
      return new Promise(() => {});
    },
  }, { highWaterMark: 0 });
  return { source, pulled: () => pulled };
}

/**
 * Timers on a clock the test steps: the next timer fires only once everything already runnable
 * has run, so which fires first depends on the times asked for, never on how busy the machine is.
 */
class SteppedClock {
  now = 0;
  #armed: { at: number; run: () => void }[] = [];

  /** Arms a timer (the shape of `GuardOptions.timer`). */
  timer = (run: () => void, ms: number): () => void => {
    const entry = { at: this.now + ms, run };
    this.#armed.push(entry);
    return () => void (this.#armed = this.#armed.filter((armed) => armed !== entry));
  };

  /** Resolves once the clock has moved `ms` on. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.timer(resolve, ms));
  }

  /** Moves the clock `ms` on, firing in order the timers due by then. */
  async advance(ms: number): Promise<void> {
    const end = this.now + ms;
    while (await this.#fireNext(end));
    this.now = end;
  }

  /** Steps from timer to timer until `promise` settles. */
  async runUntil<T>(promise: Promise<T>): Promise<T> {
    let settled = false;
    promise.then(() => settled = true, () => settled = true);
    while (await this.#fireNext(Number.POSITIVE_INFINITY) && !settled);
    assert.ok(settled, "no timer left to fire, and the promise still pending: a hang");
    return await promise;
  }

  /**
   * Lets everything runnable run (streams settle in microtasks, which one macrotask drains),
   * then fires the earliest timer due by `end`.
   */
  async #fireNext(end: number): Promise<boolean> {
    await new Promise((resolve) => setTimeout(resolve, 0));
    const next = this.#armed.reduce<{ at: number; run: () => void } | undefined>(
      (earliest, armed) => earliest === undefined || armed.at < earliest.at ? armed : earliest,
      undefined,
    );
    if (next === undefined || next.at > end) return false;
    this.#armed = this.#armed.filter((armed) => armed !== next);
    this.now = next.at;
    next.run();
    return true;
  }
}

function guarded(source: ReadableStream<Uint8Array>, extra: {
  expectedLength?: number;
  idleTimeoutMs?: number;
  signal?: AbortSignal;
  timer?: SteppedClock["timer"];
} = {}) {
  let finished = 0;
  const body = guardBody(source, {
    expectedLength: extra.expectedLength,
    idleTimeoutMs: extra.idleTimeoutMs ?? 1000,
    signal: extra.signal ?? new AbortController().signal,
    onFinish: () => finished++,
    context,
    timer: extra.timer,
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
  const clock = new SteppedClock();
  const { body, finished } = guarded(chunks(1, 1, 1), {
    idleTimeoutMs: 20,
    expectedLength: 3,
    timer: clock.timer,
  });
  const reader = body.getReader();
  let total = 0;
  while (true) {
    // Twice the idle time passes with no read pending: any idle timer armed meanwhile fires.
    await clock.advance(40);
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
  const { source, pulled } = silent();
  // An idle time beyond the hang guard: only the abort can end the read.
  const { body, finished } = guarded(source, {
    signal: controller.signal,
    idleTimeoutMs: 2 * HANG_MS,
  });
  const reading = readAll(body);
  await until(pulled, "the read reaching the source");
  controller.abort();
  await withDeadline(HANG_MS, "the aborted read", async () => {
    await assert.rejects(reading, { name: "AbortError" });
  });
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
  timer?: SteppedClock["timer"];
} = {}) {
  let finished = 0;
  const reading = readBody(source, {
    expectedLength: extra.expectedLength,
    idleTimeoutMs: extra.idleTimeoutMs ?? 1000,
    signal: extra.signal ?? new AbortController().signal,
    onFinish: () => finished++,
    context,
    timer: extra.timer,
  }, extra.maxBytes);
  return { reading, finished: () => finished };
}

/** A source that sends `count` one-byte chunks `everyMs` apart on `clock`, then ends. */
function trickle(clock: SteppedClock, count: number, everyMs: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      await clock.sleep(everyMs);
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
  // Twelve chunks 100 ms apart on a stepped clock (real gaps raced a starved thread): the
  // source's timers and the idle timer fire in the order of their times only.
  const clock = new SteppedClock();
  const { timer } = clock;
  const { reading, finished } = readWhole(trickle(clock, 12, 100), { idleTimeoutMs: 1000, timer });
  assert.deepEqual(
    [...(await clock.runUntil(reading))!],
    Array.from({ length: 12 }, (_, i) => i + 1),
  );
  assert.equal(clock.now, 1300, "longer than the idle time in all");
  assert.equal(finished(), 1);
  const stalling = readWhole(trickle(clock, 3, 120), { idleTimeoutMs: 60, timer });
  await assert.rejects(clock.runUntil(stalling.reading), /no data for 60 ms after 0 bytes/);
  assert.equal(stalling.finished(), 1);
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
  const { source, pulled } = silent();
  // An idle time beyond the hang guard: only the abort can end the read.
  const late = readWhole(source, { signal: during.signal, idleTimeoutMs: 2 * HANG_MS });
  await until(pulled, "the read reaching the source");
  during.abort();
  await withDeadline(HANG_MS, "the aborted read", async () => {
    await assert.rejects(late.reading, { name: "AbortError" });
  });
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
