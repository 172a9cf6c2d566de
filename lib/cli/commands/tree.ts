/**
 * `tern tree`: a folder tree, drawn depth first as it is listed. The next sub-folders' listings
 * are requested while the current one is drawn, so the tree streams at about the speed of a
 * concurrent walk. With `--glob`, the matches (found by the library's pruned walk) are drawn
 * under their folders once the walk ends; `--json` streams the walk's entries as they come.
 *
 * @module
 */

import { type Entry, type Store, TernError, type WalkOptions } from "../../../mod.ts";
import { asUsage, intOption, stringOption } from "../args.ts";
import { checkRef, type Command, type CommandContext, onlyArg } from "../command.ts";
import { entryJson, entryName, jsonLine, plural, safeText } from "../format.ts";
import { type Output, printPages } from "../io.ts";

/**
 * `tern tree [options] PATH`.
 *
 * @example
 * ```sh
 * tern tree --max-depth 2 /iplant/home/shared/commons_repo/curated
 * tern tree --glob '**' + '/*.parquet' /iplant/home/shared/commons_repo
 * ```
 */
export const tree: Command = {
  name: "tree",
  summary: "draw a folder tree (depth first, streaming)",
  usage: "[options] PATH",
  description: [
    "Draws PATH and everything under it. --max-depth 1 shows PATH's own entries.",
    "--glob matches paths relative to PATH ('**' crosses folders); the walk skips folders",
    "that cannot hold a match, and draws the matches once it is done. --json prints one",
    "object per entry as the walk finds them (breadth first), with its depth.",
  ].join("\n"),
  options: {
    "max-depth": { type: "string", value: "N", help: "levels to show (default: all)" },
    glob: { type: "string", value: "GLOB", help: "only entries matching GLOB, e.g. '**/*.csv'" },
    json: { type: "boolean", help: "one JSON object per entry and line, with its depth" },
  },
  examples: [
    "tern tree /iplant/home/shared/tern_samples",
    "tern tree --max-depth 1 /iplant/home/shared/commons_repo/curated",
    "tern tree --glob '**/*.parquet' /iplant/home/shared/commons_repo/curated",
    "tern tree --json /iplant/home/shared/commons_repo | jq -r 'select(.size > 1e6) | .path'",
  ],
  run,
};

/** Sub-folder listings opened ahead of the one being drawn, at most (besides the store's cap). */
const PREFETCH = 4;
/** Entries read ahead of the one being drawn, to find sub-folders to prefetch. */
const LOOKAHEAD = 16;

async function run(context: CommandContext): Promise<number> {
  const { values, positionals } = context.args;
  const maxDepth = intOption(values, "max-depth", 1) ?? Infinity;
  const glob = stringOption(values, "glob");
  const root = checkRef(onlyArg(positionals, "tree", "PATH"));
  // A glob's matches are drawn when the walk ends; until then the library's walk line shows.
  const store = await context.store({ progress: glob !== undefined && values.json !== true });
  const out = context.io.stdout;
  const walkOptions: WalkOptions = { glob, maxDepth };
  // Made before the stat, so that a bad glob is a usage error even for a missing folder.
  const walk = values.json === true || glob !== undefined
    ? asUsage(() => store.folder(root).walk(walkOptions))
    : undefined;
  const base = (await store.folder(root).stat()).path;
  if (values.json === true) {
    const line = (entry: Entry) =>
      jsonLine(entryJson(entry, { depth: depthUnder(base, entry.path) }));
    await printPages(walk!.pages(), out, line);
    return 0;
  }
  let counts: Counts;
  let failed = false;
  if (walk !== undefined) {
    const matches = await walk.toArray();
    out.line(out.style.folder(safeText(base)));
    counts = drawMatches(base, matches, out);
  } else {
    const drawer = new TreeDrawer(store, out, context, maxDepth);
    out.line(out.style.folder(safeText(base)));
    try {
      await drawer.draw(base, "", 1);
    } finally {
      await drawer.close();
    }
    counts = drawer.counts;
    failed = drawer.failed;
  }
  out.line();
  out.line(`${plural(counts.folders, "folder")}, ${plural(counts.files, "file")}`);
  await out.flush();
  return failed ? 1 : 0;
}

interface Counts {
  folders: number;
  files: number;
}

/** Levels below `base`: 1 for its own entries. */
function depthUnder(base: string, path: string): number {
  const relative = path.startsWith(`${base}/`) ? path.slice(base.length + 1) : path;
  return relative.split("/").length;
}

/** A listing whose first page was asked for ahead of time. */
interface Opened {
  iterator: AsyncIterator<Entry>;
  first: Promise<IteratorResult<Entry>>;
}

