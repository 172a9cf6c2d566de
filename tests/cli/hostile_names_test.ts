import assert from "node:assert/strict";
import { writeTree } from "../_store.ts";
import { lines, startCli } from "./_cli.ts";

const FOLDER = "/iplant/home/shared/hostile";
/** A name that would colour the terminal red, and one a spreadsheet would run as a formula. */
const RED = "evil\x1b[31mred.csv";
const FORMULA = '=HYPERLINK("x.example";"y"),@1.csv';
/** A name with the one-character CSI (C1, clears the screen) and a right-to-left override. */
const C1 = "c1\u009b2J\u202ecsv.exe";

// `tern ls` has its own test (ls_test.ts); these are the other human outputs that print what
// the store's users wrote (names, metadata), and the CSV outputs, which keep it exactly.
Deno.test("tern: hostile names and metadata cannot drive the terminal; CSV keeps cells exact", async (t) => {
  const root = await Deno.makeTempDir({ prefix: "tern-cli-hostile-" });
  try {
    const shared = "iplant/home/shared/hostile";
    await writeTree(root, {
      [`${shared}/${RED}`]: "a\n1\n",
      [`${shared}/${FORMULA}`]: "x,y\n=1+1,@SUM(A1)\n-2,+3\n",
      [`${shared}/evil\nline.txt`]: "two lines in one name\n",
      [`${shared}/${C1}`]: "a\n1\n",
      [`${shared}/.avus.json`]: JSON.stringify([
        { attr: "title", value: "Data \x1b]0;owned\x07set \x1b[2J", unit: "" },
        { attr: "creator", value: "Mal \x1b[31mory", unit: "" },
      ]),
    });
    await using cli = await startCli({ root });

    await t.step("tree, stat, meta and errors escape control characters", async () => {
      const runs = await Promise.all([
        cli.run(["tree", FOLDER]),
        cli.run(["stat", `${FOLDER}/${RED}`]),
        cli.run(["meta", FOLDER]),
        cli.run(["meta", "--raw", FOLDER]),
        cli.run(["stat", `${FOLDER}/${RED}x`]),
      ]);
      for (const run of runs) {
        assert.ok(!run.stdout.includes("\x1b") && !run.stderr.includes("\x1b"), run.stdout);
      }
      const [tree, stat, , raw, missing] = runs;
      assert.ok(tree.stdout.includes("evil\\x1b[31mred.csv"), tree.stdout);
      assert.match(stat.stdout, /^path +\/iplant\/home\/shared\/hostile\/evil\\x1b\[31mred\.csv$/m);
      assert.match(raw.stdout, /title = Data \\x1b\]0;owned\\x07set \\x1b\[2J/);
      assert.equal(missing.code, 1);
    });

    await t.step(
      "search's paths, piped, are one a line with control characters escaped",
      async () => {
        const args = ["search", "--under", `${FOLDER}/`, "--name", "evil*", "--sort", "name"];
        const run = await cli.run(args);
        assert.equal(run.code, 0, run.stderr);
        assert.deepEqual(lines(run), [
          `${FOLDER}/evil\\nline.txt`,
          `${FOLDER}/evil\\x1b[31mred.csv`,
        ]);
      },
    );

    await t.step(
      "JSON output writes C1 controls and bidirectional overrides as \\u escapes",
      async () => {
        const runs = await Promise.all([
          cli.run(["ls", "--json", FOLDER]),
          cli.run(["stat", "--json", `${FOLDER}/${C1}`]),
          cli.run(["meta", "--raw", "--json", FOLDER]),
          cli.run(["croissant", FOLDER]),
        ]);
        for (const run of runs) {
          assert.equal(run.code, 0, run.stderr);
          assert.doesNotMatch(run.stdout, /[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/, run.stdout);
        }
        const [ls, stat, meta] = runs;
        assert.ok(lines(ls).map((line) => JSON.parse(line).name).includes(C1), ls.stdout);
        assert.equal(JSON.parse(stat.stdout).name, C1);
        assert.ok(stat.stdout.includes("c1\\u009b2J\\u202ecsv.exe"), stat.stdout);
        assert.equal(JSON.parse(meta.stdout).avus[0].value, "Data \x1b]0;owned\x07set \x1b[2J");
      },
    );

    await t.step("search --csv and head --csv keep formula-like cells as they are", async () => {
      const [search, head] = await Promise.all([
        cli.run(["search", "--under", `${FOLDER}/`, "--name", "HYPERLINK", "--csv"]),
        cli.run(["head", "--csv", `${FOLDER}/${FORMULA}`]),
      ]);
      assert.equal(search.code, 0, search.stderr);
      const [, row] = lines(search);
      const quoted = `"${FORMULA.replaceAll('"', '""')}"`;
      assert.ok(
        row.startsWith(`"${FOLDER}/${FORMULA.replaceAll('"', '""')}",${quoted},file,`),
        row,
      );
      assert.deepEqual(lines(head), ["x,y", "=1+1,@SUM(A1)", "-2,+3"]);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
