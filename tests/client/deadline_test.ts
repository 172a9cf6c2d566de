import assert from "node:assert/strict";
import { Deadline } from "../../lib/client/deadline.ts";
import { withDeadline } from "../reliability/_fixtures.ts";
import { timersArmed } from "./_timers.ts";

/** Catches a hang only: far above the deadlines used here. */
const HANG_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("Deadline: expires once its time has passed, never before", async () => {
  const deadline = new Deadline();
  const set = performance.now();
  const expired = await withDeadline(
    HANG_MS,
    "a deadline",
    () => new Promise<number>((resolve) => deadline.set(30, () => resolve(performance.now()))),
  );
  // Timers may round a millisecond down; the deadline itself is never early by more.
  assert.ok(expired - set >= 29, `expired after ${expired - set} ms`);
});

Deno.test("Deadline: moved later, it re-arms for the rest instead of expiring at the first time", async () => {
  const deadline = new Deadline();
  const start = performance.now();
  const expired = await withDeadline(
    HANG_MS,
    "the moved deadline",
    () =>
      new Promise<number>((resolve) => {
        deadline.set(20, () => resolve(performance.now()));
        // Later: the timer armed for 20 ms finds 40 ms left when it fires, and waits for them.
        deadline.set(60, () => resolve(performance.now()));
      }),
  );
  assert.ok(expired - start >= 59, `expired after ${expired - start} ms, not 60`);
});

Deno.test("Deadline: moved sooner, it expires at the sooner time", async () => {
  const deadline = new Deadline();
  const which = await withDeadline(
    HANG_MS,
    "the sooner deadline",
    () =>
      new Promise<string>((resolve) => {
        deadline.set(HANG_MS * 2, () => resolve("the later"));
        deadline.set(10, () => resolve("the sooner"));
      }),
  );
  assert.equal(which, "the sooner");
  deadline.stop();
});

Deno.test("Deadline: paused, its timer lapses; stopped, no timer is left", async () => {
  const deadline = new Deadline();
  let expired = 0;
  deadline.set(10, () => expired++);
  deadline.pause();
  await sleep(40);
  assert.equal(expired, 0);
  deadline.set(HANG_MS * 2, () => expired++);
  // The test's op sanitizer fails it if a timer is left pending.
  deadline.stop();
});

Deno.test("Deadline: moving a deadline later arms no new timer", async () => {
  const deadline = new Deadline();
  const armed = await timersArmed(async () => {
    deadline.set(HANG_MS, () => {});
    for (let move = 0; move < 100; move++) {
      deadline.pause();
      await Promise.resolve();
      deadline.set(HANG_MS, () => {});
    }
  });
  deadline.stop();
  assert.equal(armed, 1);
});
