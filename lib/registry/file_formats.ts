/**
 * The one table of file formats tern knows: for each, its name extensions, signature bytes,
 * media type, Terrain info type and, for tables, how the readers take it. The data readers, the
 * cache, the views, the CLI, the client's info-type list and the embedded server's media types
 * all derive their lists from here, so a new format is one entry in this file.
 *
 * A leaf module: it imports nothing, so both the client side and the server may import it.
 *
 * @module
 */

/**
 * How the dataframe readers take a table format.
 *
 * @example
 * ```ts
 * import type { TableReading } from "./file_formats.ts";
 * import assert from "node:assert/strict";
 *
 * const csv: TableReading = { reader: "csv", streamed: true, copyExtension: ".csv", byPath: true, remoteScan: false };
 * assert.equal(csv.streamed, true);
 * ```
 */
export interface TableReading {
  /** The reader (the `format` option's value); `.tab` and `.tsv` both read as `"tsv"`. */
  readonly reader: string;
  /** Whether the first rows arrive before the rest is read (a preview stops the download). */
  readonly streamed: boolean;
  /** The extension a cached copy gets, the one nodejs-polars accepts for this reader by path. */
  readonly copyExtension: string;
  /** Whether nodejs-polars reads a local copy by path (else from a buffer). */
  readonly byPath: boolean;
  /** Whether Polars can scan it in part over HTTP byte ranges. */
  readonly remoteScan: boolean;
}

/**
 * One file format.
 *
 * @example
 * ```ts
 * import type { FileFormat } from "./file_formats.ts";
 * import assert from "node:assert/strict";
 *
 * const png: FileFormat = { id: "png", label: "PNG image", extensions: ["png"], mediaType: "image/png" };
 * assert.equal(png.extensions[0], "png");
 * ```
 */
export interface FileFormat {
  /** A short unique name. */
  readonly id: string;
  /** What it is called in messages: "CSV", "a PNG image" reads "PNG image" here. */
  readonly label: string;
  /** Lower-case name extensions without the dot (`vcf.gz` for a two-part one). */
  readonly extensions: readonly string[];
  /** The media type a download of it reports. */
  readonly mediaType?: string;
  /** Terrain's `info-type` for it, when the data store detects it. */
  readonly infoType?: string;
  /** Leading bytes that identify it whatever its name. */
  readonly magic?: readonly (readonly number[])[];
  /** Why the readers cannot take it, beyond its name ("unpack it first"). */
  readonly hint?: string;
  /** How the dataframe readers take it, for table formats. */
  readonly table?: TableReading;
}

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** How both Arrow IPC forms, file and stream, are read (detection tells which reader call). */
const ARROW_TABLE = {
  reader: "arrow",
  streamed: false,
  copyExtension: ".ipc",
  byPath: true,
  remoteScan: false,
} as const;

/**
 * The table formats the dataframe readers take, typed exactly so {@linkcode TableFormat} is
 * derived from them: the registry's first part.
 *
 * @example
 * ```ts
 * import { TABLE_FORMAT_ENTRIES } from "./file_formats.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(TABLE_FORMAT_ENTRIES.find((entry) => entry.id === "tsv")?.extensions, ["tsv", "tab"]);
 * ```
 */
