/**
 * The folder graph of `lib/` against the table in docs/architecture.md: the table is read from
 * the document itself, so the rule and its check cannot drift apart.
 */

import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const LIB = join(ROOT, "lib");

/** `folder → folders it may import`, from the table's first two columns. */
async function allowedImports(): Promise<Map<string, Set<string>>> {
  const doc = await Deno.readTextFile(join(ROOT, "docs/architecture.md"));
  const table = new Map<string, Set<string>>();
  for (const line of doc.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    const folder = /^`([^`]+)`$/.exec(cells[1] ?? "")?.[1];
    if (folder === undefined) continue;
    const allowed = [...(cells[2] ?? "").matchAll(/`([^`]+)`/g)].map((match) => match[1]);
    table.set(folder, new Set(allowed));
  }
  return table;
}

/** The specifiers a module imports: static, `export … from`, side-effect and `import("…")`. */
export function importsOf(source: string): string[] {
  // JSDoc blocks hold examples that import freely; they are not the module's imports.
  const code = source.replace(/\/\*\*[\s\S]*?\*\//g, "");
  const specifiers: string[] = [];
  const patterns = [
    /\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*[,)]/g,
  ];
  for (const pattern of patterns) {
    for (const match of code.matchAll(pattern)) specifiers.push(match[1]);
  }
  return specifiers;
}

/**
 * The node a file belongs to: its folder under lib/ (first segment), a file directly in lib/ by
 * name (`deps.ts`), and the entry files at the repository's root by name (`mod.ts`).
 */
function folderOf(file: string): string {
  const inLib = relative(LIB, file);
  return inLib.startsWith("..") ? relative(ROOT, file) : inLib.split(/[\\/]/)[0];
}

/** Every file of lib/, and the root entry files the table lists (`mod.ts`, `cli.ts`, …). */
async function checkedFiles(table: ReadonlyMap<string, unknown>): Promise<string[]> {
  const roots = [...table.keys()].filter((name) => name.endsWith(".ts") && name !== "deps.ts");
  return [...await sources(LIB), ...roots.map((name) => join(ROOT, name))];
}

async function sources(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...await sources(path));
    else if (entry.name.endsWith(".ts")) files.push(path);
  }
  return files;
}

/** Every cross-folder import: `from → to → ["lib/a/x.ts -> lib/b/y.ts", …]`. */
async function folderGraph(
  files: readonly string[],
): Promise<Map<string, Map<string, string[]>>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of files) {
    const from = folderOf(file);
    for (const specifier of importsOf(await Deno.readTextFile(file))) {
      if (!specifier.startsWith(".")) continue;
      const target = resolve(dirname(file), specifier);
      const to = folderOf(target);
      if (to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      graph.set(from, edges);
      const why = edges.get(to) ?? [];
      edges.set(to, why);
      why.push(`${relative(ROOT, file)} -> ${relative(ROOT, target)}`);
    }
  }
  return graph;
}

/** The folders on some cycle, as strongly connected components of more than one folder. */
function cycles(graph: ReadonlyMap<string, Iterable<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        component.push(member);
      } while (member !== node);
      const selfImport = (graph.get(node) ? [...graph.get(node)!] : []).includes(node);
      if (component.length > 1 || selfImport) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** Every import from one file of lib/ to another: `lib/a/x.ts → ["lib/b/y.ts", …]`. */
async function fileGraph(): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const file of await sources(LIB)) {
    const targets = importsOf(await Deno.readTextFile(file))
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => resolve(dirname(file), specifier))
      .filter((target) => !relative(LIB, target).startsWith(".."));
    graph.set(libPath(file), targets.map(libPath));
  }
  return graph;
}

function libPath(file: string): string {
  return relative(ROOT, file).replaceAll("\\", "/");
}

/**
 * The imports that run back up inside a folder: a file importing the `mod.ts` of its own folder
 * or of a folder above it. A `mod.ts` is the folder's face to the outside; inside, files import
 * the file that holds what they need. A folder's `main.ts` (its command line, run by a task) sits
 * on top of the folder like the root entry files, so it may import the folder's `mod.ts`.
 */
