/**
 * Every `tern` command, in the order help lists them.
 *
 * @example
 * ```ts
 * import { COMMANDS } from "./mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   COMMANDS.map((command) => command.name).join(" "),
 *   "ls tree search stat meta cite croissant lock crate cat head get manifest notebook serve sample-store doctor",
 * );
 * ```
 *
 * @module
 */

import type { Command } from "../command.ts";
import { cat } from "./cat.ts";
import { cite } from "./cite.ts";
import { crate } from "./crate.ts";
import { croissant } from "./croissant.ts";
import { doctor } from "./doctor.ts";
import { get } from "./get.ts";
import { head } from "./head.ts";
import { lock } from "./lock.ts";
import { ls } from "./ls.ts";
import { manifest } from "./manifest.ts";
import { meta } from "./meta.ts";
import { notebook } from "./notebook.ts";
import { sampleStore, serve } from "./serve.ts";
import { search } from "./search.ts";
import { stat } from "./stat.ts";
import { tree } from "./tree.ts";

/**
 * The commands, in help order.
 *
 * @example
 * ```ts
 * import { COMMANDS } from "./mod.ts";
 * import assert from "node:assert/strict";
 *
 * const ls = COMMANDS.find((command) => command.name === "ls");
 * assert.equal(ls?.summary, "list a folder, page by page as entries arrive");
 * ```
 */
export const COMMANDS: readonly Command[] = Object.freeze([
  ls,
  tree,
  search,
  stat,
  meta,
  cite,
  croissant,
  lock,
  crate,
  cat,
  head,
  get,
  manifest,
  notebook,
  serve,
  sampleStore,
  doctor,
]);
