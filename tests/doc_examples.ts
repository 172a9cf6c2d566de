/**
 * The documentation examples as ordinary test modules: one module per source folder holding
 * every example of that folder's files, each example its own `Deno.test`.
 *
 * `deno test --doc` makes each example a module of its own, and each module runs in a fresh
 * worker that loads tern's module graph again: most of the examples' time went to that. This
 * generator does what `--doc` does to an example — takes the fenced `ts` (`js`, `tsx`, …) blocks
 * of every JSDoc comment, skips those marked `ignore` and other languages (`sh`), strips the
 * comment's `* ` and rustdoc's hidden-line `# `, hoists the imports, drops `export` from
 * declarations, wraps the rest in `Deno.test`, and imports the source file's exports that the
 * example uses without importing them — but puts all of one folder's examples in one module
 * (examples of one folder share an isolate, as tests of one file do, so an example that changes
 * a global puts it back). Imports
 * are deduplicated and their relative specifiers rewritten for the generated module's folder.
 * Examples whose imports disagree (one name, two sources) go to separate modules. `deno test`
 * type-checks the generated modules as it would the examples.
 *
 * @module
 */

/** One fenced example of a source file. */
export interface Example {
  /** The source file's path from the repository root, with `/` separators. */
  file: string;
  /** The line of the opening fence (1-based). */
  line: number;
  /** The line after the closing fence, as `deno test --doc` numbers the example's end. */
  end: number;
  /** The example's imports. */
  imports: Import[];
  /** The code left once imports are taken out, `export` dropped from declarations. */
  body: string;
}

/** One import statement of an example, its specifier resolved. */
export interface Import {
  /** The module imported: an absolute URL for a relative specifier, else the specifier. */
  source: string;
  /** `with { … }` attributes, verbatim, or "". */
  attributes: string;
  /** Names bound by the import (none for a side-effect import). */
  bindings: Binding[];
}

/** One local name an import binds. */
export interface Binding {
  /** The local name. */
  local: string;
  /** The exported name (`default`, or `*` for a namespace import). */
  imported: string;
  /** Whether only the type is imported (`import type`, `type x`). */
  typeOnly: boolean;
}

/** The languages `deno test --doc` runs, by a fence's first attribute. */
const LANGUAGES = new Set([
  "js",
  "javascript",
  "mjs",
  "cjs",
  "jsx",
  "ts",
  "typescript",
  "mts",
  "cts",
  "tsx",
]);

/**
 * The examples of one source file, in order, as `deno test --doc` takes them: fenced blocks in
 * `/**` comments, in a language it runs, not marked `ignore`.
 *
 * @example
 * ```ts
 * import { extractExamples } from "./doc_examples.ts";
 * import assert from "node:assert/strict";
 *
 * const fence = "`".repeat(3);
 * const source = [
 *   "/**",
 *   ` * ${fence}ts`,
 *   ' * import { double } from "./math.ts";',
 *   " * double(2);",
 *   ` * ${fence}`,
 *   ` * ${fence}sh`,
 *   " * echo not run",
 *   ` * ${fence}`,
 *   " *" + "/",
 *   "export function double(n: number): number { return 2 * n; }",
 * ].join("\n");
 * const [example, ...rest] = extractExamples("file:///repo/lib/math.ts", "lib/math.ts", source);
 * assert.equal(rest.length, 0);
 * assert.equal(example.line, 2);
 * assert.equal(example.body.trim(), "double(2);");
 * assert.deepEqual(example.imports, [{
 *   source: "file:///repo/lib/math.ts",
 *   attributes: "",
 *   bindings: [{ local: "double", imported: "double", typeOnly: false }],
 * }]);
 * ```
 */