function backwardImports(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const index = target.endsWith("/mod.ts") ? target.slice(0, -"mod.ts".length) : undefined;
      const inside = index !== undefined && file !== target && file.startsWith(index);
      if (inside && file !== `${index}main.ts`) {
        found.push(`${file} -> ${target}`);
      }
    }
  }
  return found;
}

Deno.test("the import parser sees static, re-exported, side-effect and dynamic imports, not examples", () => {
  const source = [
    "/**",
    " * ```ts",
    ' * import { x } from "../example/only.ts";',
    " * ```",
    " */",
    'import type { A } from "../client/a.ts";',
    "import {\n  b,\n} from './b.ts';",
    'export { c } from "../display/c.ts";',
    'import "../handles/side_effect.ts";',
    'const d = await import("../data/d.ts");',
    'const e = await import("../cache/e.ts", { with: {} });',
  ].join("\n");
  assert.deepEqual(importsOf(source).sort(), [
    "../cache/e.ts",
    "../client/a.ts",
    "../data/d.ts",
    "../display/c.ts",
    "../handles/side_effect.ts",
    "./b.ts",
  ]);
});

Deno.test("docs/architecture.md's table is itself one-way and names every folder of lib/", async () => {
  const table = await allowedImports();
  assert.deepEqual(cycles(table), []);
  const folders = new Set((await checkedFiles(table)).map(folderOf));
  const missing = [...folders].filter((folder) => !table.has(folder));
  assert.deepEqual(missing, [], "folders of lib/ the table does not mention");
  for (const [folder, allowed] of table) {
    for (const target of allowed) {
      assert.ok(table.has(target), `${folder} may import ${target}, which the table does not list`);
    }
  }
});

Deno.test("lib/ has no folder cycle and no import the table in docs/architecture.md forbids", async () => {
  const table = await allowedImports();
  const graph = await folderGraph(await checkedFiles(table));
  const loops = cycles(new Map([...graph].map(([from, edges]) => [from, edges.keys()])));
  assert.deepEqual(loops, [], `folder cycles: ${JSON.stringify(loops)}`);
  const forbidden: string[] = [];
  for (const [from, edges] of graph) {
    for (const [to, why] of edges) {
      if (!(table.get(from)?.has(to) ?? false)) {
        forbidden.push(`${from} may not import ${to}: ${why.join("; ")}`);
      }
    }
  }
  assert.deepEqual(forbidden, [], "imports docs/architecture.md does not allow");
});

/**
 * Module-level state that can change, by name: top-level `let`/`var`, and a top-level `Map`,
 * `Set`, `WeakMap` or `WeakSet` unless typed `ReadonlyMap`/`ReadonlySet` (a constant table).
 * Top level is column 0, as `deno fmt` indents everything nested.
 */
export function moduleState(source: string): string[] {
  const names: string[] = [];
  for (const match of source.matchAll(/^(?:export\s+)?(?:let|var)\s+([A-Za-z_$][\w$]*)/gm)) {
    names.push(match[1]);
  }
  const collections =
    /^(?:export\s+)?const\s+([A-Za-z_$][\w$]*)\s*(?::\s*([^=]+?))?\s*=\s*new\s+(?:Weak)?(?:Map|Set)\b/gm;
  for (const match of source.matchAll(collections)) {
    if (!(match[2] ?? "").trim().startsWith("Readonly")) names.push(match[1]);
  }
  return names;
}

/**
 * Where lib/ may keep module-level state that can change, and why; everywhere else state that
 * changes belongs to an object (a store, a server). A name listed here that is no longer there
 * fails too, so the list only shrinks with the code.
 */
