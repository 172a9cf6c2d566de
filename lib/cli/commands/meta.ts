/**
 * `tern meta`: a dataset's (or any item's) metadata — normalised into one clean record (title,
 * creators, year, DOI, licence, …, with what a citation still lacks), or with `--raw` the AVUs
 * exactly as the server keeps them.
 *
 * @module
 */

import {
  type Avu,
  type DatasetMetadata,
  type Entry,
  File,
  type RawMetadata,
} from "../../../mod.ts";
import { asUsage } from "../args.ts";
import { checkRefs, type Command, type CommandContext, eachPath } from "../command.ts";
import { count, fields, humanSize, isoDate, jsonLine, safeText } from "../format.ts";
import { wrap } from "../../sample/readme.ts";
import type { Output } from "../io.ts";

/**
 * `tern meta [options] PATH...`.
 *
 * @example
 * ```sh
 * tern meta /iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020
 * tern meta --raw --json /iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020
 * ```
 */
export const meta: Command = {
  name: "meta",
  summary: "show a dataset's metadata, normalised (or --raw AVUs)",
  usage: "[options] PATH...",
  description: [
    "Reads the metadata (AVUs) of each PATH, usually a dataset folder, and shows it",
    "normalised: every template generation and key spelling mapped to one record, DOIs and",
    "ARKs canonical, the license identified as far as its text allows, and what a complete",
    "citation still lacks. --raw shows the AVUs as stored (nested ones indented).",
    "",
    "A file has no dataset record: for a file PATH, meta says so and shows the file's own",
    "size, date and AVUs (its dataset's metadata is on the dataset's folder).",
  ].join("\n"),
  options: {
    raw: { type: "boolean", help: "the AVUs and iRODS AVUs as stored, not normalised" },
    json: { type: "boolean", help: "one JSON object per PATH and line" },
  },
  examples: [
    "tern meta /iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020",
    "tern meta --json /iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020 | jq .doi",
    "tern meta --raw /iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020",
  ],
  run,
};

async function run(context: CommandContext): Promise<number> {
  const { values, positionals } = context.args;
  checkRefs(positionals);
  const store = await context.store();
  const out = context.io.stdout;
  const json = values.json === true;
  const width = out.width(100);
  return await eachPath(context, positionals, async (path, index) => {
    const handle = await asUsage(() => store.entry(path));
    if (!json && index > 0) out.line();
    if (values.raw === true) {
      const raw = await handle.metadata();
      if (json) out.line(jsonLine({ path: raw.path, avus: raw.avus, irodsAvus: raw.irodsAvus }));
      else printRaw(raw, out);
    } else if (handle instanceof File) {
      const [entry, raw] = await Promise.all([handle.stat(), handle.metadata()]);
      if (json) {
        out.line(jsonLine({
          path: entry.path,
          type: "file",
          id: entry.id,
          size: entry.size,
          modified: entry.modified,
          avus: raw.avus,
          irodsAvus: raw.irodsAvus,
        }));
      } else printFile(entry, raw, out);
    } else {
      const record = await store.dataset((await handle.stat()).path).metadata();
      if (json) out.line(jsonLine({ ...record.toJSON(), raw: undefined }));
      else printRecord(record, out, width);
    }
    await out.flush();
  });
}

/**
 * A file's own metadata: what it is, and its AVUs as stored. Citation fields describe datasets
 * (folders), so a file is not measured against them.
 */
function printFile(entry: Entry, raw: RawMetadata, out: Output): void {
  const avus = avuLines(raw.avus, "");
  const irods = raw.irodsAvus.map((avu) => avuLine(avu.attr, avu.value, avu.unit));
  out.line(fields([
    ["path", safeText(entry.path)],
    ["type", "file (its own metadata; a dataset's metadata is on its folder)"],
    ["size", `${count(entry.size)} bytes (${humanSize(entry.size)})`],
    ["modified", isoDate(entry.modified) ?? "unknown"],
    ["AVUs", avus.length === 0 ? "none" : avus.join("\n")],
    ["iRODS AVUs", irods.length === 0 ? undefined : irods.join("\n")],
  ]));
}

/** Where values start in the normalised view ("citation lacks" and two spaces). */
const DESCRIPTION_INDENT = 16;

