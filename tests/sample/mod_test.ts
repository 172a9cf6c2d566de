import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Buffer } from "node:buffer";
import { join } from "node:path";
import pl from "../../polars.ts";
import {
  ALICE_PRIVATE_FILE,
  ALICE_USER,
  buildSampleStore,
  COMMUNITY_PATH,
  CURATED_PATH,
  DEMO_DATASET_PATH,
  DEMO_EMPTY_FOLDER,
  DEMO_USER,
  ensureSampleStore,
  isSampleStoreCurrent,
  MANY_FILES_COLUMNS,
  MANY_FILES_COUNT,
  MANY_FILES_PATH,
  MANY_FILES_SUBFOLDERS,
  partCsv,
  partName,
  PENGUIN_ROWS,
  SAMPLE_CASES,
  SAMPLE_DATASETS,
  SAMPLE_FILES,
  SAMPLE_STORE_VERSION,
  SAMPLE_TOKEN_SECRET,
  SampleStoreError,
  STAGING_PATH,
  STAMP_FILE,
} from "../../lib/sample/mod.ts";
import { type DiskAvu, flatten, readJson, snapshot } from "./_tree.ts";

/** Disk path of a data-store path inside `root`. */
function disk(root: string, storePath: string): string {
  return join(root, storePath.slice(1));
}

function avusOf(root: string, folder: string): DiskAvu[] {
  return readJson<DiskAvu[]>(root, `${folder.slice(1)}/.avus.json`);
}

/** All folder and file AVU sidecars of the store, keyed by relative sidecar path. */
function allAvuSidecars(root: string, tree: ReturnType<typeof snapshot>): Map<string, DiskAvu[]> {
  const out = new Map<string, DiskAvu[]>();
  for (const [rel, e] of tree) {
    if (e.type === "file" && rel.endsWith(".avus.json")) out.set(rel, readJson(root, rel));
  }
  return out;
}

function values(avus: DiskAvu[], ...attrs: string[]): string[] {
  return avus.filter((a) => attrs.includes(a.attr)).map((a) => a.value);
}

function nested(avu: DiskAvu | undefined, attr: string): DiskAvu | undefined {
  return avu?.avus?.find((a) => a.attr === attr);
}

/** Lists `dir`'s siblings left over from builds (`.tmp-*`, `.old-*`, `.lock`). */
function leftovers(dir: string): string[] {
  const parent = join(dir, "..");
  const base = dir.slice(parent.length + 1);
  return [...Deno.readDirSync(parent)].map((e) => e.name).filter((n) => n.startsWith(`${base}.`));
}

async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new DecompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Parses a PNG's chunks, checking signature and every CRC; returns size and colour count. */
async function decodePng(
  bytes: Uint8Array,
): Promise<{ width: number; height: number; colours: number }> {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { crc32 } = await import("node:zlib");
  let at = 8, width = 0, height = 0, colourType = -1;
  const idat: Uint8Array[] = [];
  while (at < bytes.length) {
    const length = view.getUint32(at);
    const type = new TextDecoder().decode(bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, at + 8 + length);
    assert.equal(view.getUint32(at + 8 + length), crc32(bytes.subarray(at + 4, at + 8 + length)));
    if (type === "IHDR") {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      colourType = data[9];
    }
    if (type === "IDAT") idat.push(data);
    at += 12 + length;
  }
  const colours = new Set<number>();
  if (colourType === 2) {
    const raw = await inflate(new Uint8Array(idat.flatMap((d) => [...d])));
    assert.equal(raw.length, height * (1 + width * 3));
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const at = y * (1 + width * 3) + 1 + x * 3;
        colours.add((raw[at] << 16) | (raw[at + 1] << 8) | raw[at + 2]);
      }
    }
  }
  return { width, height, colours: colours.size };
}

/** Runs `ensureSampleStore(dir)` in a child process: the path it gave and that folder's inode. */
async function ensureInChild(dir: string): Promise<{ path: string; ino: number }> {
  const child = new URL("./_ensure_child.ts", import.meta.url).pathname;
  const config = new URL("../../deno.json", import.meta.url).pathname;
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", config, child, dir],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(result.code, 0, new TextDecoder().decode(result.stderr));
  return JSON.parse(new TextDecoder().decode(result.stdout));
}

