/**
 * The tour: builds (or reuses) the sample store, serves it with the embedded Terrain server on a
 * free loopback port, and walks through tern's API against it. Run with `deno task demo`.
 *
 * @module
 */

import pl from "nodejs-polars";
import { Buffer } from "node:buffer";
import { connect, type Entry } from "./mod.ts";
import { startServer } from "./server.ts";
import {
  CURATED_PATH,
  DEMO_USER,
  ensureSampleStore,
  MANY_FILES_PATH,
  SAMPLE_CASES,
  SAMPLE_FILES,
} from "./lib/sample/mod.ts";

const bold = (text: string) => Deno.noColor ? text : `\x1b[1m${text}\x1b[0m`;
const dim = (text: string) => Deno.noColor ? text : `\x1b[2m${text}\x1b[0m`;

function section(title: string): void {
  console.log(`\n${bold(`── ${title} `.padEnd(78, "─"))}`);
}

function show(code: string): void {
  console.log(dim(`> ${code}`));
}

function row(entry: Entry): string {
  const size = entry.type === "folder" ? "" : entry.size.toLocaleString("en-US");
  const modified = entry.modified.toISOString().slice(0, 10);
  return `  ${entry.type === "folder" ? "d" : "-"} ${
    size.padStart(12)
  }  ${modified}  ${entry.name}`;
}

async function main(): Promise<void> {
  const started = performance.now();
  console.log(bold("tern demo") + dim(" — the embedded Terrain server over the sample store"));
  const root = await ensureSampleStore();
  await using server = await startServer({ root, port: 0, quiet: true });
  console.log(`store ${dim(root)}\nserver ${server.url}`);

  section("Anonymous access to Community Data");
  show("const store = connect({ url })");
  const store = connect({ url: server.url, anonymous: true });
  show(`store.folder("${CURATED_PATH}").list()`);
  const curated = store.folder(CURATED_PATH);
  const listing = curated.list();
  for await (const entry of listing) console.log(row(entry));
  console.log(dim(`  ${await listing.total()} entries`));

  section("Lazy paging through 20,000 files");
  const many = store.folder(MANY_FILES_PATH).list({ type: "file", pageSize: 1000 });
  show(`store.folder("${MANY_FILES_PATH}").list({ type: "file" })`);
  console.log(`  total: ${(await many.total()).toLocaleString("en-US")} files`);
  const newest = await store.folder(MANY_FILES_PATH)
    .list({ type: "file", sort: "modified", order: "desc" }).take(3);
  show(`  .list({ sort: "modified", order: "desc" }).take(3)`);
  for (const entry of newest) console.log(row(entry));
  let counted = 0;
  for await (const _ of many) counted++;
  console.log(`  iterated ${counted.toLocaleString("en-US")} entries, page by page`);

  section("A dataset's metadata (raw AVUs, as the service serves them)");
  const dataset = store.dataset(SAMPLE_CASES.fullMetadata);
  show(`store.dataset("${dataset.path}").metadata()`);
  const metadata = await dataset.metadata();
  for (const avu of metadata.avus.slice(0, 8)) {
    const nested = avu.avus.map((sub) => `${sub.attr}=${sub.value}`).join(", ");
    console.log(
      `  ${avu.attr.padEnd(18)} ${avu.value.slice(0, 50)}${nested ? dim(`  [${nested}]`) : ""}`,
    );
  }
  if (metadata.avus.length > 8) console.log(dim(`  … ${metadata.avus.length - 8} more`));

  section("A CSV file into a Polars DataFrame");
  const csv = store.file(SAMPLE_FILES.csv);
  show(`pl.readCSV(await store.file("${csv.path}").bytes())`);
  const frame = pl.readCSV(Buffer.from(await csv.bytes()));
  console.log(frame.head(5).toString());
  const bySpecies = frame.groupBy("Species").agg(
    pl.col("Body Mass (g)").mean().alias("mean mass (g)"),
  )
    .sort("Species");
  show(`frame.groupBy("Species").agg(pl.col("Body Mass (g)").mean())`);
  console.log(bySpecies.toString());

  section("Manifest and comments");
  show(`store.file("${csv.path}").manifest()`);
  console.log(" ", await csv.manifest());

  section("Signed in as the demo user");
  const signedIn = connect({
    url: server.url,
    username: DEMO_USER.username,
    password: DEMO_USER.password,
  });
  show("connect({ url, username, password }).root()");
  const roots = await signedIn.root();
  console.log(`  home: ${roots.home.path}\n  community: ${roots.community.path}`);
  show(`store.dataset("${dataset.path}").comments()`);
  for (const comment of await signedIn.dataset(dataset.path!).comments()) {
    console.log(
      `  ${comment.author}${comment.retracted ? " (retracted)" : ""}: ${comment.text.slice(0, 70)}`,
    );
  }
  show("store.savedSearches()");
  console.log(" ", JSON.stringify(await signedIn.savedSearches()).slice(0, 200) + "…");

  console.log(dim(`\ndone in ${((performance.now() - started) / 1000).toFixed(1)} s`));
}

if (import.meta.main) await main();
