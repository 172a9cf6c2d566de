/**
 * `tern cite`: a dataset's citation in the style asked for, from its normalised metadata —
 * ready to paste (DataCite, APA) or to append to a reference library (BibTeX, RIS, CSL-JSON).
 *
 * @module
 */

import {
  BadRequestError,
  CITATION_STYLES,
  type CitationStyle,
  joinCitations,
  makeBibliography,
  namesDataset,
  readLock,
  TernError,
} from "../../../mod.ts";
import { asUsage, choiceOption, stringOption, UsageError } from "../args.ts";
import { layoutText } from "../../display/format.ts";
import { checkRefs, type Command, type CommandContext, eachPath } from "../command.ts";
import { quoteInput } from "../../client/errors.ts";
import { safeText } from "../format.ts";
import { localPath } from "../io.ts";

/**
 * `tern cite [--style STYLE] PATH...` and `tern cite --lock FILE [--style STYLE]`.
 *
 * @example
 * ```sh
 * tern cite --style bibtex /iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020 >> refs.bib
 * ```
 */
export const cite: Command = {
  name: "cite",
  summary: `cite a dataset: ${CITATION_STYLES.slice(0, -1).join(", ")} or ${
    CITATION_STYLES.at(-1)
  }`,
  usage: "[--style STYLE] [--allow-missing] PATH... | --lock FILE",
  description: [
    "Prints the citation of each dataset folder PATH. Parts the metadata lacks are left out",
    '("tern meta" lists them). Several PATHs give one BibTeX or RIS file, or one CSL-JSON array.',
    "A folder without dataset metadata (no title, DOI or ARK) is named on stderr and not cited,",
    "and the command exits 1; --allow-missing cites it anyway, by its name and path.",
    "With --lock, prints the bibliography of the datasets a lock file (store.provenance.save)",
    "names, from the lock alone: one citation per dataset, in a stable order; datasets without",
    "a DOI are cited by their ARK or path, and named on stderr.",
  ].join("\n"),
  options: {
    style: {
      type: "string",
      short: "s",
      value: "STYLE",
      help: `${CITATION_STYLES.join(", ")} (default: datacite)`,
    },
    "allow-missing": {
      type: "boolean",
      help: "cite folders without dataset metadata by their name and path (exit 0)",
    },
    lock: { type: "string", value: "FILE", help: "cite the datasets of a lock file" },
  },
  examples: [
    "tern cite /iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020",
    "tern cite --style bibtex PATH1 PATH2 >> refs.bib",
    "tern cite --lock tern.lock.json --style bibtex > data.bib",
  ],
  run,
};

async function run(context: CommandContext): Promise<number> {
  const { values, positionals } = context.args;
  const style: CitationStyle = choiceOption(values, "style", CITATION_STYLES) ?? "datacite";
  const lockFile = stringOption(values, "lock");
  if (lockFile !== undefined) return await citeLock(context, lockFile, style);
  checkRefs(positionals);
  const allowMissing = values["allow-missing"] === true;
  const store = await context.store();
  const citations: string[] = [];
  let missing = 0;
  const status = await eachPath(context, positionals, async (path) => {
    const metadata = await asUsage(() => store.dataset(path)).metadata().catch((error) => {
      throw error instanceof TernError && error.code === "ERR_NOT_A_FOLDER"
        ? new BadRequestError(
          `tern cite needs a dataset folder, and ${quoteInput(error.path ?? path)} is a ` +
            "file; cite the folder that holds it (its metadata carries the citation).",
          { ...(error.path === undefined ? {} : { path: error.path }), code: error.code },
        )
        : error;
    });
    if (!namesDataset(metadata)) {
      missing++;
      const fate = allowMissing ? "cited" : "not cited; --allow-missing cites it";
      context.io.stderr.line(
        `${context.io.stderr.style.warn("warning:")} ${safeText(metadata.path)} has no dataset ` +
          `metadata (no title, DOI or ARK): ${fate} by its folder name and path`,
      );
      if (!allowMissing) return;
    }
    citations.push(await metadata.citation(style));
  });
  await context.io.stderr.flush();
  if (citations.length > 0) {
    // One file in the style's own way (one JSON array, BibTeX entries a blank line apart, …).
    context.io.stdout.line(layoutText(joinCitations(citations, style)));
    await context.io.stdout.flush();
  }
  return missing > 0 && !allowMissing ? 1 : status;
}

/** The bibliography of a lock's datasets; no store needed. */
async function citeLock(
  context: CommandContext,
  file: string,
  style: CitationStyle,
): Promise<number> {
  if (context.args.positionals.length > 0) {
    throw new UsageError("tern cite --lock FILE takes no PATH: it cites the lock's datasets");
  }
  const bibliography = await makeBibliography(
    readLock(localPath(context.io, file)).datasets,
    style,
  );
  if (bibliography.entries.length > 0) context.io.stdout.line(layoutText(bibliography.text));
  await context.io.stdout.flush();
  for (const entry of bibliography.flagged) {
    context.io.stderr.line(
      `note: ${layoutText(entry.title ?? entry.path)} has no DOI; it is cited by its ${
        entry.citedBy === "ark" ? "ARK" : "data-store path"
      }`,
    );
  }
  if (bibliography.entries.length === 0) context.io.stderr.line("note: the lock names no dataset");
  await context.io.stderr.flush();
  return 0;
}
