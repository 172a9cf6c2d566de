/**
 * One contender of the listing suite, run as its own process so that its peak RSS is its own:
 * either tern's `Listing` (`--side tern`) or a plain `fetch` + `JSON.parse` loop over the same
 * pages (`--side plain`). It loads everything up front, prints one `{"ready":true}` line, then
 * answers each command read from stdin with one JSON line on stdout, and exits at end of input.
 *
 * Commands:
 * - `verify`: one pass that keeps every entry; answers how many there were, how many distinct
 *   paths and ids, how many requests were sent, and SHA-256 digests of the sorted paths and of
 *   the sorted entries (id, path, name, type, size, created, modified, infoType, permission).
 * - `time`: one pass with the shared per-entry work; answers its wall time, measured here so
 *   neither process start-up nor the harness's pipe is inside it.
 * - `memory`: one untimed pass that forces a full GC every 250 entries and then reads
 *   `Deno.memoryUsage().heapUsed`, so the peak is the live heap (the pages and entries still
 *   referenced), not garbage awaiting collection; answers it with the heap before the pass.
 *
 * ```sh
 * deno run -A --v8-flags=--expose-gc bench/_listing_worker.ts \
 *   --side tern --url http://127.0.0.1:PORT/terrain --path /iplant/home/shared/bench/listing
 * ```
 *
 * @module
 */

import { createHash } from "node:crypto";
import { parseArgs } from "node:util";
import { connect } from "../mod.ts";

/** Page size of both contenders. */
const PAGE = 1000;
const SIDES = ["tern", "plain"] as const;
type Side = typeof SIDES[number];

/**
 * What both contenders hand to the per-entry work: the fields of tern's `Entry`, so the plain
 * loop builds an object of the same shape (nine fields, two `Date`s) as tern does.
 */
interface Item {
  readonly id: string;
  readonly path: string;
  readonly name: string;
  readonly type: "file" | "folder";
  readonly size: number;
  readonly created: Date;
  readonly modified: Date;
  readonly infoType: string | null;
  readonly permission: string;
}

/** The fields of a Terrain listing item that the plain loop reads. */
interface RawItem {
  id: string;
  path: string;
  infoType: string | null;
  permission: string;
  "date-created": number;
  "date-modified": number;
  "file-size": number;
}

/** Iterates a folder's entries, calling `each` once per entry. */
type Pass = (each: (item: Item) => void) => Promise<void>;

/** The shared per-entry work of a timed pass: touch three fields of every entry. */
class Tally {
  entries = 0;
  bytes = 0;
  nameChars = 0;
  add = (item: Item): void => {
    this.entries++;
    this.bytes += item.size;
    this.nameChars += item.name.length;
  };
}

function ternPass(url: string, path: string, fetchFn?: typeof fetch): Pass {
  const store = connect({ url, anonymous: true, ...(fetchFn ? { fetch: fetchFn } : {}) });
  return async (each) => {
    for await (const entry of store.folder(path).list({ pageSize: PAGE })) each(entry);
  };
}

function plainPass(url: string, path: string, fetchFn: typeof fetch = fetch): Pass {
  const base = `${url.replace(/\/+$/, "")}/filesystem/paged-directory`;
  const toItem = (raw: RawItem, type: "file" | "folder"): Item => ({
    id: raw.id,
    path: raw.path,
    name: raw.path.slice(raw.path.lastIndexOf("/") + 1),
    type,
    size: type === "folder" ? 0 : raw["file-size"],
    created: new Date(raw["date-created"]),
    modified: new Date(raw["date-modified"]),
    infoType: type === "folder" ? null : raw.infoType,
    permission: raw.permission,
  });
  return async (each) => {
    let offset = 0;
    let total = 0;
    do {
      const query = new URLSearchParams({ path, limit: String(PAGE), offset: String(offset) });
      const response = await fetchFn(`${base}?${query}`);
      const text = await response.text();
      if (!response.ok) throw new Error(`HTTP ${response.status}: ${text.slice(0, 300)}`);
      const page = JSON.parse(text);
      for (const raw of page.folders) each(toItem(raw, "folder"));
      for (const raw of page.files) each(toItem(raw, "file"));
      total = page.total;
      offset += PAGE;
    } while (offset < total);
  };
}

