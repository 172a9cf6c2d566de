/**
 * Shared parts of the reliability suite: the truth on disk (names, sizes, SHA-256), deadlines
 * that bound every test, latency percentiles, and the one-line figures each test prints for CI
 * logs.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { join } from "node:path";

/** Names the embedded server keeps to itself: AVU and comment sidecars. */
const SIDECAR = /^\.(?:.*\.)?(?:avus|comments)\.json$/s;

/**
 * One item of a folder as the disk has it, in the shape the listings are compared in.
 *
 * @example
 * ```ts
 * import type { DiskItem } from "./_fixtures.ts";
 *
 * const item: DiskItem = { name: "penguins.csv", type: "file", size: 13487 };
 * ```
 */
export interface DiskItem {
  /** Base name. */
  name: string;
  /** `file` or `folder`. */
  type: "file" | "folder";
  /** Bytes for files, 0 for folders. */
  size: number;
}

/**
 * Where data-store path `path` lives under the store folder `root`.
 *
 * @example
 * ```ts
 * import { onDisk } from "./_fixtures.ts";
 *
 * console.log(onDisk("/srv/store", "/iplant/home/shared/a.csv")); // /srv/store/iplant/home/shared/a.csv
 * ```
 */
export function onDisk(root: string, path: string): string {
  return join(root, ...path.split("/").filter((segment) => segment !== ""));
}

/**
 * The hex SHA-256 of `bytes`.
 *
 * @example
 * ```ts
 * import { sha256 } from "./_fixtures.ts";
 *
 * console.log(sha256(new Uint8Array(0)).slice(0, 8)); // e3b0c442
 * ```
 */
export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * The hex SHA-256 of a local file, read in pieces.
 *
 * @example
 * ```ts
 * import { sha256File } from "./_fixtures.ts";
 *
 * const file = await Deno.makeTempFile();
 * console.log((await sha256File(file)).slice(0, 8)); // e3b0c442
 * await Deno.remove(file);
 * ```
 */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  using file = await Deno.open(path);
  const buffer = new Uint8Array(256 * 1024);
  while (true) {
    const count = await file.read(buffer);
    if (count === null) break;
    hash.update(buffer.subarray(0, count));
  }
  return hash.digest("hex");
}

/**
 * What a listing of the folder at `dir` must hold: every entry except sidecars, with sizes,
 * sorted by name (code-unit order, the same sort applied to what the client returns).
 *
 * @example
 * ```ts
 * import { diskListing } from "./_fixtures.ts";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.csv`, "x\n");
 * await Deno.writeTextFile(`${dir}/.a.csv.avus.json`, "[]");
 * console.log(await diskListing(dir)); // [ { name: "a.csv", type: "file", size: 2 } ]
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function diskListing(dir: string): Promise<DiskItem[]> {
  const items: DiskItem[] = [];
  for await (const item of Deno.readDir(dir)) {
    if (SIDECAR.test(item.name)) continue;
    if (item.isDirectory) items.push({ name: item.name, type: "folder", size: 0 });
    else if (item.isFile) {
      const { size } = await Deno.stat(join(dir, item.name));
      items.push({ name: item.name, type: "file", size });
    }
  }
  return sortByName(items);
}

/**
 * Sorts items by name in code-unit order (what both sides of a comparison use), in place.
 *
 * @example
 * ```ts
 * import { sortByName } from "./_fixtures.ts";
 *
 * console.log(sortByName([{ name: "b" }, { name: "B" }, { name: "a" }])); // B, a, b
 * ```
 */
