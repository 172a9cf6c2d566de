/**
 * Counting the timers code arms, for tests of how many it needs.
 *
 * @module
 */

/** Counts the timers armed while `run` runs. */
export async function timersArmed(run: () => Promise<void>): Promise<number> {
  const original = globalThis.setTimeout;
  let armed = 0;
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
    armed++;
    return original(...args);
  }) as typeof setTimeout;
  try {
    await run();
  } finally {
    globalThis.setTimeout = original;
  }
  return armed;
}
