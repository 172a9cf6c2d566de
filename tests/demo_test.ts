/**
 * `deno task demo` as a user runs it (a child process, in a scratch folder that receives its
 * report): it ends with status 0, and the tables it prints are typed and identify their rows.
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const DEMO = fileURLToPath(new URL("../demo.ts", import.meta.url));
const CONFIG = fileURLToPath(new URL("../deno.json", import.meta.url));

/** The printed table that follows the line showing `code`: its header, types and rows. */
function tableAfter(output: string, code: string): string[] {
  const lines = output.split("\n");
  const start = lines.findIndex((line) => line.startsWith("> ") && line.includes(code));
  assert.ok(start >= 0, `the demo shows ${code}`);
  const end = lines.findIndex((line, index) => index > start && line.startsWith("> "));
  return lines.slice(start + 2, end).map((line) => line.trim());
}

Deno.test("the demo runs to the end; sizes and years are integers, and the catalog names each row's path", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tern-demo-" });
  try {
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--config", CONFIG, DEMO],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(run.stdout);
    assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
    assert.ok((await Deno.stat(`${dir}/demo-output/report.html`)).isFile);

    const [names, types] = tableAfter(stdout, ".take(5)");
    assert.deepEqual(names.split(/\s+/), ["name", "size", "modified"]);
    assert.equal(types.split(/\s+/)[1], "i64");

    const records = tableAfter(stdout, "for five datasets");
    assert.equal(records[1].split(/\s+/)[records[0].split(/\s+/).indexOf("year")], "i32");

    const catalog = tableAfter(stdout, ".catalog()");
    assert.equal(catalog[0].split(/\s+/)[0], "path");
    // The dataset without metadata has nulls everywhere but its path.
    const bare = catalog.find((row) => /^\/iplant\/\S*_2017\s+null\s+null/.test(row));
    assert.ok(bare !== undefined, catalog.join("\n"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