export function sortByName<T extends { name: string }>(items: T[]): T[] {
  return items.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/**
 * Thrown when a test's body outlives its deadline: the suite reports a hang, never waits one
 * out.
 *
 * @example
 * ```ts
 * import { DeadlineError } from "./_fixtures.ts";
 *
 * console.log(new DeadlineError("listing did not finish within 10 ms").name); // DeadlineError
 * ```
 */
export class DeadlineError extends Error {
  override name = "DeadlineError";
}

/**
 * Runs `body` with a signal that aborts after `ms`, and fails with a {@linkcode DeadlineError}
 * at that moment even if `body` ignores the signal, so no test can hang CI.
 *
 * @example
 * ```ts
 * import { withDeadline } from "./_fixtures.ts";
 *
 * const answer = await withDeadline(1_000, "a quick step", (signal) => Promise.resolve(!signal.aborted));
 * console.log(answer); // true
 * ```
 */
export async function withDeadline<T>(
  ms: number,
  what: string,
  body: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new DeadlineError(`${what} did not finish within ${ms} ms`);
      controller.abort(error);
      reject(error);
    }, ms);
  });
  try {
    return await Promise.race([body(controller.signal), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves once `condition()` holds, checked every few milliseconds: a test waits for the state
 * it needs, however long a busy machine takes to reach it; only a hang (`ms`, far above any
 * wait) fails, with a {@linkcode DeadlineError} naming `what`.
 *
 * @example
 * ```ts
 * import { until } from "./_fixtures.ts";
 *
 * let done = false;
 * setTimeout(() => done = true, 1);
 * await until(() => done, "the timer");
 * console.log(done); // true
 * ```
 */
export function until(condition: () => boolean, what: string, ms = 30_000): Promise<void> {
  return withDeadline(ms, what, async (signal) => {
    while (!condition() && !signal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });
}

/**
 * Embedded-server settings that take wall time out of the server's decisions, for suites whose
 * point is that every answer comes back right however busy the machine: no idle, head or send
 * timeout shorter than `ms`, a lane for every long answer and a slot for every connection, so
 * that nothing is cut or shed because a starved client read slowly. (Those rules have tests of
 * their own, on the connection layer.)
 *
 * @example
 * ```ts
 * import { patientServer } from "./_fixtures.ts";
 *
 * console.log(patientServer(60_000).sendTimeoutMs); // 60000
 * ```
 */
export function patientServer(ms: number): {
  idleTimeoutMs: number;
  headersTimeoutMs: number;
  sendTimeoutMs: number;
  maxLongAnswers: number;
  maxConnections: number;
} {
  return {
    idleTimeoutMs: ms,
    headersTimeoutMs: ms,
    sendTimeoutMs: ms,
    maxLongAnswers: 4096,
    maxConnections: 4096,
  };
}

/**
 * The `p`-th percentile (0–100) of `values` by the nearest-rank method; NaN when empty.
 *
 * @example
 * ```ts
 * import { percentile } from "./_fixtures.ts";
 *
 * console.log(percentile([5, 1, 4, 2, 3], 50), percentile([5, 1, 4, 2, 3], 99)); // 3 5
 * ```
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/**
 * Milliseconds with one decimal, for figures.
 *
 * @example
 * ```ts
 * import { ms } from "./_fixtures.ts";
 *
 * console.log(ms(12.345)); // 12.3 ms
 * ```
 */
export function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

/**
 * Prints one line of measured figures, `reliability: <test>: key=value, …`, so CI logs carry
 * them; keys keep their order.
 *
 * @example
 * ```ts
 * import { report } from "./_fixtures.ts";
 *
 * report("load", { clients: 200, errors: 0 }); // reliability: load: clients=200, errors=0
 * ```
 */
export function report(test: string, figures: Record<string, string | number>): void {
  const fields = Object.entries(figures).map(([key, value]) => `${key}=${value}`);
  console.log(`reliability: ${test}: ${fields.join(", ")}`);
}

/**
 * Counts of each value, as `a:3 b:1`, for figures (`none` when empty).
 *
 * @example
 * ```ts
 * import { tally } from "./_fixtures.ts";
 *
 * console.log(tally(["NetworkError", "ServerError", "NetworkError"])); // NetworkError:2 ServerError:1
 * ```
 */
export function tally(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  if (counts.size === 0) return "none";
  return [...counts].sort(([a], [b]) => a < b ? -1 : 1).map(([key, count]) => `${key}:${count}`)
    .join(" ");
}

/**
 * Every file below `dir` (relative paths), for leftover checks; empty when `dir` is missing.
 *
 * @example
 * ```ts
 * import { filesBelow } from "./_fixtures.ts";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/downloads`);
 * await Deno.writeTextFile(`${dir}/downloads/index.jsonl`, "");
 * console.log(await filesBelow(dir)); // [ "downloads/index.jsonl" ]
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function filesBelow(dir: string, prefix = ""): Promise<string[]> {
  const found: string[] = [];
  try {
    for await (const item of Deno.readDir(dir)) {
      const relative = prefix === "" ? item.name : `${prefix}/${item.name}`;
      if (item.isDirectory) found.push(...await filesBelow(join(dir, item.name), relative));
      else found.push(relative);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return found;
}

/**
 * The text forms an error can reach a user or a log in: message, stack, `String()`, inspection
 * (cause included), and JSON.
 *
 * @example
 * ```ts
 * import { errorSurfaces } from "./_fixtures.ts";
 *
 * console.log(errorSurfaces(new Error("boom")).length); // 5
 * ```
 */
export function errorSurfaces(error: unknown): string[] {
  const surfaces = [String(error), Deno.inspect(error, { depth: 8 })];
  if (error instanceof Error) {
    surfaces.push(error.message, error.stack ?? "");
    const cause = (error as { cause?: unknown }).cause;
    if (cause !== undefined) surfaces.push(String(cause), Deno.inspect(cause, { depth: 8 }));
    try {
      surfaces.push(JSON.stringify(error));
    } catch {
      // An error without a JSON form shows nothing more.
    }
  }
  return surfaces;
}

/**
 * Fails when any of `texts` contains any of `secrets`; `where` says what was searched. The
 * failure shows where the secret sat, never the secret.
 *
 * @example
 * ```ts
 * import { assertNoSecret } from "./_fixtures.ts";
 *
 * assertNoSecret(["Store(http://127.0.0.1/terrain, token)"], ["eyJh.secret.sig"], "the store");
 * ```
 */
export function assertNoSecret(
  texts: readonly string[],
  secrets: readonly string[],
  where: string,
): void {
  for (const secret of secrets) {
    for (const text of texts) {
      if (text.includes(secret)) {
        const shown = text.replaceAll(secret, "[CREDENTIAL]").slice(0, 500);
        throw new Error(`${where} leaks a credential: ${shown}`);
      }
    }
  }
}