export function extractExamples(url: string, file: string, source: string): Example[] {
  const examples: Example[] = [];
  // A JSDoc comment opens a line; the first `*/` closes it, as in the parser.
  for (const comment of source.matchAll(/^[ \t]*\/\*\*([\s\S]*?)\*\//gm)) {
    const text = `*${comment[1]}`;
    const opening = comment.index + comment[0].indexOf("/**");
    const commentLine = lineIndex(source, opening);
    for (const block of text.matchAll(/```(?<attributes>[^\r\n]*)\r?\n(?<body>[\s\S]*?)```/g)) {
      const attributes = block.groups!.attributes.split(" ");
      if (attributes.includes("ignore") || !LANGUAGES.has(attributes[0])) continue;
      const line = commentLine + lineIndex(text, block.index) + 1;
      const end = line + block[0].split("\n").length;
      const code = codeLines(block.groups!.body);
      const { imports, body } = hoistImports(code, url);
      examples.push({ file, line, end, imports, body });
    }
  }
  return examples;
}

/** The 0-based line of a character offset. */
function lineIndex(text: string, offset: number): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < offset; at = text.indexOf("\n", at + 1)) {
    count += 1;
  }
  return count;
}

/** A block's lines without the comment's `* ` (a line without `*` is dropped) or a `# `. */
function codeLines(body: string): string {
  const lines: string[] = [];
  for (const line of body.split(/\r?\n/)) {
    const star = line.indexOf("*");
    if (star === -1) continue;
    lines.push(line.slice(star + 1).replace(/^ /, "").replace(/^# ?/, ""));
  }
  return lines.join("\n");
}

/** Import statements at the start of a line, up to their specifier and attributes. */
const IMPORT = /^import\s[^"'`]*?(["'])([^"'\n]+)\1(\s*with\s*\{[^}]*\})?[ \t]*;?[ \t]*$/gm;