export const TABLE_FORMAT_ENTRIES = [
  {
    id: "csv",
    label: "CSV",
    extensions: ["csv"],
    mediaType: "text/csv",
    infoType: "csv",
    table: {
      reader: "csv",
      streamed: true,
      copyExtension: ".csv",
      byPath: true,
      remoteScan: false,
    },
  },
  {
    id: "tsv",
    label: "TSV",
    extensions: ["tsv", "tab"],
    mediaType: "text/tab-separated-values",
    infoType: "tsv",
    table: {
      reader: "tsv",
      streamed: true,
      copyExtension: ".csv",
      byPath: true,
      remoteScan: false,
    },
  },
  {
    id: "json",
    label: "JSON",
    extensions: ["json"],
    mediaType: "application/json",
    table: {
      reader: "json",
      streamed: false,
      copyExtension: ".json",
      byPath: true,
      remoteScan: false,
    },
  },
  {
    id: "ndjson",
    label: "JSON Lines",
    extensions: ["ndjson", "jsonl", "ldjson"],
    mediaType: "application/x-ndjson",
    // nodejs-polars 0.25 reads JSON Lines only from a Buffer (its path route calls a missing
    // binding).
    table: {
      reader: "ndjson",
      streamed: true,
      copyExtension: ".ndjson",
      byPath: false,
      remoteScan: false,
    },
  },
  {
    id: "parquet",
    label: "Parquet",
    extensions: ["parquet", "pq"],
    mediaType: "application/vnd.apache.parquet",
    magic: [[0x50, 0x41, 0x52, 0x31]], // "PAR1"
    table: {
      reader: "parquet",
      streamed: false,
      copyExtension: ".parquet",
      byPath: true,
      remoteScan: true,
    },
  },
  {
    id: "arrow",
    label: "Arrow IPC",
    extensions: ["arrow", "feather", "ipc"],
    mediaType: "application/vnd.apache.arrow.file",
    magic: [[0x41, 0x52, 0x52, 0x4f, 0x57, 0x31]], // "ARROW1"
    table: ARROW_TABLE,
  },
  {
    id: "arrows",
    label: "Arrow IPC stream",
    extensions: ["arrows"],
    mediaType: "application/vnd.apache.arrow.stream",
    table: ARROW_TABLE,
  },
  {
    id: "xlsx",
    label: "Excel workbook",
    extensions: ["xlsx", "xlsm"],
    mediaType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    // A zip (its signature is the zip entry's) holding xl/workbook.xml; one sheet is read whole.
    table: {
      reader: "excel",
      streamed: false,
      copyExtension: ".xlsx",
      byPath: false,
      remoteScan: false,
    },
  },
] as const satisfies readonly FileFormat[];

/** A format Terrain detects but tern neither reads nor types: named after its info type. */
const terrain = (infoType: string, ...extensions: string[]): FileFormat => ({
  id: infoType,
  label: infoType,
  extensions,
  infoType,
});

const ONLY_GZIP = "only gzip is decompressed";

/**
 * Every format tern knows, tables first.
 *
 * @example
 * ```ts
 * import { FORMATS } from "./file_formats.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(new Set(FORMATS.map((format) => format.id)).size, FORMATS.length);
 * ```
 */
