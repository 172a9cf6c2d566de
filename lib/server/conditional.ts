/**
 * Conditional requests on file bodies (RFC 9110 §13): the validators a download sends (a strong
 * `ETag` and `Last-Modified`) and the outcome of `If-Match`, `If-Unmodified-Since`,
 * `If-None-Match`, `If-Modified-Since` and `If-Range`, evaluated in the order of §13.2.2.
 *
 * The `ETag` is the XXH64 hash of the bytes and their length, so it changes whenever the bytes do:
 * also after a same-size atomic rename within one second, an in-place edit within the file
 * system's timestamp grain, or a copy that kept the old modification time. Hashing costs one read
 * of the file (XXH64 runs at several GB/s), paid once per file version: the hash is remembered
 * under the version's identity on disk (device, inode, size, modification, change and birth
 * times), but only when that identity had been stable for two seconds (`file_hashes.ts`) before hashing
 * began. A change made later always moves the change time (ctime) past what was recorded, so a
 * remembered hash is never reused for other bytes; a file changed moments ago is hashed again on
 * each request (git's "racily clean" rule). For the same reason a settled identity is a strong
 * validator by itself, and files over 1 GiB are tagged by it (`"f-…"`) rather than read whole
 * before their first byte; only such a file tagged within two seconds of a change (hashed then)
 * changes its tag without changing its bytes, which costs a client a needless 412 or full body.
 *
 * @module
 */

import { type FileHashes, fileIdentity, isSettled } from "./file_hashes.ts";

/**
 * Files up to this size are tagged by their hash; larger settled ones by their identity alone
 * (hashing 1 GiB from a 500 MB/s disk would hold the first byte back two seconds).
 */
const HASHED_MAX = 1024 * 1024 * 1024;

/**
 * What identifies one version of an open file: its validators and the times conditions compare
 * (see {@link fileValidators}).
 *
 * @example
 * ```ts
 * import type { Validators } from "./conditional.ts";
 * const validators: Validators = {
 *   etag: '"xxh64-d24ec4f1a98c6e5b-1"', lastModified: "Tue, 01 Jun 2021 00:00:00 GMT",
 *   modifiedSeconds: 1622505600, changedSeconds: 1622505600, size: 1,
 * };
 * ```
 */
export type Validators = Awaited<ReturnType<typeof fileValidators>>;

/**
 * The validators of an open file, hashing its bytes through the same descriptor that will serve
 * them (so the tag describes the bytes sent even if the path was replaced meanwhile), the hash
 * remembered in `hashes` (the serving store's) once the file's identity has settled by its
 * clock, which also says what "now" is. Leaves the file positioned at its start. They are: `etag`, the strong entity tag, quoted;
 * `lastModified`, the modification time (never later than now) as an HTTP-date, and
 * `modifiedSeconds` the same in whole seconds since the epoch; `changedSeconds`, the later of
 * the modification and change times, when the bytes last moved; and the file's `size`.
 *
 * @example
 * ```ts
 * import { fileValidators } from "./conditional.ts";
 * import { FileHashes } from "./file_hashes.ts";
 * import assert from "node:assert/strict";
 *
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "a");
 * using file = await Deno.open(path);
 * const validators = await fileValidators(file, new FileHashes());
 * assert.equal(validators.etag, '"xxh64-d24ec4f1a98c6e5b-1"');
 * assert.equal(validators.size, 1);
 * await Deno.remove(path);
 * ```
 */
export async function fileValidators(file: Deno.FsFile, hashes: FileHashes) {
  const started = hashes.clock();
  const info = await file.stat();
  const modified = info.mtime?.getTime() ?? 0;
  const changed = Math.max(modified, info.ctime?.getTime() ?? started);
  // A settled identity is itself a strong validator (see the module doc), and reading a file
  // this large before its first byte would cost seconds.
  const etag = isSettled(info, started) && info.size > HASHED_MAX
    ? `"f-${fileIdentity(info).replaceAll(":", "-")}"`
    : `"xxh64-${await hashes.of(file, "xxh64", info)}-${info.size}"`;
  const shownModified = Math.min(modified, started);
  return {
    etag,
    lastModified: new Date(shownModified).toUTCString(),
    modifiedSeconds: Math.floor(shownModified / 1000),
    changedSeconds: Math.floor(changed / 1000),
    size: info.size,
  };
}

