/**
 * File bodies: `display-download` (detected media type, inline or attachment),
 * `fileio/download` (always an `application/octet-stream` attachment) and the anonymous
 * `dav-anon` tree (plain downloads of public files, with single byte-range support as
 * WebDAV servers offer). Bodies stream from disk with `Content-Length` set. All three send a strong
 * `ETag` and `Last-Modified` and answer conditional requests (see `../conditional.ts`).
 *
 * @module
 */

import { preconditions, rangeAllowed } from "../conditional.ts";
import { badOrMissingField, requestFailed } from "../errors.ts";
import { detectMediaType, mediaTypeFromName } from "../media.ts";
import { SNIFF_BYTES } from "../../registry/format_detection.ts";
import { ParamCheck } from "../params.ts";
import { ANONYMOUS } from "../permissions.ts";
import { type Reply, textReply } from "../reply.ts";
import type { DiskStore, Item } from "../disk_store.ts";
import type { Call } from "./call.ts";

/**
 * A `Content-Disposition` value in the newest data-info form: an ASCII fallback `filename`
 * (non-printable or non-ASCII characters, `"` and `\` replaced by `_`) and the exact name as
 * RFC 5987 `filename*`.
 *
 * @example
 * ```ts
 * import { contentDisposition } from "./downloads.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   contentDisposition("attachment", "café data.csv"),
 *   `attachment; filename="caf_ data.csv"; filename*=UTF-8''caf%C3%A9%20data.csv`,
 * );
 * ```
 */
