/**
 * A recursive listing: the folder's entries, then each sub-folder's, breadth first, with a
 * bounded number of folders being fetched ahead of the one being read.
 *
 * @module
 */

import { statItems } from "../client/endpoints.ts";
import { NotFoundError, ProtocolError, quoteInput } from "../client/errors.ts";
import type { Transport } from "../client/transport.ts";
import { type Entry, entryFromStat } from "../client/entry.ts";
import { parentPath } from "../client/paths.ts";
import type { Glob, ResolvedWalkOptions } from "./options.ts";
import { type Page, pageFolder } from "./pager.ts";

interface Job {
  /** Folder path. */
  path: string;
  /** Its path relative to the walk's root (`""` for the root). */
  relative: string;
  /** Depth of its entries: 1 for the root's own entries. */
  depth: number;
}

interface Cursor {
  job: Job;
  pages: AsyncGenerator<Page, void, undefined>;
  first: Promise<IteratorResult<Page, void>>;
}

/**
 * What {@linkcode walkPages} needs besides the resolved options.
 *
 * @example
 * ```ts
 * import type { WalkContext } from "./walk.ts";
 *
 * const context: Omit<WalkContext, "transport"> = {
 *   root: "/iplant/home/shared",
 *   onChange: (message) => console.warn(message),
 * };
 * ```
 */
export interface WalkContext {
  /** The store's transport. */
  transport: Transport;
  /** The folder to walk. */
  root: string;
  /** Aborts every request of this walk. */
  signal?: AbortSignal;
  /** Told when a folder changes while being listed. */
  onChange: (message: string) => void;
}

/**
 * Yields the pages of a folder and its sub-folders, breadth first: the root's pages, then those
 * of each sub-folder in listing order, then the next level. Up to `concurrency` folders are in
 * progress at once (the one being read, and the next ones fetching their first page), so memory
 * stays bounded by a few pages per folder in progress plus the queue of folder paths still to
 * visit. Folders deeper than `maxDepth`, or where the glob cannot match, are not listed: a glob
 * with literal leading folders (`archive/2023/*.csv`) starts at them, with one stat instead of
 * listing every folder above (a folder of 20,000 files holding one `archive`). Entries are
 * filtered by kind and glob; each page keeps its folder's offset and total.
 *
 * @example
 * ```ts
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import { resolveWalkOptions } from "./options.ts";
 * import { walkPages } from "./walk.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const root = "/iplant/home/demo";
 * const context = { transport: store[STORE_CONTEXT].transport, root, onChange: console.warn };
 * const options = resolveWalkOptions({ glob: "**" + "/*.csv" }, 4);
 * const paths = [];
 * for await (const page of walkPages(context, options)) {
 *   for (const entry of page.entries) paths.push(entry.path);
 * }
 * assert.equal(paths.length, 4);
 * assert.ok(paths.includes("/iplant/home/demo/penguins_summary.csv"));
 * ```
 */