function printRecord(record: DatasetMetadata, out: Output, width: number): void {
  const text = (value: string | undefined) => value === undefined ? undefined : safeText(value);
  const list = (items: readonly string[], separator = "\n") =>
    items.length === 0 ? undefined : items.map(safeText).join(separator);
  const license = record.license;
  out.line(fields([
    ["path", safeText(record.path)],
    ["title", text(record.title)],
    [
      "creators",
      list(record.creators.map((creator) =>
        withDetails(creator.name, [
          creator.affiliation,
          creator.orcid === undefined ? undefined : `ORCID ${creator.orcid}`,
        ])
      )),
    ],
    ["year", record.publicationYear?.toString()],
    ["publisher", text(record.publisher)],
    [
      "doi",
      record.doi === undefined
        ? undefined
        : `${safeText(record.doi)}  ${safeText(record.url ?? "")}`,
    ],
    ["ark", text(record.ark)],
    [
      "license",
      license === undefined ? undefined : withDetails(
        license.id ?? license.name,
        [license.id === undefined ? undefined : license.name, license.confidence, license.url],
      ),
    ],
    ["subjects", list(record.subjects, ", ")],
    [
      "resource type",
      text(
        [record.resourceTypeGeneral, record.resourceType].filter((part) => part !== undefined)
          .join(" / ") || undefined,
      ),
    ],
    ["version", text(record.version)],
    [
      "contributors",
      list(
        record.contributors.map((contributor) =>
          withDetails(contributor.name, [contributor.type, contributor.affiliation])
        ),
      ),
    ],
    [
      "related",
      list(
        record.relatedIdentifiers.map((related) =>
          [related.relationType, related.identifierType, related.identifier, related.url]
            .filter((part) => part !== undefined).join(" ")
        ),
      ),
    ],
    [
      "funding",
      list(record.funding.map((funding) =>
        [
          funding.funderName,
          funding.awardNumber === undefined ? undefined : `award ${funding.awardNumber}`,
          funding.awardTitle,
        ]
          .filter((part) => part !== undefined).join(", ")
      )),
    ],
    [
      "modified",
      record.dateModified === undefined ? undefined : isoDate(record.dateModified) ?? undefined,
    ],
    ["deprecated", record.deprecated ? "yes" : undefined],
    ["citation lacks", record.missing.length === 0 ? "nothing" : record.missing.join(", ")],
    ["notes", list(record.notes)],
    [
      "description",
      record.description === undefined
        ? undefined
        : list(wrap(record.description, Math.max(40, width - DESCRIPTION_INDENT)).split("\n")),
    ],
  ]));
}

function withDetails(main: string, details: readonly (string | undefined)[]): string {
  const present = details.filter((detail): detail is string =>
    detail !== undefined && detail !== ""
  );
  return present.length === 0 ? main : `${main} (${present.join("; ")})`;
}

function printRaw(raw: RawMetadata, out: Output): void {
  out.line(`${out.style.bold("path")}  ${safeText(raw.path)}`);
  out.line(out.style.bold(`AVUs (${raw.avus.length})`));
  for (const line of avuLines(raw.avus, "  ")) out.line(line);
  out.line(out.style.bold(`iRODS AVUs (${raw.irodsAvus.length})`));
  for (const avu of raw.irodsAvus) out.line(`  ${avuLine(avu.attr, avu.value, avu.unit)}`);
}

/** One line per AVU, its nested AVUs indented under it. */
function avuLines(avus: readonly Avu[], indent: string): string[] {
  return avus.flatMap((avu) => [
    `${indent}${avuLine(avu.attr, avu.value, avu.unit)}`,
    ...avuLines(avu.avus, `${indent}  `),
  ]);
}

function avuLine(attr: string, value: string, unit: string | undefined): string {
  // JSON quoting shows stray whitespace in attribute names (a trailing tab is a real variant).
  const shownAttr = /^\S(.*\S)?$/.test(attr) && !attr.includes("=") ? attr : JSON.stringify(attr);
  return `${safeText(shownAttr)} = ${safeText(value)}${unit ? ` [${safeText(unit)}]` : ""}`;
}
