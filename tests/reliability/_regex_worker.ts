/**
 * Runs tern's text heuristics on hostile 100 kB values in a worker, so that a regular
 * expression whose backtracking is quadratic (minutes on such a value) is ended by the test's
 * watchdog instead of holding the test process. Posts `{ start: name }` before each probe and
 * `{ done: true }` after the last.
 *
 * @module
 */

import { entryFromItem } from "../../lib/client/entry.ts";
import { sameStore } from "../../lib/client/same_store.ts";
import { clipCell } from "../../lib/display/format.ts";
import { titleKey } from "../../lib/metadata/catalog.ts";
import { joinCitations } from "../../lib/metadata/citation.ts";
import {
  normalizeArk,
  normalizeMetadata,
  normalizeOrcid,
  parseName,
} from "../../lib/metadata/mod.ts";
import { lockStoreUrl } from "../../lib/reproduce/lock.ts";

/** How long each hostile value is: the size the attacker's brief names. */
const SIZE = 100_000;

/** `unit` repeated to {@linkcode SIZE} characters, then `end`: a long run that does not end the text. */
const run = (unit: string, end: string) => unit.repeat(Math.ceil(SIZE / unit.length)) + end;

const PROBES: Record<string, () => unknown> = {
  "a creator of commas": () => parseName(run(", ", "!")),
  "a creator word of trailing apostrophes": () => parseName(`Doe ${run("'", "x")} Jane`),
  "an ORCID iD of slashes": () => normalizeOrcid(run("/", "x")),
  "a title of full stops": () => titleKey(run(". ", "x")),
  "an ARK of question marks": () => normalizeArk(`ark:/12345/x${run("?", "y")}`),
  "a citation of line breaks": () => joinCitations([run("\n", "x")], "apa"),
  "a listed path of slashes": () =>
    entryFromItem(
      {
        id: "1",
        path: `/a${run("/", "b")}`,
        label: "b",
        permission: "read",
        "date-created": 0,
        "date-modified": 0,
        "file-size": 1,
      } as Parameters<typeof entryFromItem>[0],
      "file",
    ),
  "a table cell of slashes": () => clipCell(run("/", " x"), 20),
  "a store URL of slashes": () =>
    sameStore(`https://a.example/${run("/", "x")}`, "https://a.example"),
  "a lock's store URL of slashes": () => lockStoreUrl(`https://a.example/${run("/", "x")}`),
  "a dataset's metadata": () =>
    normalizeMetadata({
      path: `/d${run("/", "x")}`,
      avus: [
        { attr: "title", value: run(". ", "x") },
        { attr: "creator", value: run(", ", "!") },
        { attr: "rights", value: `data: CC-BY-4.0${run(", ", "x")} code: MIT` },
        { attr: "rights", value: `see https://a.example/x${run(".,", "y")}` },
        { attr: "rights", value: run("..", "y") },
      ],
    }).then((metadata) => metadata.citation()),
};

/** The worker's side of the channel (Deno's default types are a window's). */
const parent = self as unknown as { postMessage(message: unknown): void };

for (const [name, probe] of Object.entries(PROBES)) {
  parent.postMessage({ start: name });
  await probe();
}
parent.postMessage({ done: true });