// The store takes seconds to build (20,000 files), so this test builds it twice only: once, and
// again when two processes running ensureSampleStore at once replace a stale one (the last
// step), which is also what proves two builds give identical trees.
Deno.test("buildSampleStore: deterministic, complete store covering every metadata variant", async (t) => {
  const parent = await Deno.makeTempDir({ prefix: "tern-sample-" });
  const a = join(parent, "a");
  try {
    const summary = await buildSampleStore(a);
    const tree = snapshot(a);

    await t.step("no temporary or backup directories are left beside the store", () => {
      assert.deepEqual(leftovers(a), []);
    });

    await t.step("summary counts match what is on disk", () => {
      const files = [...tree].filter(([rel, e]) =>
        e.type === "file" && !rel.startsWith(".terrain/") && !rel.split("/").at(-1)!.startsWith(".")
      );
      assert.equal(summary.dir, a);
      assert.equal(summary.version, SAMPLE_STORE_VERSION);
      assert.equal(summary.files, files.length);
      assert.equal(summary.bytes, files.reduce((n, [, e]) => n + e.size, 0));
      assert.equal(summary.datasets, 12);
      assert.ok(summary.ms > 0);
    });

    await t.step("the tree is the one recorded for this builder version", () => {
      // A store is rebuilt only when its stamp's version is older: a builder whose output
      // changes without a new SAMPLE_STORE_VERSION leaves every existing store as it was (a
      // store built before `.terrain/store-id` kept a random id, and its locks did not travel).
      // On a change to the output, bump the version and record the new digest here.
      const lines = [...tree].filter(([rel]) => rel !== "").sort(([x], [y]) => x < y ? -1 : 1)
        .map(([rel, e]) =>
          e.type === "dir" ? `${rel}/` : `${rel} ${e.size} ${e.mtime} ${e.sha256}`
        );
      const digest = createHash("sha256").update(lines.join("\n")).digest("hex");
      assert.deepEqual({ version: SAMPLE_STORE_VERSION, digest }, {
        version: 3,
        digest: "c756c5603bcdcddf087c045f1e351a95492c098c1d4221f285928f990e3a4272",
      });
    });

    await t.step("stamp names the builder version and the vega-datasets version", () => {
      const stamp = readJson<{ builder: string; version: number; source: string }>(a, STAMP_FILE);
      assert.deepEqual(stamp, {
        builder: "tern/sample-store",
        version: SAMPLE_STORE_VERSION,
        source: "vega-datasets@3.2.1",
      });
    });

    await t.step("every file the constants list exists; every dataset has a README", () => {
      assert.ok(SAMPLE_DATASETS.length >= 12);
      for (const d of SAMPLE_DATASETS) {
        assert.equal(d.files[0], `${d.path}/README.txt`);
        for (const f of d.files) assert.ok(tree.get(f.slice(1))?.type === "file", f);
        const readme = Deno.readTextFileSync(disk(a, `${d.path}/README.txt`));
        assert.ok(readme.startsWith(d.title), d.name);
        assert.match(readme, /vega-datasets npm package 3\.2\.1/);
      }
      for (const path of Object.values(SAMPLE_FILES)) assert.ok(tree.has(path.slice(1)), path);
      const casePaths = Object.values(SAMPLE_CASES).flat();
      for (const path of casePaths) assert.ok(tree.has(path.slice(1)), path);
    });

    await t.step("8-12 published datasets, plus a _deprecated_ and a staging folder", () => {
      const curated = [...Deno.readDirSync(disk(a, CURATED_PATH))].filter((e) => e.isDirectory);
      const published = curated.filter((e) => !e.name.startsWith("_deprecated_"));
      assert.ok(published.length >= 8 && published.length <= 12, `${published.length}`);
      assert.ok(curated.some((e) => e.name.startsWith("_deprecated_")));
      for (const e of published) assert.match(e.name, /^[A-Za-z-]+_[A-Za-z0-9_-]+_[A-Za-z]*\d{4}$/);
      const deprecated = avusOf(a, SAMPLE_CASES.deprecated);
      assert.deepEqual(values(deprecated, "is_deprecated"), ["true"]);
      assert.ok([...Deno.readDirSync(disk(a, STAGING_PATH))].some((e) => e.isDirectory));
      assert.ok(SAMPLE_CASES.staging.startsWith(`${STAGING_PATH}/`));
    });

    const sidecars = allAvuSidecars(a, tree);
    const everyAvu = [...sidecars.values()].flatMap((avus) => flatten(avus));

    await t.step("every AVU is {attr, value, unit} strings, nested recursively", () => {
      assert.ok(everyAvu.length > 200);
      for (const { path, avu } of everyAvu) {
        assert.equal(typeof avu.attr, "string", path.join(">"));
        assert.equal(typeof avu.value, "string", path.join(">"));
        assert.equal(typeof avu.unit, "string", path.join(">"));
        if (avu.avus !== undefined) assert.ok(Array.isArray(avu.avus));
        for (const key of ["created_on", "modified_on"]) {
          if (key in avu) assert.ok(Number.isInteger(avu[key]), `${path.join(">")} ${key}`);
        }
      }
      assert.ok(everyAvu.some(({ avu }) => avu.unit !== ""), "some AVU carries a unit");
      assert.ok(everyAvu.some(({ avu }) => avu.created_by === "curator"));
    });

    await t.step("nested DataCite 4.x template", () => {
      const avus = avusOf(a, SAMPLE_CASES.fullMetadata);
      const identifier = avus.find((x) => x.attr === "identifier");
      assert.equal(nested(identifier, "identifierType")?.value, "DOI");
      const creators = avus.filter((x) => x.attr === "creator");
      assert.equal(creators.length, 3);
      assert.ok(creators.every((c) => nested(c, "affiliation")?.value));
      const contributor = avus.find((x) => x.attr === "contributor");
      assert.equal(nested(contributor, "contributorType")?.value, "DataCurator");
      const related = avus.find((x) => x.attr === "relatedIdentifier");
      assert.equal(nested(related, "relationType")?.value, "IsDocumentedBy");
      assert.deepEqual(values(avus, "version"), ["1.0"]);
      assert.equal(values(avus, "subject").length, 5, "subjects as repeated AVUs");

      const wind = avusOf(a, SAMPLE_CASES.fundingAndOrcid);
      const funding = wind.find((x) => x.attr === "fundingReference");
      const funder = nested(funding, "funderName");
      assert.equal(
        nested(nested(funder, "funderIdentifier"), "funderIdentifierType")?.value,
        "ROR",
      );
      const orcid = nested(wind.find((x) => x.attr === "creator"), "nameIdentifier");
      assert.match(orcid!.value, /^https:\/\/orcid\.org\/\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/);
    });

    await t.step("flat datacite.* template with a trailing-TAB key and a doubled year", () => {
      const avus = avusOf(a, SAMPLE_CASES.flatTemplate);
      for (const key of ["datacite.title", "datacite.creator", "Identifier", "identifierType"]) {
        assert.ok(avus.some((x) => x.attr === key), key);
      }
      assert.deepEqual(values(avus, "datacite.publicationyear"), ["2018", ""]);
      assert.deepEqual(values(avus, "creatorAffiliation\t").length, 1);
      assert.ok(!avus.some((x) => x.attr === "creatorAffiliation"));
    });

    await t.step("capitalised keys", () => {
      const avus = avusOf(a, SAMPLE_CASES.capitalisedKeys);
      for (const key of ["Title", "Subject", "Rights", "Publisher", "Creator"]) {
        assert.ok(avus.some((x) => x.attr === key), key);
      }
      assert.ok(!avus.some((x) => x.attr === "title"));
    });

    await t.step("misspelt keys: identiferType and contributer", () => {
      const attrs = new Set(everyAvu.map(({ avu }) => avu.attr));
      assert.ok(attrs.has("identiferType"));
      assert.ok(attrs.has("contributer"));
    });

    await t.step("subjects both comma-joined and repeated", () => {
      const subjects = everyAvu.filter(({ path }) =>
        path.length === 1 && /^subject$/i.test(path[0])
      );
      assert.ok(subjects.some(({ avu }) => avu.value.split(",").length >= 4), "comma-joined");
      const gapminder = avusOf(a, SAMPLE_CASES.leadingTabDoi);
      assert.equal(values(gapminder, "subject").length, 1);
    });

    await t.step("licences in many spellings, including a long custom paragraph", () => {
      const rights = everyAvu.filter(({ path }) => path.length === 1 && /^rights$/i.test(path[0]))
        .map(({ avu }) => avu.value);
      for (
        const spelling of [
          "ODC PDDL",
          "CC0",
          "CC BY 4.0",
          "Creative Commons Attribution 4.0 International",
          "CC-BY-NC-4.0",
          "",
        ]
      ) assert.ok(rights.includes(spelling), JSON.stringify(spelling));
      assert.ok(rights.some((r) => r.length > 250), "a long custom licence");
    });

    await t.step("DOIs in every shape, and datasets without one", () => {
      const identifiers = everyAvu.filter(({ path }) =>
        path.length === 1 && /^identifier$/i.test(path[0])
      ).map(({ avu }) => avu.value);
      assert.ok(identifiers.some((v) => /^10\.25739\/[0-9a-z]{4}-[0-9a-z]{4}$/.test(v)));
      assert.ok(identifiers.some((v) => /^10\.7946\/P2[0-9A-Z]{4}$/.test(v)));
      assert.ok(identifiers.some((v) => v.startsWith("\t10.")));
      assert.ok(identifiers.some((v) => v.startsWith("doi:10.")));
      assert.ok(identifiers.some((v) => v.startsWith("https://doi.org/10.")));
      assert.ok(identifiers.includes(""));
      for (const path of [SAMPLE_CASES.noIdentifier, SAMPLE_CASES.arkOnly]) {
        assert.ok(!avusOf(a, path).some((x) => /^identifier$/i.test(x.attr)), path);
      }
    });

    await t.step("ARKs in several shapes, and datasets without one", () => {
      const arks: string[] = [];
      for (const avus of sidecars.values()) {
        for (const [i, x] of avus.entries()) {
          if (!/^alternateIdentifier$/i.test(x.attr)) continue;
          const type = nested(x, "alternateIdentifierType")?.value ??
            avus.slice(i + 1).find((y) => y.attr === "alternateIdentifierType")?.value;
          if (type === "ARK") arks.push(x.value);
        }
      }
      assert.ok(arks.some((v) => v.startsWith("/b7946/")), "EZID shadow ARK shape");
      assert.ok(arks.some((v) => v.startsWith("ark:/87946/")), "ark:/ prefix");
      assert.ok(arks.some((v) => /^87946\//.test(v)), "bare NAAN/name");
      assert.ok(!avusOf(a, SAMPLE_CASES.noIdentifier).some((x) => /alternate/i.test(x.attr)));
    });

    await t.step("the constants' DOI and ARK agree with the stored identifiers", () => {
      const doiOf = (v: string) =>
        v.trim().replace(/^doi:/i, "").replace(/^https?:\/\/(dx\.)?doi\.org\//i, "") || null;
      for (const d of SAMPLE_DATASETS) {
        if (d.style === "none") {
          assert.ok(!tree.has(`${d.path.slice(1)}/.avus.json`), "no sidecar at all");
          continue;
        }
        const avus = avusOf(a, d.path);
        const stored = avus.find((x) => /^identifier$/i.test(x.attr));
        assert.equal(stored ? doiOf(stored.value) : null, d.doi, d.name);
        const ark = avus.find((x) =>
          /^alternateIdentifier$/i.test(x.attr) &&
          (nested(x, "alternateIdentifierType")?.value === "ARK" ||
            avus.some((y) => y.attr === "alternateIdentifierType" && y.value === "ARK"))
        );
        assert.equal(
          ark ? `ark:/${ark.value.replace(/^ark:/, "").replace(/^\//, "")}` : null,
          d.ark,
        );
        const rights = avus.find((x) => /^rights$/i.test(x.attr));
        assert.equal(rights?.value ?? null, d.license, d.name);
      }
    });

    await t.step("two datasets share a title under different key spellings", () => {
      const [v1, v2] = SAMPLE_CASES.sameTitle;
      const t1 = values(avusOf(a, v1), "datacite.title", "title", "Title");
      const t2 = values(avusOf(a, v2), "datacite.title", "title", "Title");
      assert.equal(t1.length, 1);
      assert.deepEqual(t1, t2);
      assert.notEqual(v1, v2);
    });

    await t.step("comments: well-formed, unique ids, one retracted, on folders and files", () => {
      const comments = [...tree.keys()].filter((rel) => rel.endsWith(".comments.json"));
      assert.ok(comments.some((rel) => rel.endsWith("/.comments.json")), "on a folder");
      assert.ok(comments.some((rel) => !rel.endsWith("/.comments.json")), "on a file");
      const all = comments.flatMap((rel) => readJson<Record<string, unknown>[]>(a, rel));
      for (const c of all) {
        assert.deepEqual(Object.keys(c).sort(), [
          "comment",
          "commenter",
          "id",
          "post_time",
          "retracted",
        ]);
        assert.match(
          c.id as string,
          /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
        );
        assert.ok(Number.isInteger(c.post_time) && typeof c.retracted === "boolean");
        assert.ok((c.comment as string).trim() !== "");
      }
      assert.equal(new Set(all.map((c) => c.id)).size, all.length);
      assert.equal(all.filter((c) => c.retracted).length, 1);
    });

    await t.step("users.json: demo and alice with the exported credentials", () => {
      const users = readJson<{
        secret: string;
        tokenLifetimeSeconds: number;
        users: { username: string; password: string; tokens: string[]; email: string }[];
      }>(a, ".terrain/users.json");
      assert.equal(users.secret, SAMPLE_TOKEN_SECRET);
      assert.equal(users.tokenLifetimeSeconds, 3600);
      for (const expected of [DEMO_USER, ALICE_USER]) {
        const u = users.users.find((x) => x.username === expected.username);
        assert.ok(u, expected.username);
        assert.equal(u.password, expected.password);
        assert.deepEqual(u.tokens, [expected.token]);
        const [header, payload, signature] = expected.token.split(".");
        for (const part of [header, payload, signature]) assert.match(part, /^[A-Za-z0-9_-]+$/);
        const claims = JSON.parse(atob(payload.replaceAll("-", "+").replaceAll("_", "/")));
        assert.equal(claims.preferred_username, expected.username);
        assert.equal(claims.email, u.email);
      }
    });

    await t.step("saved searches: the old DE UI's array of query templates", () => {
      const demo = readJson<Record<string, unknown>[]>(a, ".terrain/saved-searches/demo.json");
      assert.ok(Array.isArray(demo) && demo.length >= 3);
      for (const s of demo) {
        assert.equal(typeof s.label, "string");
        assert.deepEqual([s.files, s.folders], [[], []]);
      }
      assert.ok(tree.has(`.terrain/saved-searches/${ALICE_USER.username}.json`));
    });

    await t.step(
      "homes: demo files with awkward names, an empty folder, alice's private file",
      () => {
        const home = [...Deno.readDirSync(disk(a, DEMO_USER.home))].map((e) => e.name);
        assert.ok(home.some((n) => n.includes(" ")), "a name with spaces");
        assert.ok(
          home.some((n) => [...n].some((ch) => ch.codePointAt(0)! > 127)),
          "a non-ASCII name",
        );
        assert.deepEqual([...Deno.readDirSync(disk(a, DEMO_EMPTY_FOLDER))], []);
        assert.ok(tree.get(DEMO_DATASET_PATH.slice(1) + "/.avus.json"));
        assert.ok(tree.get(ALICE_PRIVATE_FILE.slice(1))?.type === "file");
        const shared = [...Deno.readDirSync(disk(a, COMMUNITY_PATH))].map((e) => e.name).sort();
        assert.ok(shared.length >= 3 && shared.includes("commons_repo"), shared.join());
      },
    );

    await t.step(
      `many_files: ${MANY_FILES_COUNT} CSV parts with one schema, plus subfolders`,
      () => {
        const entries = [...Deno.readDirSync(disk(a, MANY_FILES_PATH))];
        const folders = entries.filter((e) => e.isDirectory).map((e) => e.name).sort();
        const parts = entries.filter((e) => e.isFile && !e.name.startsWith(".")).map((e) => e.name);
        assert.deepEqual(folders, [...MANY_FILES_SUBFOLDERS]);
        assert.equal(parts.length, MANY_FILES_COUNT);
        assert.ok(parts.includes(partName(1)) && parts.includes(partName(MANY_FILES_COUNT)));
        const header = MANY_FILES_COLUMNS.join(",");
        const sizes = new Set<number>();
        for (const name of parts) {
          const text = Deno.readTextFileSync(join(disk(a, MANY_FILES_PATH), name));
          assert.equal(text.slice(0, text.indexOf("\n")), header, name);
          sizes.add(text.length);
        }
        assert.ok(sizes.size > 1, "parts differ in size");
        assert.equal(
          Deno.readTextFileSync(disk(a, `${MANY_FILES_PATH}/${partName(777)}`)),
          partCsv(777),
        );
        const byName = parts.slice().sort();
        const byDate = parts.slice().sort((x, y) =>
          tree.get(`${MANY_FILES_PATH.slice(1)}/${x}`)!.mtime -
          tree.get(`${MANY_FILES_PATH.slice(1)}/${y}`)!.mtime
        );
        assert.notDeepEqual(byDate.slice(0, 10), byName.slice(0, 10), "dates not in name order");
      },
    );

    await t.step("formats: every table file holds the same penguin rows", async () => {
      const read = (p: string) => Deno.readFileSync(disk(a, p));
      const csv = pl.readCSV(Buffer.from(read(SAMPLE_FILES.csv)));
      assert.equal(csv.height, PENGUIN_ROWS);
      assert.equal(
        pl.readCSV(Buffer.from(read(SAMPLE_FILES.tsv)), { sep: "\t" }).height,
        PENGUIN_ROWS,
      );
      assert.equal(
        JSON.parse(new TextDecoder().decode(read(SAMPLE_FILES.json))).length,
        PENGUIN_ROWS,
      );
      const ndjson = new TextDecoder().decode(read(SAMPLE_FILES.ndjson)).trimEnd().split("\n");
      assert.equal(ndjson.length, PENGUIN_ROWS);
      assert.deepEqual(
        JSON.parse(ndjson[0]),
        JSON.parse(new TextDecoder().decode(read(SAMPLE_FILES.json)))[0],
      );
      const parquet = pl.readParquet(Buffer.from(read(SAMPLE_FILES.parquet)));
      const arrow = pl.readIPC(Buffer.from(read(SAMPLE_FILES.arrow)));
      assert.equal(parquet.height, PENGUIN_ROWS);
      assert.ok(parquet.frameEqual(csv), "parquet equals csv");
      assert.ok(arrow.frameEqual(csv), "arrow equals csv");
      assert.deepEqual(await gunzip(read(SAMPLE_FILES.csvGz)), read(SAMPLE_FILES.csv));
      const big = pl.readParquet(Buffer.from(read(SAMPLE_CASES.parquetLarge)), { nRows: 5 });
      assert.deepEqual(big.columns, ["date", "delay", "distance", "origin", "destination"]);
    });

    await t.step("gzip'd CSV inside a dataset matches its recorded uncompressed size", async () => {
      const bytes = await gunzip(Deno.readFileSync(disk(a, SAMPLE_CASES.csvGz)));
      const fileAvus = readJson<DiskAvu[]>(
        a,
        SAMPLE_CASES.csvGz.slice(1).replace(/\/([^/]+)$/, "/.$1.avus.json"),
      );
      assert.equal(String(bytes.length), values(fileAvus, "uncompressed_size")[0]);
    });

    await t.step("every PNG is a valid image (signature, CRCs, pixel data size)", async () => {
      const pngs = [...tree.keys()].filter((rel) => rel.endsWith(".png"));
      assert.ok(pngs.length >= 7);
      for (const rel of pngs) {
        const { width, height, colours } = await decodePng(Deno.readFileSync(join(a, rel)));
        assert.ok(width > 0 && height > 0, rel);
        // Our own renderings must show data, not a blank canvas (the icons are palette PNGs).
        if (!rel.includes("/icons/")) assert.ok(colours >= 4, `${rel}: ${colours} colours`);
      }
    });

    await t.step("sidecars are dotfiles beside what they describe", () => {
      for (const rel of sidecars.keys()) {
        const name = rel.split("/").at(-1)!;
        assert.ok(name.startsWith("."), rel);
        if (name !== ".avus.json") {
          const described = rel.replace(/\/\.([^/]+)\.avus\.json$/, "/$1");
          assert.equal(tree.get(described)?.type, "file", rel);
        }
      }
    });

    await t.step("folder mtimes follow their newest visible entry; fixed dates", () => {
      for (const d of SAMPLE_DATASETS) {
        const rel = d.path.slice(1);
        const children = [...tree].filter(([p]) =>
          p.startsWith(`${rel}/`) && !p.slice(rel.length + 1).includes("/") &&
          !p.split("/").at(-1)!.startsWith(".")
        );
        const newest = Math.max(...children.map(([, e]) => e.mtime));
        assert.equal(tree.get(rel)!.mtime, newest, d.name);
      }
      for (const [rel, e] of tree) assert.ok(e.mtime < Date.UTC(2025, 0, 1), rel);
    });

    await t.step("ensureSampleStore reuses an up-to-date store", async () => {
      Deno.writeTextFileSync(join(a, "marker.txt"), "kept");
      assert.equal(await isSampleStoreCurrent(a), true);
      assert.equal(await ensureSampleStore(a), a);
      assert.equal(Deno.readTextFileSync(join(a, "marker.txt")), "kept");
      assert.deepEqual(leftovers(a), []);
    });

    // The second build: two processes at once find the store stale; one rebuilds it while the
    // other waits, and the rebuilt store must equal the first build.
    await t.step(
      "ensureSampleStore: two processes at once rebuild a stale store once, identical in paths, types, bytes and mtimes",
      async () => {
        const stamp = readJson<Record<string, unknown>>(a, STAMP_FILE);
        Deno.writeTextFileSync(join(a, STAMP_FILE), JSON.stringify({ ...stamp, version: 0 }));
        assert.equal(await isSampleStoreCurrent(a), false);
        const stale = Deno.statSync(a).ino;
        const reports = await Promise.all([ensureInChild(a), ensureInChild(a)]);
        assert.deepEqual(reports.map((r) => r.path), [a, a]);
        // The store each process saw is the same directory: the second waited and reused it.
        assert.equal(reports[0].ino, reports[1].ino);
        assert.notEqual(reports[0].ino, stale, "the stale store was replaced");
        assert.equal(await isSampleStoreCurrent(a), true);
        assert.throws(() => Deno.statSync(join(a, "marker.txt")), Deno.errors.NotFound);
        assert.deepEqual(leftovers(a), []);
        const rebuilt = snapshot(a);
        assert.equal(rebuilt.size, tree.size);
        for (const [rel, entry] of tree) assert.deepEqual(rebuilt.get(rel), entry, rel);
      },
    );
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("buildSampleStore refuses to replace a directory that is not a sample store", async () => {
  const parent = await Deno.makeTempDir({ prefix: "tern-sample-" });
  try {
    const dir = join(parent, "thesis");
    Deno.mkdirSync(dir);
    Deno.writeTextFileSync(join(dir, "chapter1.tex"), "precious");
    await assert.rejects(buildSampleStore(dir), (e: unknown) => {
      assert.ok(e instanceof SampleStoreError);
      assert.match(e.message, /not a tern sample store/);
      assert.ok(e.message.includes(dir));
      return true;
    });
    assert.equal(Deno.readTextFileSync(join(dir, "chapter1.tex")), "precious");
    Deno.writeTextFileSync(join(parent, "file"), "x");
    await assert.rejects(buildSampleStore(join(parent, "file")), /is not a directory/);
    await assert.rejects(buildSampleStore(""), SampleStoreError);
    assert.deepEqual([...Deno.readDirSync(parent)].map((e) => e.name).sort(), ["file", "thesis"]);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
