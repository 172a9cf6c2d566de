/**
 * The examples' test modules (tests/doc_examples.ts) do what `deno test --doc` does: a fixture
 * file's examples, written as modules and run by `deno test`, pass or fail one by one, use the
 * file's exports without importing them, skip `ignore` and `sh` blocks, and are type-checked.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { exampleModules, extractExamples, writeExampleModules } from "./doc_examples.ts";

const FENCE = "`".repeat(3);

/** A JSDoc comment holding one fenced block. */
function block(language: string, lines: string[]): string[] {
  return [
    "/**",
    ` * ${FENCE}${language}`,
    ...lines.map((line) => ` * ${line}`),
    ` * ${FENCE}`,
    " */",
  ];
}

const FIXTURE = [
  ...block("ts", [
    'import { double } from "./fixture.ts";',
    'import assert from "node:assert/strict";',
    "assert.equal(double(2), 4);",
  ]),
  "export function double(n: number): number {",
  "  return 2 * n;",
  "}",
  // Uses the file's export without importing it, as `deno test --doc` allows.
  ...block("ts", ['import assert from "node:assert/strict";', "assert.equal(triple(2), 6);"]),
  "export const triple = (n: number): number => 3 * n;",
  // Fails: the run must say so, and the others still pass.
  ...block("ts", ['import assert from "node:assert/strict";', "assert.equal(double(2), 5);"]),
  ...block("ts ignore", ['throw new Error("an ignored block ran");']),
  ...block("sh", ["exit 1"]),
  // Binds `double` to another module: it cannot share the first module.
  ...block("ts", [
    'import { double } from "./other.ts";',
    'import assert from "node:assert/strict";',
    'assert.equal(double("a"), "aa");',
  ]),
].join("\n") + "\n";

const OTHER = "export const double = (text: string): string => text + text;\n";

Deno.test("a file's examples become modules that deno test runs, one test each", async () => {
  const root = await Deno.makeTempDir({ prefix: "tern-doc-examples-" });
  try {
    await Deno.mkdir(join(root, "lib"));
    await Deno.writeTextFile(join(root, "lib", "fixture.ts"), FIXTURE);
    await Deno.writeTextFile(join(root, "lib", "other.ts"), OTHER);
    const paths = await writeExampleModules(pathToFileURL(`${root}/`), ".examples", ["lib/"]);
    assert.deepEqual(paths, [
      ".examples/lib/examples_test.ts",
      ".examples/lib/examples_2_test.ts",
    ]);
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["test", "--no-config", "--allow-read", ...paths],
      cwd: root,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
    assert.equal(output.success, false, text);
    for (const line of [2, 12, 35]) {
      assert.match(text, new RegExp(`lib/fixture\\.ts:${line} example \\.\\.\\. ok`));
    }
    assert.match(text, /lib\/fixture\.ts:19 example \.\.\. FAILED/);
    assert.match(text, /FAILED \| 3 passed \| 1 failed/);
    assert.doesNotMatch(text, /an ignored block ran/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("an example that does not type-check fails the run before any test runs", async () => {
  const root = await Deno.makeTempDir({ prefix: "tern-doc-examples-" });
  try {
    await Deno.mkdir(join(root, "lib"));
    const source = [...block("ts", ['const n: number = double("a");']), OTHER].join("\n");
    await Deno.writeTextFile(join(root, "lib", "bad.ts"), source);
    const paths = await writeExampleModules(pathToFileURL(`${root}/`), ".examples", ["lib/"]);
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["test", "--no-config", ...paths],
      cwd: root,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(output.success, false);
    assert.match(new TextDecoder().decode(output.stderr), /TS2322/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a fence outside a JSDoc comment is no example; lines are numbered as deno test --doc does", () => {
  // Like `deno test --doc`, a leading `# ` (rustdoc's hidden line) is dropped.
  const source = [
    "// /** a line comment",
    `const text = " * ${FENCE}ts";`,
    ...block("ts", ["#private;", "const a = 1;"]),
  ].join("\n");
  const [only, ...none] = extractExamples("file:///r/x.ts", "x.ts", source);
  assert.deepEqual(none, []);
  assert.equal(only.line, 4);
  assert.equal(only.end, 8);
  assert.equal(only.body, "private;\nconst a = 1;");
  const modules = exampleModules("file:///r/", "e", "examples", [
    { file: "x.ts", source, examples: [only] },
  ]);
  assert.equal(modules.length, 1);
});