function hoistImports(code: string, base: string): { imports: Import[]; body: string } {
  const imports: Import[] = [];
  const body = code.replace(IMPORT, (statement, _quote, specifier, attributes = "") => {
    const clause = statement.slice("import".length, statement.lastIndexOf(" from ")).trim();
    const source = specifier.startsWith(".") ? new URL(specifier, base).href : specifier;
    const bindings = /^["']/.test(clause) ? [] : parseClause(clause);
    imports.push({ source, attributes: attributes.trim(), bindings });
    // Keep the line count, so the body's lines stay where they were.
    return "\n".repeat(statement.split("\n").length - 1);
  }).replace(
    /^export (?=(?:async |const |let |var |function|class |abstract |interface |type |enum ))/gm,
    "",
  );
  return { imports, body: body.replace(/^\s*\n/, "").trimEnd() };
}

/** The bindings of an import clause: `type X`, `X, { a, b as c, type d }`, `* as ns`. */
function parseClause(clause: string): Binding[] {
  let rest = clause;
  let typeOnly = false;
  if (/^type\s/.test(rest) && !/^type\s*(,|from\b)/.test(rest)) {
    typeOnly = true;
    rest = rest.slice(4).trim();
  }
  const bindings: Binding[] = [];
  const braces = rest.match(/\{([^}]*)\}/);
  if (braces !== null) {
    for (const part of braces[1].split(",").map((each) => each.trim()).filter(Boolean)) {
      const named = part.match(/^(type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?$/);
      if (named === null) throw new SyntaxError(`cannot read the import binding "${part}"`);
      bindings.push({
        local: named[3] ?? named[2],
        imported: named[2],
        typeOnly: typeOnly || named[1] !== undefined,
      });
    }
    rest = rest.replace(braces[0], "");
  }
  for (const part of rest.split(",").map((each) => each.trim()).filter(Boolean)) {
    const namespace = part.match(/^\*\s+as\s+([\w$]+)$/);
    if (namespace !== null) bindings.push({ local: namespace[1], imported: "*", typeOnly });
    else if (/^[\w$]+$/.test(part)) bindings.push({ local: part, imported: "default", typeOnly });
    else throw new SyntaxError(`cannot read the import clause "${clause}"`);
  }
  return bindings;
}

/**
 * The names a module exports by name (its own declarations and `export { … }` lists, re-exports
 * included; not `export *`), each with whether it is only a type: what `deno test --doc` imports
 * into each example that does not import the name itself.
 *
 * @example
 * ```ts
 * import { exportedNames } from "./doc_examples.ts";
 * import assert from "node:assert/strict";
 *
 * const names = exportedNames([
 *   "export async function read() {}",
 *   "export interface Options {}",
 *   "export { a, b as c, type D } from './x.ts';",
 *   "export * from './y.ts';",
 * ].join("\n"));
 * assert.deepEqual([...names], [["read", false], ["Options", true], ["a", false], ["c", false], ["D", true]]);
 * ```
 */
export function exportedNames(source: string): Map<string, boolean> {
  const names = new Map<string, boolean>();
  const add = (name: string, typeOnly: boolean) => {
    if (name === "default") return;
    names.set(name, (names.get(name) ?? true) && typeOnly);
  };
  const declaration =
    /^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(function\*?|class|const\s+enum|enum|const|let|var|interface|type|namespace)\s+([\w$]+)/gm;
  for (const match of source.matchAll(declaration)) {
    add(match[2], match[1] === "interface" || match[1] === "type");
  }
  for (const match of source.matchAll(/^export\s+(type\s+)?\{([^}]*)\}/gm)) {
    for (const part of match[2].split(",").map((each) => each.trim()).filter(Boolean)) {
      const named = part.match(/^(type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?$/);
      if (named !== null) {
        add(named[3] ?? named[2], match[1] !== undefined || named[1] !== undefined);
      }
    }
  }
  return names;
}

/** One generated test module. */
export interface Module {
  /** Its path from the repository root. */
  path: string;
  /** Its text. */
  text: string;
  /** How many examples it holds. */
  examples: number;
}

/** One source file and its examples. */
export interface SourceExamples {
  /** The file's path from the repository root. */
  file: string;
  /** Its text. */
  source: string;
  /** Its examples ({@linkcode extractExamples}). */
  examples: Example[];
}

/**
 * The test modules for the examples of some source files (one folder's): as few as the
 * examples' imports allow (normally one), to be written at `folder/<name>[_N]_test.ts` under
 * the repository root `root`. An example gets the exports of its own file that it mentions
 * without importing them, as `deno test --doc` gives it all of them.
 *
 * @example
 * ```ts
 * import { exampleModules, extractExamples } from "./doc_examples.ts";
 * import assert from "node:assert/strict";
 *
 * const fence = "`".repeat(3);
 * const block = (lines: string[]) =>
 *   ["/**", ` * ${fence}ts`, ...lines.map((line) => ` * ${line}`), ` * ${fence}`, " *" + "/"];
 * const source = [
 *   ...block(['import { a } from "./a.ts";', "a(one);"]),
 *   ...block(['import { a } from "./a.ts";', 'import assert from "node:assert/strict";', "assert.ok(a);"]),
 *   ...block(['import { a } from "./other.ts";', "a();"]),
 *   "export const one = 1;",
 *   "export const two = 2;",
 * ].join("\n");
 * const root = "file:///repo/";
 * const examples = extractExamples(`${root}lib/x.ts`, "lib/x.ts", source);
 * const modules = exampleModules(root, ".examples", "lib/examples", [{ file: "lib/x.ts", source, examples }]);
 * assert.deepEqual(modules.map((m) => [m.path, m.examples]), [
 *   [".examples/lib/examples_test.ts", 2],
 *   [".examples/lib/examples_2_test.ts", 1],
 * ]);
 * assert.match(modules[0].text, /^import \{ a \} from "\.\.\/\.\.\/lib\/a\.ts";$/m);
 * assert.match(modules[0].text, /^import \{ one \} from "\.\.\/\.\.\/lib\/x\.ts";$/m);
 * assert.match(modules[0].text, /^Deno\.test\("lib\/x\.ts:2 example", async \(\) => \{$/m);
 * assert.match(modules[0].text, /^Deno\.test\("lib\/x\.ts:8 example", async \(\) => \{$/m);
 * ```
 */
export function exampleModules(
  root: string,
  folder: string,
  name: string,
  files: SourceExamples[],
): Module[] {
  // First fit: an example joins the first group none of whose names it binds differently.
  const groups: { examples: Example[]; imports: Import[]; names: Map<string, string> }[] = [];
  for (const { file, source, examples } of files) {
    const base = new URL(file, root).href;
    const exported = exportedNames(source);
    for (const example of examples) {
      const names = new Map<string, string>();
      for (const { source, attributes, bindings } of example.imports) {
        for (const binding of bindings) {
          names.set(binding.local, `${source} ${attributes} ${binding.imported}`);
        }
      }
      // The file's own exports the example mentions (a word match: a mention in a string only
      // adds an unused import) and does not import itself.
      const own = [...exported].filter(([local]) =>
        !names.has(local) && new RegExp(`(?<![\\w$])${escape(local)}(?![\\w$])`).test(example.body)
      );
      for (const [local] of own) names.set(local, `${base}  ${local}`);
      const imports = own.length === 0 ? example.imports : [...example.imports, {
        source: base,
        attributes: "",
        bindings: own.map(([local, typeOnly]) => ({ local, imported: local, typeOnly })),
      }];
      const fits = (group: (typeof groups)[number]) =>
        [...names].every(([local, origin]) => (group.names.get(local) ?? origin) === origin);
      const group = groups.find(fits) ??
        groups[groups.push({ examples: [], imports: [], names: new Map() }) - 1];
      group.examples.push(example);
      group.imports.push(...imports);
      for (const [local, origin] of names) group.names.set(local, origin);
    }
  }
  return groups.map((group, index) => {
    const path = `${folder}/${name}${index === 0 ? "" : `_${index + 1}`}_test.ts`;
    const sources = [...new Set(group.examples.map((example) => example.file))];
    const lines = [
      `// Generated by tests/doc_examples.ts from the examples of ${sources.join(", ")};`,
      "// deleted after the run.",
      ...importStatements(group.imports, new URL(path, root)),
      "",
    ];
    for (const example of group.examples) {
      lines.push(
        `Deno.test(${JSON.stringify(`${example.file}:${example.line} example`)}, async () => {`,
        example.body,
        "});",
        "",
      );
    }
    return { path, text: lines.join("\n"), examples: group.examples.length };
  });
}

/** `text` with the characters special in a regular expression escaped. */
function escape(text: string): string {
  return text.replace(/[$]/g, "\\$&");
}

/** Deduplicated import statements, relative specifiers made relative to `here`. */
function importStatements(imports: Import[], here: URL): string[] {
  const bySource = new Map<string, { source: string; attributes: string; bindings: Binding[] }>();
  for (const { source, attributes, bindings } of imports) {
    const key = `${source} ${attributes}`;
    const entry = bySource.get(key) ?? { source, attributes, bindings: [] };
    bySource.set(key, entry);
    for (const binding of bindings) {
      const same = entry.bindings.find((each) => each.local === binding.local);
      if (same === undefined) entry.bindings.push({ ...binding });
      else same.typeOnly &&= binding.typeOnly;
    }
  }
  const statements: string[] = [];
  for (const { source, attributes, bindings } of bySource.values()) {
    const specifier = JSON.stringify(relativeSpecifier(source, here));
    const tail = `from ${specifier}${attributes === "" ? "" : ` ${attributes}`};`;
    if (bindings.length === 0) {
      statements.push(`import ${specifier}${attributes === "" ? "" : ` ${attributes}`};`);
    }
    for (const binding of bindings.filter((each) => each.imported === "*")) {
      statements.push(`import ${binding.typeOnly ? "type " : ""}* as ${binding.local} ${tail}`);
    }
    for (const binding of bindings.filter((each) => each.imported === "default")) {
      statements.push(`import ${binding.typeOnly ? "type " : ""}${binding.local} ${tail}`);
    }
    const named = bindings.filter((each) => each.imported !== "*" && each.imported !== "default");
    if (named.length > 0) {
      const list = named.map((each) =>
        `${each.typeOnly ? "type " : ""}${each.imported}${
          each.local === each.imported ? "" : ` as ${each.local}`
        }`
      );
      statements.push(`import { ${list.join(", ")} } ${tail}`);
    }
  }
  return statements;
}

/** A specifier for `source` from the module at `here`: relative if `source` is a file URL. */
function relativeSpecifier(source: string, here: URL): string {
  if (!source.startsWith("file:")) return source;
  const from = here.pathname.split("/").slice(0, -1);
  const to = new URL(source).pathname.split("/");
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common += 1;
  const up = from.length - common;
  return `${up === 0 ? "./" : "../".repeat(up)}${to.slice(common).join("/")}`;
}

/**
 * Writes the example modules of every `.ts` file under `paths` (files or folders, from the
 * repository root `root`) into `folder` there, one module per source folder (more when
 * imports disagree), and returns their paths from the root.
 *
 * @example
 * ```ts
 * import { writeExampleModules } from "./doc_examples.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * try {
 *   const fence = "`".repeat(3);
 *   await Deno.mkdir(`${root}/lib`);
 *   await Deno.writeTextFile(
 *     `${root}/lib/one.ts`,
 *     ["/**", ` * ${fence}ts`, " * one;", ` * ${fence}`, " *" + "/", "export const one = 1;"].join("\n"),
 *   );
 *   await Deno.writeTextFile(`${root}/lib/none.ts`, "export const two = 2;\n");
 *   const written = await writeExampleModules(new URL(`file://${root}/`), ".examples", ["lib/"]);
 *   assert.deepEqual(written, [".examples/lib/examples_test.ts"]);
 *   assert.match(await Deno.readTextFile(`${root}/${written[0]}`), /^import \{ one \} from "\.\.\/\.\.\/lib\/one\.ts";$/m);
 * } finally {
 *   await Deno.remove(root, { recursive: true });
 * }
 * ```
 */
export async function writeExampleModules(
  root: URL,
  folder: string,
  paths: string[],
): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) await collect(root, path.replace(/\/$/, ""), files);
  // One module per folder: each module is a worker loading tern's modules again.
  const byFolder = new Map<string, SourceExamples[]>();
  for (const file of files.sort()) {
    const source = await Deno.readTextFile(new URL(file, root));
    const examples = extractExamples(new URL(file, root).href, file, source);
    if (examples.length === 0) continue;
    const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
    byFolder.set(dir, [...byFolder.get(dir) ?? [], { file, source, examples }]);
  }
  const written: string[] = [];
  for (const [dir, sources] of byFolder) {
    for (const module of exampleModules(root.href, folder, `${dir}examples`, sources)) {
      const target = new URL(module.path, root);
      await Deno.mkdir(new URL(".", target), { recursive: true });
      await Deno.writeTextFile(target, module.text);
      written.push(module.path);
    }
  }
  return written;
}

/** The `.ts` files at `path` (a file or a folder, searched recursively). */
async function collect(root: URL, path: string, files: string[]): Promise<void> {
  const info = await Deno.stat(new URL(path, root));
  if (info.isFile) {
    if (/\.(ts|tsx|mts|js|jsx|mjs)$/.test(path)) files.push(path);
    return;
  }
  for await (const entry of Deno.readDir(new URL(`${path}/`, root))) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    await collect(root, `${path}/${entry.name}`, files);
  }
}
