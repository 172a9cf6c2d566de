/**
 * What kind of file an item is: the Terrain `infoType` (from the file name, as the data store's
 * file-type detection would label it) and the media type downloads and manifests report.
 *
 * @module
 */

/**
 * Every `info-type` value the real service accepts (heuristomancer's grammar names plus
 * `unknown`).
 *
 * @example
 * ```ts
 * import { INFO_TYPES } from "./media.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(INFO_TYPES.includes("csv"));
 * ```
 */
export const INFO_TYPES: readonly string[] = [
  "ace",
  "bam",
  "bash",
  "bed",
  "bedgz",
  "bigbed",
  "bigwig",
  "blast",
  "bowtie",
  "clustalw",
  "codata",
  "csh",
  "csv",
  "embl",
  "fasta",
  "fastq",
  "fastxy",
  "game",
  "gcg",
  "gcgblast",
  "gcgfasta",
  "gde",
  "genbank",
  "genscan",
  "gff",
  "gtf",
  "hmmer",
  "ht-analysis-path-list",
  "jar",
  "mase",
  "mega",
  "msf",
  "multi-input-path-list",
  "newick",
  "nexml",
  "nexus",
  "pdf",
  "perl",
  "phylip",
  "phyloxml",
  "pir",
  "prodom",
  "python",
  "rsf",
  "selex",
  "sff",
  "sh",
  "stockholm",
  "swiss",
  "tcsh",
  "tsv",
  "vcf",
  "vcfgz",
  "zip",
  "unknown",
];

/** Two-part extensions are checked before single ones so `x.vcf.gz` is vcfgz, not unknown. */
const INFO_TYPE_BY_DOUBLE_EXTENSION: Record<string, string> = {
  "vcf.gz": "vcfgz",
  "bed.gz": "bedgz",
};

const INFO_TYPE_BY_EXTENSION: Record<string, string> = {
  ace: "ace",
  bam: "bam",
  bash: "bash",
  bed: "bed",
  bb: "bigbed",
  bigbed: "bigbed",
  bw: "bigwig",
  bigwig: "bigwig",
  blast: "blast",
  aln: "clustalw",
  clustal: "clustalw",
  clustalw: "clustalw",
  csh: "csh",
  csv: "csv",
  embl: "embl",
  fa: "fasta",
  faa: "fasta",
  fas: "fasta",
  fasta: "fasta",
  ffn: "fasta",
  fna: "fasta",
  fastq: "fastq",
  fq: "fastq",
  gb: "genbank",
  gbk: "genbank",
  genbank: "genbank",
  gff: "gff",
  gff3: "gff",
  gtf: "gtf",
  hmm: "hmmer",
  jar: "jar",
  meg: "mega",
  mega: "mega",
  msf: "msf",
  newick: "newick",
  nwk: "newick",
  tre: "newick",
  nexml: "nexml",
  nex: "nexus",
  nexus: "nexus",
  nxs: "nexus",
  pdf: "pdf",
  pl: "perl",
  pm: "perl",
  phy: "phylip",
  phylip: "phylip",
  phyloxml: "phyloxml",
  pir: "pir",
  py: "python",
  sff: "sff",
  sh: "sh",
  sto: "stockholm",
  stockholm: "stockholm",
  tcsh: "tcsh",
  tab: "tsv",
  tsv: "tsv",
  vcf: "vcf",
  zip: "zip",
};

const MEDIA_TYPE_BY_EXTENSION: Record<string, string> = {
  arrow: "application/vnd.apache.arrow.file",
  arrows: "application/vnd.apache.arrow.stream",
  bz2: "application/x-bzip2",
  csv: "text/csv",
  feather: "application/vnd.apache.arrow.file",
  gif: "image/gif",
  gz: "application/gzip",
  htm: "text/html",
  html: "text/html",
  jar: "application/java-archive",
  jpeg: "image/jpeg",
  jpg: "image/jpeg",
  json: "application/json",
  jsonl: "application/x-ndjson",
  md: "text/markdown",
  ndjson: "application/x-ndjson",
  parquet: "application/vnd.apache.parquet",
  pdf: "application/pdf",
  png: "image/png",
  py: "text/x-python",
  r: "text/x-rsrc",
  sh: "application/x-sh",
  svg: "image/svg+xml",
  tab: "text/tab-separated-values",
  tar: "application/x-tar",
  tgz: "application/gzip",
  tif: "image/tiff",
  tiff: "image/tiff",
  tsv: "text/tab-separated-values",
  txt: "text/plain",
  webp: "image/webp",
  xml: "application/xml",
  xz: "application/x-xz",
  yaml: "application/yaml",
  yml: "application/yaml",
  zip: "application/zip",
  zst: "application/zstd",
};

