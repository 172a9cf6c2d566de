/**
 * The schema of `filesystem/stat`'s answer, apart from the other response schemas
 * (`schemas.ts`): a first read of a file asks nothing else, and should not build every answer's
 * schema for it.
 *
 * @module
 */

import { loadZodModule, type z as Z } from "../deps.ts";
import { byteSize, millis, permission } from "./fields.ts";

const { z } = await loadZodModule();

/**
 * One item of a `filesystem/stat` answer: a file (`type` `"file"`, with `file-size`, `infoType`
 * and `md5`, the store's checksum: lowercase hex, `sha2:<base64>` from a SHA-256 zone, or `""`
 * before the store computed it) or a folder (`type` `"dir"`, with `file-count` and `dir-count`).
 * Fields tern does not read (`label`, `content-type`, `share-count`) pass through unchecked.
 *
 * @example
 * ```ts
 * import { StatInfo } from "./stat_answer.ts";
 * import assert from "node:assert/strict";
 *
 * const file = StatInfo.parse({
 *   id: "6a1b2c3d-54e1-11e6-9a2d-90e2ba675364", path: "/iplant/home/shared/a.csv", type: "file",
 *   label: "a.csv", "date-created": 0, "date-modified": 0, permission: "read", "file-size": 1,
 *   "content-type": "text/csv", infoType: "csv", md5: "0cc175b9c0f1b6a831c399e269772661",
 * });
 * assert.equal(file.type === "file" && file.md5, "0cc175b9c0f1b6a831c399e269772661");
 * ```
 */
export const StatInfo = z.discriminatedUnion("type", [
  z.looseObject({
    id: z.string(),
    path: z.string(),
    type: z.literal("file"),
    "date-created": millis,
    "date-modified": millis,
    permission,
    "file-size": byteSize,
    infoType: z.string().nullable(),
    md5: z.string(),
  }),
  z.looseObject({
    id: z.string(),
    path: z.string(),
    type: z.literal("dir"),
    "date-created": millis,
    "date-modified": millis,
    permission,
    "file-count": z.number(),
    "dir-count": z.number(),
  }),
]);
/**
 * One item of a `filesystem/stat` answer, as parsed.
 *
 * @example
 * ```ts
 * import type { StatInfo } from "./stat_answer.ts";
 *
 * const checksum = (info: StatInfo) => info.type === "file" ? info.md5 : undefined;
 * ```
 */
export type StatInfo = Z.infer<typeof StatInfo>;

/**
 * `filesystem/stat`: each item asked for, under the path or the id it was asked by (both keys are
 * always there).
 *
 * @example
 * ```ts
 * import { StatAnswer } from "./stat_answer.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(StatAnswer.parse({ paths: {}, ids: {} }), { paths: {}, ids: {} });
 * ```
 */
export const StatAnswer = z.looseObject({
  paths: z.record(z.string(), StatInfo),
  ids: z.record(z.string(), StatInfo),
});
/**
 * The answer of `filesystem/stat`, as parsed.
 *
 * @example
 * ```ts
 * import type { StatAnswer } from "./stat_answer.ts";
 *
 * const asked = (answer: StatAnswer) => Object.keys(answer.paths);
 * ```
 */
export type StatAnswer = Z.infer<typeof StatAnswer>;
