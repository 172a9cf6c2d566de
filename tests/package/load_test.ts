/**
 * What `import "tern"` makes Deno load before anything is used (issue 30: a first read in a fresh
 * process). Every module in mod.ts's static graph is read, compiled and evaluated at import, so a
 * subtree only some calls need is imported inside those calls (`await import(...)`): workbooks,
 * lazy scans, reads of many files, walks, saving to disk, the response schemas (with the first
 * answer), and the server, the sample store and the command line (their own entry points).
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The part of `deno info --json` read here. */
interface ModuleInfo {
  specifier: string;
  dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
}

/**
 * The repository files (relative paths) in an entry's static graph: what Deno evaluates when the
 * entry is imported. `import type` and `import()` are not followed.
 */
async function loadedAtImport(entry: string): Promise<Set<string>> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    roots: string[];
    modules: ModuleInfo[];
  };
  const modules = new Map(info.modules.map((module) => [module.specifier, module]));
  const seen = new Set<string>();
  const pending = [...info.roots];
  while (pending.length > 0) {
    const specifier = pending.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dependency of modules.get(specifier)?.dependencies ?? []) {
      if (dependency.code !== undefined && dependency.isDynamic !== true) {
        pending.push(dependency.code.specifier);
      }
    }
  }
  const root = new URL("../../", import.meta.url).href;
  return new Set(
    [...seen].filter((url) => url.startsWith(root)).map((url) => url.slice(root.length)),
  );
}

/** Loaded by the calls that use them, never by `import "tern"`. */
const LOADED_ON_USE = [
  "lib/data/excel.ts",
  "lib/data/scan.ts",
  "lib/data/many.ts",
  "lib/listing/walk.ts",
  "lib/handles/destination.ts",
  "lib/client/schemas.ts",
  "lib/client/stat_answer.ts",
  "lib/client/parse_body.ts",
  "lib/client/fields.ts",
];

/** Folders mod.ts never reaches: they have entry points of their own. */
const NOT_TERN = ["lib/server/", "lib/sample/", "lib/cli/", "lib/entry/"];

Deno.test("importing mod.ts loads no subtree that only some calls use", async () => {
  const loaded = await loadedAtImport("mod.ts");
  // The graph was read: the read path itself is in it.
  for (const needed of ["lib/handles/connect.ts", "lib/data/read.ts", "lib/cache/cache.ts"]) {
    assert.ok(loaded.has(needed), `${needed} is missing from mod.ts's graph`);
  }
  assert.deepEqual(LOADED_ON_USE.filter((file) => loaded.has(file)), []);
  assert.deepEqual([...loaded].filter((file) => NOT_TERN.some((dir) => file.startsWith(dir))), []);
});
