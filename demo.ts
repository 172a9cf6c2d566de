/**
 * The tour: builds (or reuses) the sample store, serves it with the embedded Terrain server on a
 * free loopback port, walks through tern's API against it, and writes the same rich views a
 * notebook shows to `demo-output/report.html`. Run with `deno task demo`.
 *
 * @module
 */

import pl, { type DataFrame } from "./polars.ts";
import { connect, escapeHtml, view as frameView } from "./mod.ts";
import {
  CURATED_PATH,
  defaultSampleStoreDir,
  DEMO_USER,
  MANY_FILES_PATH,
  SAMPLE_CASES,
  SAMPLE_FILES,
  serveSampleStore,
} from "./sample.ts";

const DISPLAY = Symbol.for("Jupyter.display");
/** "1 request", "20 requests": counts in English, with thousands separators. */
const plural = (count: number, noun: string) =>
  `${count.toLocaleString("en-US")} ${count === 1 ? noun : `${noun}s`}`;
const color = !Deno.noColor && Deno.stdout.isTerminal();
/** Plain-text tables fit the terminal (less the two-space indent), or 100 columns when piped. */
const textWidth = (Deno.stdout.isTerminal() ? Deno.consoleSize().columns : 102) - 2;
const bold = (text: string) => color ? `\x1b[1m${text}\x1b[0m` : text;
const dim = (text: string) => color ? `\x1b[2m${text}\x1b[0m` : text;

/** Sections of the HTML report, in order. */
const report: string[] = [];

function section(title: string): void {
  console.log(`\n${bold(`── ${title} `.padEnd(78, "─"))}`);
  report.push(`<h2>${escapeHtml(title)}</h2>`);
}

function show(code: string): void {
  console.log(dim(`> ${code}`));
  report.push(`<pre class="code">${escapeHtml(code)}</pre>`);
}

/** A result that is a sentence, not an object: printed, and kept in the report as a line. */
function note(text: string): void {
  console.log(`  ${text}`);
  report.push(`<p class="result">${escapeHtml(text)}</p>`);
}

/** Whether a value is a Polars DataFrame (shown the tern way, fitted to the terminal). */
function isFrame(value: unknown): value is DataFrame {
  const frame = value as Partial<DataFrame> | null;
  return typeof frame?.toRecords === "function" && typeof frame.head === "function" &&
    typeof frame.schema === "object";
}

/** Prints a value's plain text and adds its notebook HTML (the display symbol) to the report. */
async function view(input: unknown): Promise<void> {
  const value: unknown = isFrame(input) ? frameView(input, { width: textWidth }) : input;
  const display = (value as Record<symbol, unknown> | null)?.[DISPLAY];
  if (typeof display === "function") {
    const bundle = await display.call(value) as Record<string, unknown>;
    const text = typeof bundle["text/plain"] === "string" ? bundle["text/plain"] : String(value);
    console.log(indent(text));
    if (typeof bundle["text/html"] === "string") report.push(bundle["text/html"]);
    else report.push(`<pre>${escapeHtml(text)}</pre>`);
  } else {
    const text = typeof value === "string" ? value : Deno.inspect(value, { colors: color });
    console.log(indent(text));
    report.push(`<pre>${escapeHtml(text)}</pre>`);
  }
}

function indent(text: string): string {
  return text.split("\n").map((line) => `  ${line}`).join("\n");
}