/** Magic numbers checked when the name alone says nothing useful. */
const SIGNATURES: ReadonlyArray<readonly [number[], string]> = [
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "image/png"],
  [[0xff, 0xd8, 0xff], "image/jpeg"],
  [[0x47, 0x49, 0x46, 0x38], "image/gif"],
  [[0x25, 0x50, 0x44, 0x46, 0x2d], "application/pdf"],
  [[0x1f, 0x8b], "application/gzip"],
  [[0x50, 0x4b, 0x03, 0x04], "application/zip"],
  [[0x50, 0x41, 0x52, 0x31], "application/vnd.apache.parquet"],
  [[0x41, 0x52, 0x52, 0x4f, 0x57, 0x31], "application/vnd.apache.arrow.file"],
  [[0x42, 0x5a, 0x68], "application/x-bzip2"],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], "application/x-xz"],
  [[0x28, 0xb5, 0x2f, 0xfd], "application/zstd"],
];

/** How many leading bytes content sniffing looks at. */
export const SNIFF_BYTES = 4096;

function extensions(name: string): { single: string; double: string } {
  const lower = name.toLowerCase();
  const parts = lower.split(".");
  if (parts.length < 2 || (parts.length === 2 && parts[0] === "")) {
    return { single: "", double: "" };
  }
  const single = parts[parts.length - 1];
  const double = parts.length >= 3 ? `${parts[parts.length - 2]}.${single}` : "";
  return { single, double };
}

/**
 * The Terrain `infoType` for a file name, or `"unknown"` when the name says nothing.
 *
 * @example
 * ```ts
 * import { infoTypeFromName } from "./media.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(infoTypeFromName("reads_R1.fq"), "fastq");
 * assert.equal(infoTypeFromName("calls.vcf.gz"), "vcfgz");
 * assert.equal(infoTypeFromName("notes.txt"), "unknown");
 * ```
 */
export function infoTypeFromName(name: string): string {
  const { single, double } = extensions(name);
  return INFO_TYPE_BY_DOUBLE_EXTENSION[double] ?? INFO_TYPE_BY_EXTENSION[single] ?? "unknown";
}

/**
 * The media type implied by a file name alone, or `undefined` when the name is not telling.
 *
 * @example
 * ```ts
 * import { mediaTypeFromName } from "./media.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(mediaTypeFromName("table.parquet"), "application/vnd.apache.parquet");
 * assert.equal(mediaTypeFromName("README"), undefined);
 * ```
 */
export function mediaTypeFromName(name: string): string | undefined {
  return MEDIA_TYPE_BY_EXTENSION[extensions(name).single];
}

/**
 * The media type implied by the first bytes of a file: a known signature, else `text/plain`
 * for UTF-8 text without NUL bytes, else `application/octet-stream`.
 *
 * `head` may end in the middle of a multi-byte character; that is not held against it.
 *
 * @example
 * ```ts
 * import { mediaTypeFromContent } from "./media.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(mediaTypeFromContent(new TextEncoder().encode("hello")), "text/plain");
 * assert.equal(mediaTypeFromContent(new Uint8Array([0, 1, 2])), "application/octet-stream");
 * ```
 */
export function mediaTypeFromContent(head: Uint8Array): string {
  for (const [signature, type] of SIGNATURES) {
    if (head.length >= signature.length && signature.every((byte, i) => head[i] === byte)) {
      return type;
    }
  }
  if (head.includes(0)) return "application/octet-stream";
  // Trim up to three trailing bytes that could be the start of a character cut by the sniff window.
  let end = head.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = head[end - back];
    if ((byte & 0xc0) === 0xc0) {
      end -= back;
      break;
    }
    if ((byte & 0x80) === 0) break;
  }
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head.subarray(0, end));
    return "text/plain";
  } catch {
    return "application/octet-stream";
  }
}

/**
 * The media type a download reports: from the name when that is specific, otherwise sniffed
 * from the first bytes (the way Tika falls back to content when the name gives only
 * `text/plain` or nothing).
 *
 * @example
 * ```ts
 * import { detectMediaType } from "./media.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(detectMediaType("a.csv", new Uint8Array()), "text/csv");
 * const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
 * assert.equal(detectMediaType("picture", png), "image/png");
 * ```
 */
export function detectMediaType(name: string, head: Uint8Array): string {
  const byName = mediaTypeFromName(name);
  if (byName !== undefined && byName !== "text/plain") return byName;
  return mediaTypeFromContent(head);
}