export function contentDisposition(kind: "attachment" | "inline", name: string): string {
  const wellFormed = name.toWellFormed();
  const fallback = Array.from(wellFormed, (char) => {
    const code = char.codePointAt(0)!;
    return code >= 0x20 && code < 0x7f && char !== '"' && char !== "\\" ? char : "_";
  }).join("");
  const encoded = encodeURIComponent(wellFormed).replace(
    /[*'()]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

async function sniff(file: Deno.FsFile): Promise<Uint8Array> {
  const head = new Uint8Array(SNIFF_BYTES);
  let filled = 0;
  while (filled < head.length) {
    const count = await file.read(head.subarray(filled));
    if (count === null || count === 0) break;
    filled += count;
  }
  await file.seek(0, Deno.SeekMode.Start);
  return head.subarray(0, filled);
}

/**
 * The media type a file's download reports (by name, else by content).
 *
 * @example
 * ```ts
 * import { DiskStore } from "../disk_store.ts";
 * import { fileMediaType } from "./downloads.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const store = await DiskStore.open(root, "iplant");
 * await Deno.writeTextFile(`${root}/iplant/home/shared/notes`, "plain words");
 * const found = await store.lookup("/iplant/home/shared/notes", "anonymous");
 * assert.ok(found.found === "item");
 * assert.equal(await fileMediaType(store, found.item), "text/plain");
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function fileMediaType(store: DiskStore, item: Item): Promise<string> {
  // A name that says what the file is spares opening it (a stat of many files asks for each).
  const byName = mediaTypeFromName(item.name);
  if (byName !== undefined && byName !== "text/plain") return byName;
  using file = await store.open(item);
  return detectMediaType(item.name, await sniff(file));
}

function dataInfoUrl(path: string): string {
  return `http://data-info/data/path${path}`;
}

/** Resolves a download path the way data-info does: any failure is a 500 request failure. */
async function downloadable(call: Call, path: string): Promise<Item> {
  const found = await call.store.lookup(path, call.user);
  if (found.found !== "item") {
    throw requestFailed(`GET ${dataInfoUrl(found.path)} had a service error: internal error`);
  }
  if (found.item.kind !== "file") {
    throw requestFailed(
      `interal error related to usage of GET ${dataInfoUrl(found.item.path)}: bad request`,
    );
  }
  return found.item;
}

/**
 * The answer for a file version: a 304 or 412 when preconditions force one, else its bytes.
 * `disposition` adds `Content-Disposition`; `detect` sniffs the media type (else
 * `application/octet-stream`); `ranges` honours `Range`.
 */
async function fileReply(
  call: Call,
  item: Item,
  how: { disposition?: "attachment" | "inline"; detect: boolean; ranges?: boolean },
): Promise<Reply> {
  const file = await call.store.open(item);
  try {
    const validators = await call.store.validators(file);
    const size = validators.size;
    const headers = new Headers({
      "etag": validators.etag,
      "last-modified": validators.lastModified,
    });
    const outcome = preconditions(call.headers, validators);
    if (outcome !== "proceed") {
      file.close();
      if (outcome === "failed") return textReply(412, "Precondition Failed\n");
      // RFC 9110 §8.6: a 304's Content-Length, if any, is the one a 200 would have had.
      headers.set("content-length", String(size));
      return { status: 304, headers, body: null };
    }
    headers.set(
      "content-type",
      how.detect ? detectMediaType(item.name, await sniff(file)) : "application/octet-stream",
    );
    if (how.disposition) {
      headers.set("content-disposition", contentDisposition(how.disposition, item.name));
    }
    if (how.ranges) headers.set("accept-ranges", "bytes");
    headers.set("content-security-policy", "sandbox");
    // A stale If-Range gets the whole current body: never a range of other bytes.
    const asked = how.ranges && rangeAllowed(call.headers, validators);
    const range = parseRange(asked ? call.headers.get("range") : null, size);
    if (range === "unsatisfiable") {
      file.close();
      headers.set("content-range", `bytes */${size}`);
      headers.set("content-length", "0");
      return { status: 416, headers, body: null };
    }
    const start = range?.start ?? 0;
    const length = range ? range.end - range.start + 1 : size;
    if (range) headers.set("content-range", `bytes ${range.start}-${range.end}/${size}`);
    headers.set("content-length", String(length));
    return {
      status: range ? 206 : 200,
      headers,
      body: { file, start, length, size },
      download: true,
    };
  } catch (error) {
    file[Symbol.dispose](); // unlike close(), no throw when a forced answer closed it already
    throw error;
  }
}

/**
 * Answers `display-download`: `attachment` defaults to `"1"`, and only exactly `"1"` means
 * attachment; anything else is inline.
 *
 * @example
 * ```ts
 * import { displayDownloadHandler } from "./downloads.ts";
 * import type { Handler } from "./call.ts";
 * const handler: Handler = displayDownloadHandler;
 * ```
 */
export async function displayDownloadHandler(call: Call): Promise<Reply> {
  const values = call.params.getAll("path");
  if (values.length !== 1 || values[0].trim() === "" || values[0].includes("\u0000")) {
    throw badOrMissingField("path");
  }
  const item = await downloadable(call, values[0]);
  const attachment = (call.params.get("attachment") ?? "1") === "1";
  return await fileReply(call, item, {
    disposition: attachment ? "attachment" : "inline",
    detect: true,
  });
}

/**
 * Answers `fileio/download`: always an attachment of type `application/octet-stream`.
 *
 * @example
 * ```ts
 * import { fileioDownloadHandler } from "./downloads.ts";
 * import type { Handler } from "./call.ts";
 * const handler: Handler = fileioDownloadHandler;
 * ```
 */
export async function fileioDownloadHandler(call: Call): Promise<Reply> {
  const check = new ParamCheck(call.params);
  const path = check.string("path", { required: true, nonBlank: true });
  check.done();
  const item = await downloadable(call, path!);
  return await fileReply(call, item, { disposition: "attachment", detect: false });
}

/**
 * The single byte range a `Range` header asks for, `"unsatisfiable"`, or `undefined` when the
 * header is absent, malformed or asks for several ranges (then the whole file is sent). The
 * unit is case-insensitive and whitespace around `=` and `-` is allowed, as RFC 9110's list
 * syntax and real clients have it (`Bytes=0-9`, `bytes= 0-9`).
 *
 * @example
 * ```ts
 * import { parseRange } from "./downloads.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseRange("bytes=0-9", 100), { start: 0, end: 9 });
 * assert.deepEqual(parseRange("bytes=-10", 100), { start: 90, end: 99 });
 * assert.equal(parseRange("bytes=200-", 100), "unsatisfiable");
 * assert.deepEqual(parseRange("Bytes= 0 - 9", 100), { start: 0, end: 9 });
 * ```
 */
export function parseRange(
  header: string | null,
  size: number,
): { start: number; end: number } | "unsatisfiable" | undefined {
  const match = /^bytes[ \t]*=[ \t]*(\d*)[ \t]*-[ \t]*(\d*)$/i.exec(header?.trim() ?? "");
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== "" && Number(match[2]) < start) return undefined;
  if (start >= size) return "unsatisfiable";
  return { start, end };
}

function notFound(): Reply {
  return textReply(404, "Not Found\n");
}

/**
 * Answers `GET /dav-anon/<data-store path>`: files the anonymous user can read, as plain
 * downloads (no `Content-Disposition`), with `Range` support. Everything else is a 404 that
 * does not say whether the item exists.
 *
 * @example
 * ```ts
 * import { davAnonHandler } from "./downloads.ts";
 * import type { Handler } from "./call.ts";
 * const handler: Handler = davAnonHandler;
 * ```
 */
export async function davAnonHandler(call: Call): Promise<Reply> {
  const encoded = call.url.pathname.slice("/dav-anon".length);
  let segments: string[];
  try {
    segments = encoded.split("/").map(decodeURIComponent);
  } catch {
    return notFound();
  }
  // An encoded slash would be a slash inside a name, which no item has.
  if (segments.some((segment) => segment.includes("/"))) return notFound();
  const found = await call.store.lookup(segments.join("/"), ANONYMOUS);
  if (found.found !== "item" || found.item.kind !== "file") return notFound();
  return await fileReply(call, found.item, { detect: true, ranges: true });
}
