/**
 * What kind of file an item is: the Terrain `infoType` (from the file name, as the data store's
 * file-type detection would label it) and the media type downloads and manifests report.
 *
 * @module
 */

import { formatOfContent, formatOfFileName, looksLikeText } from "../registry/file_formats.ts";

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
  return formatOfFileName(name)?.infoType ?? "unknown";
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
  return formatOfFileName(name)?.mediaType;
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
  const signed = formatOfContent(head)?.mediaType;
  if (signed !== undefined) return signed;
  return looksLikeText(head) ? "text/plain" : "application/octet-stream";
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