/**
 * The entity tags of an `If-Match` / `If-None-Match` value: `"*"`, or the tags as sent (with any
 * `W/` prefix). A malformed list yields no tags, so `If-Match` fails closed.
 *
 * @example
 * ```ts
 * import { parseEntityTags } from "./conditional.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseEntityTags(' "a", W/"b,c" '), ['"a"', 'W/"b,c"']);
 * assert.equal(parseEntityTags("*"), "*");
 * assert.deepEqual(parseEntityTags('"a", b'), []);
 * ```
 */
export function parseEntityTags(value: string): string[] | "*" {
  if (value.trim() === "*") return "*";
  const tags: string[] = [];
  const pattern = /\s*(?:(W\/)?("[\x21\x23-\x7e\x80-\xff]*"))\s*(,|$)/gy;
  let match: RegExpExecArray | null;
  while (pattern.lastIndex < value.length && (match = pattern.exec(value)) !== null) {
    tags.push((match[1] ?? "") + match[2]);
    if (match[3] === "") return tags;
  }
  return pattern.lastIndex === value.length && tags.length > 0 ? tags : [];
}

const DAYS = "Mon|Tue|Wed|Thu|Fri|Sat|Sun";
const LONG_DAYS = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday";
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const M = MONTHS.join("|");
const IMF = new RegExp(`^(?:${DAYS}), (\\d\\d) (${M}) (\\d{4}) (\\d\\d):(\\d\\d):(\\d\\d) GMT$`);
const RFC850 = new RegExp(
  `^(?:${LONG_DAYS}), (\\d\\d)-(${M})-(\\d\\d) (\\d\\d):(\\d\\d):(\\d\\d) GMT$`,
);
const ASCTIME = new RegExp(`^(?:${DAYS}) (${M}) ([ \\d]\\d) (\\d\\d):(\\d\\d):(\\d\\d) (\\d{4})$`);

/**
 * An HTTP-date (RFC 9110 §5.6.7: IMF-fixdate, or the obsolete RFC 850 and asctime forms) as
 * whole seconds since the epoch, or `undefined` for anything else (which conditions then ignore).
 *
 * @example
 * ```ts
 * import { parseHttpDate } from "./conditional.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(parseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT"), 784111777);
 * assert.equal(parseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT"), 784111777);
 * assert.equal(parseHttpDate("Sun Nov  6 08:49:37 1994"), 784111777);
 * assert.equal(parseHttpDate("1994-11-06"), undefined);
 * ```
 */
