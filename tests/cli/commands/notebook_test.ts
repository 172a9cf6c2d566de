/**
 * `tern notebook` on notebooks of its own making (every notebook in notebooks/ runs through it
 * in tests/notebooks/notebooks_test.ts): no output lost, failing cells named with exit 1, the
 * output written whole, usage errors, and a clear error naming the missing package where
 * Python lacks Jupyter.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { findJupyter, joined, writeNotebook } from "../../../notebooks/jupyter.ts";
import { runNotebook } from "../../../lib/cli/notebook_runner.ts";
import { assertUsage, startCli } from "../_cli.ts";

const jupyter = await findJupyter();
if ("missing" in jupyter) console.warn(`tern notebook runs skipped: ${jupyter.missing}`);

interface Output {
  output_type: string;
  text?: string | string[];
  data?: Record<string, unknown>;
  ename?: string;
}

async function outputsOf(path: string): Promise<Output[][]> {
  const notebook = JSON.parse(await Deno.readTextFile(path)) as {
    cells: { outputs: Output[] }[];
  };
  return notebook.cells.map((cell) => cell.outputs);
}

Deno.test({
  name: "tern notebook: every output of every cell, failures named, the file written whole",
  ignore: "missing" in jupyter,
  async fn(t) {
    if (!("python" in jupyter)) return;
    await using cli = await startCli();
    const python = ["--python", jupyter.python];

    await t.step(
      "a printed line, a display and a result from each of 40 cells (plain nbconvert loses some)",
      async () => {
        const source = join(cli.dir, "outputs.ipynb");
        // Each cell's result is published last, which is what the kernel sends after idle.
        await writeNotebook(
          source,
          Array.from({ length: 40 }, (_, index) =>
            `console.log("line ${index}");\n` +
            `await Deno.jupyter.display({ "text/plain": "shown ${index}" }, { raw: true });\n` +
            `"result ${index}";`),
        );
        const target = join(cli.dir, "outputs.out.ipynb");
        const run = await cli.run(["notebook", source, "--output", target, ...python]);
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stderr, /^ran 40 cells in [\d.]+ s → .*outputs\.out\.ipynb$/m);
        const outputs = await outputsOf(target);
        outputs.forEach((cell, index) => {
          assert.deepEqual(
            cell.map((output) => output.output_type),
            ["stream", "display_data", "execute_result"],
            `cell ${index + 1}`,
          );
          assert.equal(joined(cell[2].data?.["text/plain"]), `"result ${index}"`);
        });
      },
    );

    await t.step("a failing cell: the rest still run, exit 1 naming it", async () => {
      const source = join(cli.dir, "fails.ipynb");
      await writeNotebook(source, [
        "const answer = 6 * 7;",
        'throw new TypeError("boom");',
        "answer;",
      ]);
      const run = await cli.run(["notebook", source, ...python]);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /^error: cell 2: TypeError: boom$/m);
      // Without --output: IN.executed.ipynb beside IN.
      const outputs = await outputsOf(join(cli.dir, "fails.executed.ipynb"));
      assert.equal(outputs[1][0].ename, "TypeError");
      assert.equal(joined(outputs[2][0].data?.["text/plain"]), "42");
    });

    await t.step("--html writes the page beside IN.executed.ipynb, as the help says", async () => {
      if (!jupyter.nbconvert) return;
      const work = await Deno.makeTempDir({ dir: cli.dir });
      const source = join(work, "page.ipynb");
      await writeNotebook(source, ['Deno.jupyter.html`<b class="mark">bold</b>`;']);
      const run = await cli.run(["notebook", source, "--html", join(work, "page.html"), ...python]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(await Deno.readTextFile(join(work, "page.html")), /<b class="mark">bold<\/b>/);
      assert.deepEqual([...Deno.readDirSync(work)].map((entry) => entry.name).sort(), [
        "page.executed.ipynb",
        "page.html",
        "page.ipynb",
      ]);
      assert.match(run.stderr, /→ .*page\.executed\.ipynb, .*page\.html$/m);
      const [[shown]] = await outputsOf(join(work, "page.executed.ipynb"));
      assert.match(joined(shown.data?.["text/html"]), /<b class="mark">bold<\/b>/);
    });

    await t.step("a kernel that dies at start is started again, at most three times", async () => {
      // jupyter_client picks the kernel's ports by binding and releasing them: another process
      // can take one first, and the kernel dies before it answers. Here a kernel dies on purpose
      // for its first `deaths` starts, counted in a file, then runs as the Deno kernel.
      const kernelspec = async (name: string, deaths: number) => {
        const dir = join(cli.dir, name);
        await Deno.mkdir(join(dir, "kernels", name), { recursive: true });
        const starts = join(dir, "starts");
        const script = join(dir, "kernel.sh");
        await Deno.writeTextFile(
          script,
          `echo x >> "${starts}"\n` +
            `[ "$(wc -l < "${starts}")" -le ${deaths} ] && exit 1\n` +
            `exec "${Deno.execPath()}" jupyter --kernel --conn "$1"\n`,
        );
        await Deno.writeTextFile(
          join(dir, "kernels", name, "kernel.json"),
          JSON.stringify({
            argv: ["sh", script, "{connection_file}"],
            display_name: "Deno",
            language: "typescript",
            interrupt_mode: "message",
            env: { NO_COLOR: "1" },
          }),
        );
        const env = { ...Deno.env.toObject(), JUPYTER_PATH: dir };
        const count = async () => (await Deno.readTextFile(starts)).trim().split("\n").length;
        return { env, count };
      };
      const source = join(cli.dir, "starts.ipynb");
      await writeNotebook(source, ["6 * 7;"]);

      const once = await kernelspec("dies-once", 1);
      const run = await runNotebook(source, {
        python: jupyter.python,
        kernel: "dies-once",
        env: once.env,
        output: join(cli.dir, "starts.out.ipynb"),
      });
      assert.deepEqual(run.errors, []);
      assert.equal(
        joined((await outputsOf(join(cli.dir, "starts.out.ipynb")))[0][0].data?.["text/plain"]),
        "42",
      );
      assert.equal(await once.count(), 2);

      const always = await kernelspec("dies-always", 99);
      await assert.rejects(
        runNotebook(source, { python: jupyter.python, kernel: "dies-always", env: always.env }),
        /Kernel died before replying to kernel_info/,
      );
      assert.equal(await always.count(), 3);
    });

    await t.step("a file that is not a notebook: exit 1, and nothing written", async () => {
      const source = join(cli.dir, "broken.ipynb");
      await Deno.writeTextFile(source, "{ not json");
      const target = join(cli.dir, "broken.out.ipynb");
      const run = await cli.run(["notebook", source, "-o", target, ...python]);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /^error: NotebookRunError: Running ".*broken\.ipynb" failed: /m);
      assert.equal(await Deno.stat(target).then(() => true, () => false), false);
      assert.deepEqual(
        [...Deno.readDirSync(cli.dir)].filter((entry) => entry.name.endsWith(".tern-partial")),
        [],
      );
    });
  },
});

Deno.test("tern notebook: where Python lacks Jupyter, the error names the packages", async (t) => {
  await using cli = await startCli();
  const source = join(cli.dir, "any.ipynb");
  await writeNotebook(source, ["1 + 1;"]);

  await t.step("a Python without Jupyter's packages", async (t) => {
    const real = ["/usr/bin/python3", "/usr/local/bin/python3"].find((path) => {
      try {
        return Deno.statSync(path).isFile;
      } catch {
        return false;
      }
    });
    if (real === undefined) {
      t.step({ name: "skipped: no python3 to strip of its packages", ignore: true, fn() {} });
      return;
    }
    // The same Python without its site packages (-S), where Jupyter's live.
    const bare = join(cli.dir, "bare-python");
    await Deno.writeTextFile(bare, `#!/bin/sh\nexec ${real} -I -S "$@"\n`);
    await Deno.chmod(bare, 0o755);
    const run = await cli.run([
      "notebook",
      source,
      "--html",
      join(cli.dir, "x.html"),
      "--python",
      bare,
    ]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stderr,
      /^error: JupyterMissingError: Running a notebook needs the Python packages nbclient, nbformat, jupyter_client, nbconvert, missing from .*bare-python\. Install with: apt-get install python3-nbclient python3-nbformat jupyter-client jupyter-nbconvert \(Debian, Ubuntu\), or .*bare-python -m pip install nbclient nbformat jupyter-client nbconvert\.$/m,
    );
  });

  await t.step("no Python at all", async () => {
    const run = await cli.run(["notebook", source, "--python", join(cli.dir, "no-python")]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /^error: JupyterMissingError: .*there is no Python at ".*no-python"/m);
  });

  await t.step("usage errors: no notebook, not a notebook", async () => {
    assertUsage(await cli.run(["notebook"]), /missing IN\.ipynb/);
    assertUsage(await cli.run(["notebook", "analysis.py"]), /"analysis\.py" is not a notebook/);
  });
});