export const FORMATS: readonly FileFormat[] = Object.freeze([
  ...TABLE_FORMAT_ENTRIES,
  {
    id: "gzip",
    label: "gzip file",
    extensions: ["gz", "tgz"],
    mediaType: "application/gzip",
    magic: [[0x1f, 0x8b]],
  },
  {
    id: "text",
    label: "plain text",
    extensions: ["txt", "text", "dat", "data"],
    mediaType: "text/plain",
  },
  {
    id: "png",
    label: "PNG image",
    extensions: ["png"],
    mediaType: "image/png",
    magic: [[0x89, 0x50, 0x4e, 0x47]],
  },
  {
    id: "jpeg",
    label: "JPEG image",
    extensions: ["jpg", "jpeg"],
    mediaType: "image/jpeg",
    magic: [[0xff, 0xd8, 0xff]],
  },
  {
    id: "gif",
    label: "GIF image",
    extensions: ["gif"],
    mediaType: "image/gif",
    magic: [ascii("GIF8")],
  },
  {
    id: "tiff",
    label: "TIFF image",
    extensions: ["tif", "tiff"],
    mediaType: "image/tiff",
    magic: [[0x49, 0x49, 0x2a, 0x00], [0x4d, 0x4d, 0x00, 0x2a]],
  },
  { id: "svg", label: "SVG image", extensions: ["svg"], mediaType: "image/svg+xml" },
  { id: "webp", label: "WebP image", extensions: ["webp"], mediaType: "image/webp" },
  {
    id: "pdf",
    label: "PDF document",
    extensions: ["pdf"],
    mediaType: "application/pdf",
    infoType: "pdf",
    magic: [ascii("%PDF-")],
  },
  {
    id: "zip",
    label: "ZIP archive",
    extensions: ["zip"],
    mediaType: "application/zip",
    infoType: "zip",
    magic: [[0x50, 0x4b, 0x03, 0x04]],
    hint: "unpack it first",
  },
  {
    id: "jar",
    label: "Java archive",
    extensions: ["jar"],
    mediaType: "application/java-archive",
    infoType: "jar",
  },
  {
    id: "xls",
    label: "Excel 97-2003 workbook",
    extensions: ["xls"],
    mediaType: "application/vnd.ms-excel",
    magic: [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]], // OLE2 compound file
    // The one JavaScript reader of .xls (SheetJS) is no longer published to npm with fixes.
    hint: "save it as .xlsx in Excel or LibreOffice first",
  },
  { id: "tar", label: "tar archive", extensions: ["tar"], mediaType: "application/x-tar" },
  {
    id: "bzip2",
    label: "bzip2 file",
    extensions: ["bz2"],
    mediaType: "application/x-bzip2",
    magic: [ascii("BZh")],
    hint: ONLY_GZIP,
  },
  {
    id: "xz",
    label: "xz file",
    extensions: ["xz"],
    mediaType: "application/x-xz",
    magic: [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
    hint: ONLY_GZIP,
  },
  {
    id: "zstd",
    label: "zstd file",
    extensions: ["zst"],
    mediaType: "application/zstd",
    magic: [[0x28, 0xb5, 0x2f, 0xfd]],
    hint: ONLY_GZIP,
  },
  {
    id: "hdf5",
    label: "HDF5 file",
    extensions: ["h5", "hdf5"],
    mediaType: "application/x-hdf5",
    magic: [[0x89, 0x48, 0x44, 0x46]],
  },
  { id: "html", label: "HTML", extensions: ["html", "htm"], mediaType: "text/html" },
  { id: "markdown", label: "Markdown", extensions: ["md"], mediaType: "text/markdown" },
  { id: "xml", label: "XML", extensions: ["xml"], mediaType: "application/xml" },
  { id: "yaml", label: "YAML", extensions: ["yaml", "yml"], mediaType: "application/yaml" },
  {
    id: "python",
    label: "Python source",
    extensions: ["py"],
    mediaType: "text/x-python",
    infoType: "python",
  },
  { id: "r", label: "R source", extensions: ["r"], mediaType: "text/x-rsrc" },
  {
    id: "sh",
    label: "shell script",
    extensions: ["sh"],
    mediaType: "application/x-sh",
    infoType: "sh",
  },
  // Terrain's other info types (heuristomancer's grammar names).
  terrain("ace", "ace"),
  terrain("bam", "bam"),
  terrain("bash", "bash"),
  terrain("bed", "bed"),
  { ...terrain("bedgz", "bed.gz"), mediaType: "application/gzip" },
  terrain("bigbed", "bb", "bigbed"),
  terrain("bigwig", "bw", "bigwig"),
  terrain("blast", "blast"),
  terrain("bowtie"),
  terrain("clustalw", "aln", "clustal", "clustalw"),
  terrain("codata"),
  terrain("csh", "csh"),
  terrain("embl", "embl"),
  terrain("fasta", "fa", "faa", "fas", "fasta", "ffn", "fna"),
  terrain("fastq", "fastq", "fq"),
  terrain("fastxy"),
  terrain("game"),
  terrain("gcg"),
  terrain("gcgblast"),
  terrain("gcgfasta"),
  terrain("gde"),
  terrain("genbank", "gb", "gbk", "genbank"),
  terrain("genscan"),
  terrain("gff", "gff", "gff3"),
  terrain("gtf", "gtf"),
  terrain("hmmer", "hmm"),
  terrain("ht-analysis-path-list"),
  terrain("mase"),
  terrain("mega", "meg", "mega"),
  terrain("msf", "msf"),
  terrain("multi-input-path-list"),
  terrain("newick", "newick", "nwk", "tre"),
  terrain("nexml", "nexml"),
  terrain("nexus", "nex", "nexus", "nxs"),
  terrain("perl", "pl", "pm"),
  terrain("phylip", "phy", "phylip"),
  terrain("phyloxml", "phyloxml"),
  terrain("pir", "pir"),
  terrain("prodom"),
  terrain("rsf"),
  terrain("selex"),
  terrain("sff", "sff"),
  terrain("stockholm", "sto", "stockholm"),
  terrain("swiss"),
  terrain("tcsh", "tcsh"),
  terrain("vcf", "vcf"),
  { ...terrain("vcfgz", "vcf.gz"), mediaType: "application/gzip" },
]);