const MODULE_STATE_ALLOWED: Record<string, { names: string[]; why: string }> = {
  "lib/polars/adapter.ts": {
    names: ["loading", "loaded", "factory", "hook"],
    why:
      "the Polars adapter: Polars loaded once per process, and the frame hook (docs/architecture.md)",
  },
  "lib/cache/content_hash.ts": {
    names: ["xxhash"],
    why: "a lazily built immutable singleton (the XXH64 WebAssembly)",
  },
  "lib/client/errors.ts": {
    names: ["graphemes"],
    why: "a lazily built immutable singleton (a grapheme segmenter)",
  },
  "lib/reproduce/lock.ts": {
    names: ["lockSchemaMemo"],
    why: "a lazily built immutable singleton (the lock file's schema)",
  },
  "lib/client/search_query.ts": {
    names: ["clauseArgsMemo"],
    why: "a lazily built immutable singleton (the search clauses' schemas)",
  },
  "lib/client/saved_search.ts": {
    names: ["savedSearchMemo"],
    why: "a lazily built immutable singleton (the saved search template's schema)",
  },
  "lib/metadata/citejs.ts": {
    names: ["loading"],
    why: "a lazily built immutable singleton (citation-js, loaded once)",
  },
  "lib/metadata/license.ts": {
    names: ["loading"],
    why: "a lazily built immutable singleton (spdx-correct, loaded once)",
  },
};

Deno.test("the module-state finder sees top-level let, var and mutable collections, not constant tables", () => {
  const source = [
    "let loading: Promise<X> | undefined;",
    "export let mode = 1;",
    "var old = 0;",
    "const cache = new Map<string, string>();",
    "const seen = new WeakMap<object, number>();",
    "export const names = new Set([1]);",
    "const TABLE: ReadonlyMap<string, number> = new Map([['a', 1]]);",
    "const WORDS: ReadonlySet<string> = new Set(['a']);",
    "const encoder = new TextEncoder();",
    "function f() {",
    "  let inside = 1;",
    "  const local = new Map();",
    "}",
  ].join("\n");
  assert.deepEqual(moduleState(source).sort(), [
    "cache",
    "loading",
    "mode",
    "names",
    "old",
    "seen",
  ]);
});

Deno.test("lib/ keeps no module-level mutable state outside the adapter and the allowed singletons", async () => {
  const found: string[] = [];
  const stale: string[] = [];
  for (const file of (await sources(LIB)).sort()) {
    const path = relative(ROOT, file).replaceAll("\\", "/");
    const names = moduleState(await Deno.readTextFile(file));
    const allowed = MODULE_STATE_ALLOWED[path]?.names ?? [];
    found.push(
      ...names.filter((name) => !allowed.includes(name)).map((name) => `${path}: ${name}`),
    );
    stale.push(
      ...allowed.filter((name) => !names.includes(name)).map((name) => `${path}: ${name}`),
    );
  }
  assert.deepEqual(
    found,
    [],
    "module-level state that changes: give it to an object (the store, the server), or make a " +
      "constant table Readonly",
  );
  assert.deepEqual(stale, [], "MODULE_STATE_ALLOWED names state that is gone: take it off");
});

Deno.test("the cycle finder reports each circle once, a file importing itself included, and not a chain", () => {
  const graph = new Map([
    ["a.ts", ["b.ts"]],
    ["b.ts", ["c.ts"]],
    ["c.ts", ["a.ts", "d.ts"]],
    ["d.ts", ["e.ts"]],
    ["e.ts", []],
    ["f.ts", ["f.ts"]],
  ]);
  assert.deepEqual(cycles(graph), [["a.ts", "b.ts", "c.ts"], ["f.ts"]]);
});

Deno.test("lib/ has no file-level import cycle, `import type` and re-exports included", async () => {
  const loops = cycles(await fileGraph());
  assert.deepEqual(loops, [], "files that import each other, directly or around a circle");
});

Deno.test("the backward-import finder sees a file importing its own folder's or a parent's mod.ts, not main.ts", () => {
  const graph = new Map([
    ["lib/server/router.ts", ["lib/server/mod.ts", "lib/server/options.ts"]],
    ["lib/server/handlers/files.ts", ["lib/server/mod.ts"]],
    ["lib/server/mod.ts", ["lib/server/http.ts"]],
    ["lib/server/main.ts", ["lib/server/mod.ts"]],
    ["lib/cli/main.ts", ["lib/cli/commands/mod.ts", "lib/data/mod.ts"]],
  ]);
  assert.deepEqual(backwardImports(graph), [
    "lib/server/router.ts -> lib/server/mod.ts",
    "lib/server/handlers/files.ts -> lib/server/mod.ts",
  ]);
});

Deno.test("no file of lib/ imports its own folder's mod.ts or a parent folder's", async () => {
  assert.deepEqual(backwardImports(await fileGraph()), [], "imports that run back up a folder");
});
