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
  TernError,
} from "../../../mod.ts";
import { choiceOption } from "../args.ts";
import { layoutText } from "../../display/format.ts";
import { asUsage, checkRefs, type Command, type CommandContext, eachPath } from "../command.ts";

/**
 * `tern cite [--style STYLE] PATH...`.
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
  usage: "[--style STYLE] PATH...",
  description: [
    "Prints the citation of each dataset folder PATH. Parts the metadata lacks are left out",
    '("tern meta" lists them). Several PATHs give one BibTeX or RIS file, or one CSL-JSON array.',
  ].join("\n"),
  options: {
    style: {
      type: "string",
      short: "s",
      value: "STYLE",
      help: `${CITATION_STYLES.join(", ")} (default: datacite)`,
    },
  },
  examples: [
    "tern cite /iplant/home/shared/commons_repo/curated/Gorman_PalmerPenguins_Morphometrics_2020",
    "tern cite --style bibtex PATH1 PATH2 >> refs.bib",
  ],
  run,
};

async function run(context: CommandContext): Promise<number> {
  const { values, positionals } = context.args;
  const style: CitationStyle = choiceOption(values, "style", CITATION_STYLES) ?? "datacite";
  checkRefs(positionals);
  const store = await context.store();
  const citations: string[] = [];
  const status = await eachPath(context, positionals, async (path) => {
    citations.push(
      await asUsage(() => store.dataset(path)).citation(style).catch((error) => {
        throw error instanceof TernError && error.code === "ERR_NOT_A_FOLDER"
          ? new BadRequestError(
            `tern cite needs a dataset folder, and ${JSON.stringify(error.path ?? path)} is a ` +
              "file; cite the folder that holds it (its metadata carries the citation).",
            { ...(error.path === undefined ? {} : { path: error.path }), code: error.code },
          )
          : error;
      }),
    );
  });
  if (citations.length > 0) {
    // One file in the style's own way (one JSON array, BibTeX entries a blank line apart, …).
    context.io.stdout.line(layoutText(joinCitations(citations, style)));
    await context.io.stdout.flush();
  }
  return status;
}