export function parseHttpDate(value: string): number | undefined {
  const text = value.trim();
  let parts: [number, string, number, number, number, number] | undefined;
  let match = IMF.exec(text);
  if (match) parts = [+match[3], match[2], +match[1], +match[4], +match[5], +match[6]];
  else if ((match = RFC850.exec(text))) {
    // RFC 9110: a two-digit year more than 50 years in the future is in the past century.
    let year = 2000 + +match[3];
    if (year > new Date().getUTCFullYear() + 50) year -= 100;
    parts = [year, match[2], +match[1], +match[4], +match[5], +match[6]];
  } else if ((match = ASCTIME.exec(text))) {
    parts = [+match[6], match[1], +match[2].trim(), +match[3], +match[4], +match[5]];
  }
  if (!parts) return undefined;
  const [year, month, day, hour, minute, second] = parts;
  if (day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  return Date.UTC(year, MONTHS.indexOf(month), day, hour, minute, second) / 1000;
}

/**
 * The outcome of a GET or HEAD's preconditions (RFC 9110 §13.2.2): `"proceed"`, `"not-modified"`
 * (answer 304) or `"failed"` (answer 412). Entity tags compare as §8.8.3 says (strongly for
 * `If-Match`, weakly for `If-None-Match`); dates compare with `Last-Modified` in whole seconds, as
 * §13.1.3–4 say, so they cannot tell two versions written within one second apart: pin with the
 * `ETag`.
 *
 * @example
 * ```ts
 * import { preconditions, type Validators } from "./conditional.ts";
 * import assert from "node:assert/strict";
 *
 * const file: Validators = {
 *   etag: '"xxh64-0-1"', lastModified: "Tue, 01 Jun 2021 00:00:00 GMT",
 *   modifiedSeconds: 1622505600, changedSeconds: 1622505600, size: 1,
 * };
 * assert.equal(preconditions(new Headers({ "if-match": '"xxh64-0-1"' }), file), "proceed");
 * assert.equal(preconditions(new Headers({ "if-match": '"other"' }), file), "failed");
 * assert.equal(preconditions(new Headers({ "if-none-match": 'W/"xxh64-0-1"' }), file), "not-modified");
 * ```
 */
export function preconditions(
  headers: Headers,
  validators: Validators,
): "proceed" | "not-modified" | "failed" {
  const ifMatch = headers.get("if-match");
  if (ifMatch !== null) {
    const tags = parseEntityTags(ifMatch);
    if (tags !== "*" && !tags.includes(validators.etag)) return "failed";
  } else {
    const date = parseHttpDate(headers.get("if-unmodified-since") ?? "");
    if (date !== undefined && validators.modifiedSeconds > date) return "failed";
  }
  const ifNoneMatch = headers.get("if-none-match");
  if (ifNoneMatch !== null) {
    const tags = parseEntityTags(ifNoneMatch);
    const opaque = validators.etag;
    if (tags === "*" || tags.some((tag) => tag.replace(/^W\//, "") === opaque)) {
      return "not-modified";
    }
  } else {
    const date = parseHttpDate(headers.get("if-modified-since") ?? "");
    if (date !== undefined && validators.modifiedSeconds <= date) return "not-modified";
  }
  return "proceed";
}

/**
 * Whether a `Range` header may be honoured (RFC 9110 §13.1.5): true without `If-Range`, else only
 * when it names the current strong `ETag`, or exactly the current `Last-Modified` of a file that
 * did not change after that second. Otherwise the whole body is sent (200), never a range of
 * other bytes.
 *
 * @example
 * ```ts
 * import { rangeAllowed, type Validators } from "./conditional.ts";
 * import assert from "node:assert/strict";
 *
 * const file: Validators = {
 *   etag: '"xxh64-0-1"', lastModified: "Tue, 01 Jun 2021 00:00:00 GMT",
 *   modifiedSeconds: 1622505600, changedSeconds: 1622505600, size: 1,
 * };
 * assert.ok(rangeAllowed(new Headers(), file));
 * assert.ok(rangeAllowed(new Headers({ "if-range": '"xxh64-0-1"' }), file));
 * assert.ok(!rangeAllowed(new Headers({ "if-range": 'W/"xxh64-0-1"' }), file));
 * assert.ok(rangeAllowed(new Headers({ "if-range": file.lastModified }), file));
 * ```
 */
export function rangeAllowed(headers: Headers, validators: Validators): boolean {
  const ifRange = headers.get("if-range");
  if (ifRange === null) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith("W/")) return value === validators.etag;
  // A date is a strong validator only if the file did not change after that second (RFC 9110
  // §8.8.2.2); the change time also catches a replacement that kept the old modification time
  // (`rsync -t`, `cp -p`, `touch -d`).
  const date = parseHttpDate(value);
  return date === validators.modifiedSeconds && validators.changedSeconds <= date;
}