function counting(): { fetch: typeof fetch; count: () => number } {
  let requests = 0;
  return {
    fetch: (input, init) => {
      requests++;
      return fetch(input, init);
    },
    count: () => requests,
  };
}

const sha256 = (lines: string[]) => createHash("sha256").update(lines.join("\n")).digest("hex");

async function verify(side: Side, url: string, path: string): Promise<Record<string, unknown>> {
  const counter = counting();
  const pass = side === "tern"
    ? ternPass(url, path, counter.fetch)
    : plainPass(url, path, counter.fetch);
  const items: Item[] = [];
  await pass((item) => items.push(item));
  const paths = items.map((item) => item.path).sort();
  const rows = [...items].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map(
    (i) =>
      [
        i.id,
        i.path,
        i.name,
        i.type,
        i.size,
        i.created.getTime(),
        i.modified.getTime(),
        i.infoType,
        i.permission,
      ].join("\t"),
  );
  return {
    entries: items.length,
    distinctPaths: new Set(paths).size,
    distinctIds: new Set(items.map((item) => item.id)).size,
    requests: counter.count(),
    pathsSha256: sha256(paths),
    entriesSha256: sha256(rows),
    first: paths[0] ?? null,
    last: paths.at(-1) ?? null,
  };
}

/** V8's full collection, exposed by `--v8-flags=--expose-gc`. */
const exposedGc = (globalThis as { gc?: () => void }).gc;
const collectGarbage = () => exposedGc?.();

async function time(pass: Pass): Promise<Record<string, unknown>> {
  collectGarbage();
  const tally = new Tally();
  const started = performance.now();
  await pass(tally.add);
  const seconds = (performance.now() - started) / 1000;
  return { seconds, entries: tally.entries, bytes: tally.bytes, nameChars: tally.nameChars };
}

async function memory(pass: Pass): Promise<Record<string, unknown>> {
  if (!exposedGc) throw new Error("memory needs --v8-flags=--expose-gc");
  collectGarbage();
  const before = Deno.memoryUsage().heapUsed;
  let peak = before;
  const tally = new Tally();
  await pass((item) => {
    tally.add(item);
    if (tally.entries % 250 === 0) {
      collectGarbage();
      peak = Math.max(peak, Deno.memoryUsage().heapUsed);
    }
  });
  return { heapBefore: before, heapPeak: peak, entries: tally.entries };
}

async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let pending = "";
  for await (const text of stream.pipeThrough(new TextDecoderStream())) {
    pending += text;
    let newline;
    while ((newline = pending.indexOf("\n")) >= 0) {
      yield pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
    }
  }
  if (pending.trim() !== "") yield pending.trim();
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: { side: { type: "string" }, url: { type: "string" }, path: { type: "string" } },
  });
  const side = values.side as Side;
  if (!SIDES.includes(side) || !values.url || !values.path) {
    console.error("usage: _listing_worker.ts --side tern|plain --url URL --path PATH");
    Deno.exit(2);
  }
  const { url, path } = values;
  const pass = side === "tern" ? ternPass(url, path) : plainPass(url, path);
  const reply = (value: unknown) => console.log(JSON.stringify(value));
  reply({ ready: true, gc: exposedGc !== undefined });
  for await (const command of lines(Deno.stdin.readable)) {
    try {
      if (command === "verify") reply(await verify(side, url, path));
      else if (command === "time") reply(await time(pass));
      else if (command === "memory") reply(await memory(pass));
      else if (command !== "") reply({ error: `unknown command ${JSON.stringify(command)}` });
    } catch (error) {
      reply({ error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    }
  }
}

if (import.meta.main) await main();