export async function* walkPages(
  context: WalkContext,
  options: ResolvedWalkOptions,
): AsyncGenerator<Page, void, undefined> {
  const { glob } = options;
  await glob?.ready();
  const maxDepth = Math.min(options.maxDepth, glob?.depth ?? Infinity);
  const queue: Job[] = [];
  const base = literalBase(glob, options);
  if (base === undefined) {
    queue.push({ path: context.root, relative: "", depth: 1 });
  } else {
    const depth = base.split("/").length;
    if (depth > maxDepth) return;
    const found = await statBase(context, base);
    if (found === undefined) return;
    const matches = glob!.matches(base) &&
      (options.type === undefined || found.type === options.type);
    yield { folder: parentPath(found.path), offset: 0, total: 1, entries: matches ? [found] : [] };
    if (found.type === "folder" && depth < maxDepth) {
      queue.push({ path: found.path, relative: base, depth: depth + 1 });
    }
  }
  const ahead: Cursor[] = [];
  let current: Cursor | undefined;

  const start = (job: Job): Cursor => {
    const pages = pageFolder(context.transport, { ...options, path: job.path }, {
      pageSize: options.pageSize,
      signal: context.signal,
      onChange: context.onChange,
    });
    const first = pages.next();
    // Errors of folders fetched ahead surface when the walk reaches them, in order.
    first.catch(() => {});
    return { job, pages, first };
  };
  const fill = () => {
    while (ahead.length < options.concurrency - 1 && queue.length > 0) {
      ahead.push(start(queue.shift()!));
    }
  };

  try {
    while (ahead.length > 0 || queue.length > 0) {
      current = ahead.shift() ?? start(queue.shift()!);
      fill();
      const { job } = current;
      let result = await current.first;
      while (!result.done) {
        const page = result.value;
        const entries: Entry[] = [];
        for (const entry of page.entries) {
          const relative = job.relative === "" ? entry.name : `${job.relative}/${entry.name}`;
          if (
            entry.type === "folder" && job.depth < maxDepth && mayHoldMatches(glob, relative)
          ) {
            checkSubFolder(job.path, entry);
            queue.push({ path: entry.path, relative, depth: job.depth + 1 });
          }
          if (options.type !== undefined && entry.type !== options.type) continue;
          if (glob !== undefined && !glob.matches(relative)) continue;
          entries.push(entry);
        }
        fill();
        yield { ...page, entries };
        result = await current.pages.next();
      }
      current = undefined;
    }
  } finally {
    // Stop folders fetched ahead; the caller's abort of the shared signal cancels their requests.
    for (const cursor of current === undefined ? ahead : [current, ...ahead]) {
      cursor.pages.return().catch(() => {});
    }
  }
}

/**
 * Refuses to follow a sub-folder that is not directly inside the folder listed: a server that
 * lists a folder inside itself (or its parent, as `..`) would otherwise make the walk endless.
 */
function checkSubFolder(folder: string, entry: Entry): void {
  const expected = `${folder === "/" ? "" : folder}/${entry.name}`;
  const why = entry.name === "" || entry.name === "." || entry.name === ".."
    ? `a sub-folder named ${quoteInput(entry.name)}`
    : entry.path !== expected
    ? `${quoteInput(entry.path)} as its sub-folder ${quoteInput(entry.name)}, which ` +
      `must be ${quoteInput(expected)}`
    : undefined;
  if (why !== undefined) {
    throw new ProtocolError(
      `filesystem/paged-directory listed ${why} in ${quoteInput(folder)}; the walk stops ` +
        "rather than follow it out of the folder.",
      { path: folder, endpoint: "filesystem/paged-directory" },
    );
  }
}

/**
 * The glob's leading literal folders when the walk may start there: plain names only (no escapes,
 * `.` or `..`), and no `infoType`, whose server-side filter a stat cannot apply.
 */
function literalBase(glob: Glob | undefined, options: ResolvedWalkOptions): string | undefined {
  if (glob === undefined || glob.base === "" || options.infoType !== undefined) return undefined;
  const segments = glob.base.split("/");
  const plain = segments.every((part) =>
    part !== "" && part !== "." && part !== ".." && !part.includes("\\")
  );
  return plain ? glob.base : undefined;
}

/** The entry at the glob's base, or undefined when there is none; checked to be that path. */
async function statBase(context: WalkContext, base: string): Promise<Entry | undefined> {
  const path = `${context.root === "/" ? "" : context.root}/${base}`;
  const answer = await statItems(context.transport, { paths: [path] }, { signal: context.signal })
    .catch((error) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
  const info = answer?.paths[path];
  if (info === undefined) return undefined;
  const entry = entryFromStat(info);
  if (entry.path !== path) {
    throw new ProtocolError(
      `filesystem/stat answered ${quoteInput(entry.path)} for ${quoteInput(path)}; the walk ` +
        "stops rather than follow it out of the folder.",
      { path, endpoint: "filesystem/stat" },
    );
  }
  return entry;
}

/** Whether the folder at `relative` can contain paths the glob matches. */
function mayHoldMatches(glob: Glob | undefined, relative: string): boolean {
  if (glob === undefined || glob.base === "") return true;
  return relative === glob.base || glob.base.startsWith(`${relative}/`) ||
    relative.startsWith(`${glob.base}/`);
}