/**
 * A table format the readers support (the `format` option's values).
 *
 * @example
 * ```ts
 * import type { TableFormat } from "./file_formats.ts";
 * import assert from "node:assert/strict";
 *
 * const format: TableFormat = "ndjson";
 * assert.equal(format, "ndjson");
 * ```
 */
export type TableFormat = (typeof TABLE_FORMAT_ENTRIES)[number]["table"]["reader"];

/**
 * Every {@linkcode TableFormat}, in registry order.
 *
 * @example
 * ```ts
 * import { TABLE_FORMATS } from "./file_formats.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(TABLE_FORMATS, ["csv", "tsv", "json", "ndjson", "parquet", "arrow", "excel"]);
 * ```
 */
export const TABLE_FORMATS: readonly TableFormat[] = Object.freeze([
  ...new Set(TABLE_FORMAT_ENTRIES.map((format) => format.table.reader)),
]);

/**
 * The table formats in words with their extensions, for error messages and help.
 *
 * @example
 * ```ts
 * import { SUPPORTED_FORMATS } from "./file_formats.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(SUPPORTED_FORMATS.startsWith("CSV (.csv), TSV (.tsv .tab), "));
 * assert.ok(SUPPORTED_FORMATS.endsWith("and gzip of the text formats (.gz)"));
 * ```
 */
export const SUPPORTED_FORMATS: string = [
  ...TABLE_FORMAT_ENTRIES.map((format) =>
    `${format.label} (${format.extensions.map((e) => `.${e}`).join(" ")})`
  ),
  "and gzip of the text formats (.gz)",
].join(", ");

/**
 * Every `info-type` value Terrain's filter accepts: each format's info type, then `unknown`
 * (which also matches untyped files).
 *
 * @example
 * ```ts
 * import { INFO_TYPES } from "./file_formats.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(INFO_TYPES.includes("fastq"));
 * assert.equal(INFO_TYPES.at(-1), "unknown");
 * ```
 */
export const INFO_TYPES: readonly string[] = Object.freeze([
  ...FORMATS.flatMap((format) => format.infoType === undefined ? [] : [format.infoType]).sort(),
  "unknown",
]);

const BY_EXTENSION: ReadonlyMap<string, FileFormat> = new Map(
  FORMATS.flatMap((format) => format.extensions.map((extension) => [extension, format] as const)),
);

/**
 * The format a name extension (without the dot, any case) stands for.
 *
 * @example
 * ```ts
 * import { formatOfExtension } from "./file_formats.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatOfExtension("Feather")?.table?.reader, "arrow");
 * assert.equal(formatOfExtension("xyz"), undefined);
 * ```
 */
export function formatOfExtension(extension: string): FileFormat | undefined {
  return BY_EXTENSION.get(extension.toLowerCase());
}