async function writeReport(path: string): Promise<void> {
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tern demo report</title>
<style>
body { font: 14px/1.5 system-ui, sans-serif; max-width: 1100px; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.2rem; margin-top: 2.2rem; border-bottom: 1px solid #8884; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; }
pre.code { color: #555; background: #8881; padding: .3rem .6rem; border-radius: 4px; }
p.result { margin: .4rem 0; padding: .3rem .6rem; border-left: 3px solid #0969da; }
@media (prefers-color-scheme: dark) {
  body { background: #0d1117; color: #e6edf3; } pre.code { color: #9198a1; }
  p.result { border-left-color: #4493f8; }
}
</style></head><body>
<h1>tern demo report</h1>
<p>The embedded Terrain server over the sample store; every view below is what a Jupyter notebook
shows for the same object.</p>
${report.join("\n")}
</body></html>
`;
  const tmp = `${path}.tmp`;
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(tmp, page);
  await Deno.rename(tmp, path);
}

async function main(): Promise<void> {
  const started = performance.now();
  console.log(bold("tern demo") + dim(" — the embedded Terrain server over the sample store"));
  await using server = await serveSampleStore();
  console.log(`store  ${defaultSampleStoreDir()}\nserver ${server.url}`);

  section("Anonymous access to Community Data");
  show("const store = connect({ url, anonymous: true })");
  const store = connect({ url: server.url, anonymous: true, progress: false });
  await view(store);
  show(`store.folder("${CURATED_PATH}")`);
  const curated = store.folder(CURATED_PATH);
  await view(curated);

  section("Lazy paging through 20,000 files");
  const many = store.folder(MANY_FILES_PATH);
  show(`store.folder("${MANY_FILES_PATH}").list({ type: "file" }).total()`);
  const files = many.list({ type: "file", pageSize: 1000 });
  let requests = store.stats.requests;
  const total = await files.total();
  note(
    `${total.toLocaleString("en-US")} files, known after ${
      plural(store.stats.requests - requests, "request")
    } (one page)`,
  );
  show(`.list({ type: "file", sort: "modified", order: "desc" }).take(5)`);
  const newest = await many.list({ type: "file", sort: "modified", order: "desc" }).take(5);
  // Typed columns: Polars makes every JS number a Float64, and a size is a whole number.
  await view(pl.DataFrame([
    pl.Series("name", newest.map((entry) => entry.name), pl.Utf8),
    pl.Series("size", newest.map((entry) => entry.size), pl.Int64),
    pl.Series("modified", newest.map((entry) => entry.modified), pl.Datetime("ms", "UTC")),
  ]));
  show(`let n = 0; for await (const entry of folder.list({ type: "file", pageSize: 1000 })) n++`);
  requests = store.stats.requests;
  let counted = 0;
  for await (const _ of files) counted++;
  note(
    `iterated all ${counted.toLocaleString("en-US")} entries in ${
      plural(store.stats.requests - requests, "request")
    }, one page of 1,000 at a time`,
  );

  section("A dataset card");
  const penguins = store.dataset(SAMPLE_CASES.fullMetadata);
  show(`store.dataset("${penguins.path}")`);
  await view(penguins);

  section("Normalised metadata across template generations");
  const variants = [
    SAMPLE_CASES.fullMetadata,
    SAMPLE_CASES.flatTemplate,
    SAMPLE_CASES.capitalisedKeys,
    SAMPLE_CASES.arkOnly,
    SAMPLE_CASES.noMetadata,
  ];
  show("(await store.dataset(path).metadata()) for five datasets");
  const rows = [];
  for (const path of variants) {
    const metadata = await store.dataset(path).metadata();
    rows.push({
      dataset: path.slice(path.lastIndexOf("/") + 1),
      title: metadata.title ?? "",
      year: metadata.publicationYear ?? null,
      doi: metadata.doi ?? "",
      ark: metadata.ark ?? "",
      license: metadata.license?.id ?? metadata.license?.name?.slice(0, 30) ?? "",
      missing: metadata.missing.join(", "),
    });
  }
  await view(pl.readRecords(rows).withColumns(pl.col("year").cast(pl.Int32)));
  show(`await store.dataset("${SAMPLE_CASES.flatTemplate}").metadata()`);
  await view(await store.dataset(SAMPLE_CASES.flatTemplate).metadata());
  show(`(await store.folder("${CURATED_PATH}").catalog()).select("path", "title", …)`);
  const catalog = await curated.catalog();
  // The path says which dataset a row is, even one whose metadata is all missing.
  await view(catalog.select("path", "title", "year", "doi", "license", "duplicateTitle"));

  section("Citations");
  show(`await dataset.citation()  // DataCite`);
  await view(await penguins.citation());
  show(`await dataset.citation("bibtex")`);
  await view(await penguins.citation("bibtex"));

  section("Files into Polars DataFrames");
  const csv = store.file(SAMPLE_FILES.csv);
  show(`const penguinsCsv = await store.file("${csv.path}").dataframe()`);
  const frame = await csv.dataframe();
  show(`penguinsCsv.groupBy("Species").agg(pl.col("Body Mass (g)").mean())`);
  await view(
    frame.groupBy("Species").agg(pl.col("Body Mass (g)").mean().alias("mean body mass (g)"))
      .sort("Species"),
  );
  const parquet = store.file(SAMPLE_CASES.parquetLarge);
  show(`const flights = await store.file("${parquet.path}").dataframe()`);
  const flights = await parquet.dataframe();
  show("flights");
  await view(flights);
  show(`flights.groupBy("origin").agg(pl.len(), pl.col("delay").mean()).sort(…).head(5)`);
  const origin = flights.columns.includes("origin") ? "origin" : flights.columns[0];
  const delay = flights.columns.includes("delay") ? "delay" : flights.columns[1];
  await view(
    flights.groupBy(origin)
      .agg(pl.col(delay).count().alias("flights"), pl.col(delay).mean().alias(`mean ${delay}`))
      .sort("flights", true).head(5),
  );

  section("A manifest");
  show(`await store.file("${csv.path}").manifest()`);
  await view(await csv.manifest());

  section("Signed in as the demo user: roots, comments, saved searches");
  const signedIn = connect({
    url: server.url,
    username: DEMO_USER.username,
    password: DEMO_USER.password,
    progress: false,
  });
  show("connect({ url, username, password }).root()");
  await view(await signedIn.root());
  show(`await store.dataset("${penguins.path}").comments()`);
  await view(await signedIn.dataset(penguins.path!).comments());
  show("await store.savedSearches()");
  await view(await signedIn.savedSearches());

  section("A typed error");
  show(`await store.folder("/iplant/home/alice").list().toArray()`);
  try {
    await signedIn.folder("/iplant/home/alice").list().toArray();
  } catch (error) {
    await view(error);
  }

  const out = "demo-output/report.html";
  await writeReport(out);
  console.log(
    `\n${bold("report")} ${out} ${
      dim(`(${((performance.now() - started) / 1000).toFixed(1)} s in all)`)
    }`,
  );
}

if (import.meta.main) await main();