/** Draws a tree depth first, prefetching the listings of the sub-folders coming next. */
class TreeDrawer {
  readonly counts: Counts = { folders: 0, files: 0 };
  failed = false;
  readonly #opened = new Map<string, Opened>();

  constructor(
    private readonly store: Store,
    private readonly out: Output,
    private readonly context: CommandContext,
    private readonly maxDepth: number,
  ) {}

  /** Draws the entries of `path` (at `depth`) and, depth first, their sub-folders. */
  async draw(path: string, prefix: string, depth: number): Promise<void> {
    const { iterator, first } = this.#take(path);
    const ahead: Entry[] = [];
    let pending: Promise<IteratorResult<Entry>> | undefined = first;
    const fill = async () => {
      while (pending !== undefined && ahead.length < LOOKAHEAD) {
        const next: IteratorResult<Entry> = await pending;
        if (next.done) {
          pending = undefined;
          break;
        }
        ahead.push(next.value);
        if (next.value.type === "folder" && depth < this.maxDepth) this.#prefetch(next.value);
        pending = iterator.next();
      }
    };
    await fill();
    while (ahead.length > 0) {
      const entry = ahead.shift()!;
      if (ahead.length === 0) await fill();
      const last = ahead.length === 0;
      this.out.line(`${prefix}${last ? "└── " : "├── "}${entryName(entry, this.out.style)}`);
      if (entry.type === "folder") {
        this.counts.folders++;
        if (depth < this.maxDepth) {
          await this.out.flush();
          await this.#drawChild(entry.path, `${prefix}${last ? "    " : "│   "}`, depth + 1);
        }
      } else {
        this.counts.files++;
      }
      if (this.out.full) await this.out.flush();
    }
    await this.out.flush();
  }

  /** Closes listings opened ahead that were not drawn (after a failure or an interruption). */
  async close(): Promise<void> {
    const opened = [...this.#opened.values()];
    this.#opened.clear();
    await Promise.all(opened.map(async ({ iterator, first }) => {
      await first.catch(() => {});
      await iterator.return?.().catch(() => {});
    }));
  }

  async #drawChild(path: string, prefix: string, depth: number): Promise<void> {
    try {
      await this.draw(path, prefix, depth);
    } catch (error) {
      // A folder that cannot be read is marked in the tree and reported; the rest goes on.
      if (!(error instanceof TernError)) throw error;
      this.out.line(`${prefix}${this.out.style.error(`[${error.name}]`)}`);
      await this.out.flush();
      await this.context.report(error);
      this.failed = true;
    }
  }

  #take(path: string): Opened {
    const opened = this.#opened.get(path) ?? this.#open(path);
    this.#opened.delete(path);
    return opened;
  }

  #prefetch(entry: Entry): void {
    if (this.#opened.size >= PREFETCH || this.#opened.has(entry.path)) return;
    this.#opened.set(entry.path, this.#open(entry.path));
  }

  #open(path: string): Opened {
    const iterator = this.store.folder(path).list()[Symbol.asyncIterator]();
    const first = iterator.next();
    // A prefetch that fails is reported when (if) its folder is drawn.
    first.catch(() => {});
    return { iterator, first };
  }
}

interface Node {
  entry?: Entry;
  name: string;
  children: Map<string, Node>;
}

/** Draws the matches of a glob walk under their folders; returns what was drawn. */
function drawMatches(base: string, matches: readonly Entry[], out: Output): Counts {
  const top: Node = { name: base, children: new Map() };
  for (const entry of matches) {
    if (!entry.path.startsWith(`${base}/`)) continue;
    let node = top;
    for (const name of entry.path.slice(base.length + 1).split("/")) {
      node = node.children.getOrInsertComputed(name, () => ({ name, children: new Map() }));
    }
    node.entry = entry;
  }
  const counts: Counts = { folders: 0, files: 0 };
  const visit = (node: Node, prefix: string) => {
    const children = [...node.children.values()].sort(byKindThenName);
    children.forEach((child, index) => {
      const last = index === children.length - 1;
      const type = typeOf(child);
      counts[type === "folder" ? "folders" : "files"]++;
      const name = entryName({ name: child.name, path: child.name, type }, out.style);
      out.line(`${prefix}${last ? "└── " : "├── "}${name}`);
      visit(child, `${prefix}${last ? "    " : "│   "}`);
    });
  };
  visit(top, "");
  return counts;
}

/** A node no match names is a folder on the way to one. */
function typeOf(node: Node): Entry["type"] {
  return node.entry?.type ?? "folder";
}

function byKindThenName(a: Node, b: Node): number {
  if (typeOf(a) !== typeOf(b)) return typeOf(a) === "folder" ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