const BY_INFO_TYPE: ReadonlyMap<string, FileFormat> = new Map(
  FORMATS.flatMap((format) => format.infoType === undefined ? [] : [[format.infoType, format]]),
);

/**
 * The format Terrain's `info-type` names, if tern knows it.
 *
 * @example
 * ```ts
 * import { formatOfInfoType } from "./file_formats.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatOfInfoType("tsv")?.table?.reader, "tsv");
 * assert.equal(formatOfInfoType("unknown"), undefined);
 * ```
 */
export function formatOfInfoType(infoType: string): FileFormat | undefined {
  return BY_INFO_TYPE.get(infoType);
}

/**
 * The format a file name's extension stands for, a two-part one (`x.vcf.gz`) before the last.
 *
 * @example
 * ```ts
 * import { formatOfFileName } from "./file_formats.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatOfFileName("calls.VCF.gz")?.id, "vcfgz");
 * assert.equal(formatOfFileName("penguins.csv.gz")?.id, "gzip");
 * assert.equal(formatOfFileName("README"), undefined);
 * ```
 */
export function formatOfFileName(name: string): FileFormat | undefined {
  const parts = name.toLowerCase().split(".");
  if (parts.length < 2 || (parts.length === 2 && parts[0] === "")) return undefined;
  const single = parts[parts.length - 1];
  const double = parts.length >= 3 ? `${parts[parts.length - 2]}.${single}` : "";
  return BY_EXTENSION.get(double) ?? BY_EXTENSION.get(single);
}

/**
 * The last extension of a file name, lower case and without the dot (`""` for none or a dot
 * file).
 *
 * @example
 * ```ts
 * import { extensionOf } from "./file_formats.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(extensionOf("a.CSV"), "csv");
 * assert.equal(extensionOf(".bashrc"), "");
 * ```
 */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot + 1).toLowerCase();
}

/**
 * The registry entry of a table format.
 *
 * @example
 * ```ts
 * import { tableFormat } from "./file_formats.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(tableFormat("parquet").table.remoteScan, true);
 * ```
 */
export function tableFormat(reader: TableFormat): FileFormat & { table: TableReading } {
  return TABLE_FORMAT_ENTRIES.find((format) => format.table.reader === reader)!;
}

/**
 * The format whose signature `head` starts with, if any.
 *
 * @example
 * ```ts
 * import { formatOfContent } from "./file_formats.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatOfContent(new TextEncoder().encode("PAR1…"))?.id, "parquet");
 * assert.equal(formatOfContent(new TextEncoder().encode("a,b")), undefined);
 * ```
 */
export function formatOfContent(head: Uint8Array): FileFormat | undefined {
  // Plain loops: asked of every file read, where closures per format cost more than the bytes.
  for (const format of FORMATS) {
    for (const signature of format.magic ?? []) {
      if (startsWithBytes(head, signature)) return format;
    }
  }
  return undefined;
}

/**
 * Whether `bytes` starts with `signature`.
 *
 * @example
 * ```ts
 * import { startsWithBytes } from "./file_formats.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(startsWithBytes(new Uint8Array([1, 2, 3]), [1, 2]));
 * ```
 */
export function startsWithBytes(bytes: Uint8Array, signature: readonly number[]): boolean {
  if (bytes.length < signature.length) return false;
  for (let i = 0; i < signature.length; i++) if (bytes[i] !== signature[i]) return false;
  return true;
}

/**
 * Whether `head` is UTF-8 text without NUL bytes; a multi-byte character cut by the end of
 * `head` (a sniff window) is not held against it.
 *
 * @example
 * ```ts
 * import { looksLikeText } from "./file_formats.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(looksLikeText(new TextEncoder().encode("héllo")));
 * assert.ok(!looksLikeText(new Uint8Array([0x41, 0x00])));
 * ```
 */
export function looksLikeText(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
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
    return true;
  } catch {
    return false;
  }
}
