/**
 * The provenance of every notebook under notebooks/ as an RO-Crate. Each notebook's code cells
 * run as one module against the sample store (the notebooks serve it themselves when TERRAIN_URL
 * is unset), with a last cell that writes `store.provenance.crate()`, the lock and the
 * provenance card: exactly what that notebook read. All of them run in one child process, one
 * after another, so Polars and the sample store load once, with a temporary folder of their own
 * that the test removes. No Jupyter: tests/notebooks/notebooks_test.ts runs the notebooks in it.
 *
 * Each crate then expands as JSON-LD with no dropped term, passes the `ro-crate` library's
 * validator, carries every DOI, ARK, licence and link the card shows and every checksum the
 * lock records (a file pinned by its listing entry, not a stat, has none: see
 * docs/reproducibility.md), and turns back into a lock with the same pins.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { type Lock, parseLock } from "../../mod.ts";
import type { RoCrate } from "../../lib/ld/crate.ts";
import { notebookModule, notebookNames } from "../notebooks/_code.ts";
import { runScript } from "../_readme_script.ts";
import { assertNoDroppedTerms, pins, validate } from "./_crate.ts";

const ROOT = new URL("../../", import.meta.url).href;

/** What a notebook's last cell writes. */
interface Written {
  crate: RoCrate;
  lock: Lock;
  /** The provenance card's text/plain and text/html. */
  card: string;
}

/** The cell appended to each notebook: its store's provenance, written beside the module. */
function lastCell(name: string): string {
  return `
import { JUPYTER_DISPLAY as TERN_CARD } from "${ROOT}mod.ts";
{
  const card = await store.provenance[TERN_CARD]();
  await Deno.writeTextFile(new URL("./${name}.json", import.meta.url), JSON.stringify({
    crate: await store.provenance.crate(),
    lock: await store.provenance.lock(),
    card: \`\${card["text/plain"]}\\n\${card["text/html"]}\`,
  }));
}
`;
}

/**
 * Runs every notebook's module in one `deno run` in `dir` and returns what each wrote. The
 * watchdog only turns a run that never ends into a failure rather than a hang.
 */
async function runNotebooks(dir: string, names: string[]): Promise<Map<string, Written>> {
  for (const name of names) {
    await Deno.writeTextFile(join(dir, `${name}.ts`), await notebookModule(name) + lastCell(name));
  }
  // One after another: each serves the sample store, which it takes under a file lock. Their
  // servers and stores stay open, as in a kernel; the run ends once the last one wrote. The
  // notebooks' cache and lock folders go in the test's folder.
  await Deno.mkdir(join(dir, "tmp"));
  await runScript(
    dir,
    `for (const name of ${JSON.stringify(names)}) await import(\`./\${name}.ts\`);\n` +
      "Deno.exit(0);\n",
    300_000,
    { TMPDIR: join(dir, "tmp") },
  );
  const written = new Map<string, Written>();
  for (const name of names) {
    written.set(name, JSON.parse(await Deno.readTextFile(join(dir, `${name}.json`))));
  }
  return written;
}

/** The DOIs, ARKs and links (licences, resolvers) a provenance card shows. */
function shownOn(card: string): string[] {
  const text = card.replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&#39;", "'");
  const trim = (value: string) => value.replace(/[.,;)}\]]+$/, "");
  return [
    ...[...text.matchAll(/\b10\.\d{4,9}\/[^\s"'<>&,}]+/g)].map((match) => trim(match[0])),
    ...[...text.matchAll(/\bark:\/?[^\s"'<>&,}]+/g)].map((match) => trim(match[0])),
    ...[...text.matchAll(/https?:\/\/[^\s"'<>&,}]+/g)].map((match) => trim(match[0]))
      // The store itself, and the vocabulary the card's JSON-LD names, are not provenance.
      .filter((url) => !url.startsWith("https://schema.org") && !url.includes("127.0.0.1")),
  ];
}

Deno.test("crate: the provenance of every notebook under notebooks/, as it read it, expands without dropped terms, validates, carries every DOI, ARK, licence and checksum its card and lock show, and round-trips to the same pins", async (t) => {
  const names = notebookNames();
  assert.ok(names.length >= 7, "the notebooks are found");
  const dir = await Deno.makeTempDir({ prefix: "tern-notebook-crates-" });
  try {
    const written = await runNotebooks(dir, names);
    for (const name of names) {
      await t.step(name, async () => {
        const { crate, lock, card } = written.get(name)!;
        const json = JSON.stringify(crate).toLowerCase();

        await assertNoDroppedTerms(crate);
        const results = await validate(crate);
        assert.deepEqual(results.filter((result) => result.status === "error"), []);

        // The crate's run reads what the card says the notebook read.
        const run = crate["@graph"].find((entity) => entity["@type"] === "CreateAction")!;
        const read = /This notebook read ([\d,]+) files?/.exec(card);
        assert.ok(read !== null, "the card says how many files the notebook read");
        assert.equal((run.object as unknown[]).length, Number(read[1].replaceAll(",", "")));
        assert.equal((run.object as unknown[]).length, lock.files.length);

        for (const shown of shownOn(card)) {
          assert.ok(json.includes(shown.toLowerCase()), `${name}: the card's ${shown}`);
        }
        for (const dataset of lock.datasets) {
          for (const value of [dataset.doi, dataset.ark, dataset.license?.url]) {
            if (value !== undefined) assert.ok(json.includes(value.toLowerCase()), value);
          }
          if (dataset.license !== undefined) {
            assert.ok(json.includes(JSON.stringify(dataset.license.name).toLowerCase()));
          }
        }
        // Reads that pinned the file by a stat know the store's checksum; a scan of public
        // Parquet and a many-file read pin it by its listing entry, which has none.
        for (const file of lock.files) {
          if (file.checksum === undefined) continue;
          assert.match(file.checksum, /^md5:[0-9a-f]{32}$/);
          assert.ok(json.includes(`"md5":"${file.checksum.slice(4)}"`), file.path);
        }

        assert.deepEqual(pins(parseLock(crate)), pins(lock));
      });
    }
    // What the notebooks read between them: every dataset they cite is in some crate.
    const cited = [...written.values()].flatMap(({ lock }) => lock.datasets);
    assert.ok(cited.some((dataset) => dataset.ark !== undefined), "an ARK-only dataset");
    assert.ok(cited.some((dataset) => dataset.doi !== undefined), "a DOI dataset");
    const files = [...written.values()].flatMap(({ lock }) => lock.files);
    assert.ok(files.filter((file) => file.checksum !== undefined).length >= 5, "checksums");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
