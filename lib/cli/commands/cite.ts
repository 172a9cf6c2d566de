/**
 * `tern cite`: a dataset's citation in the style asked for, from its normalised metadata —
 * ready to paste (DataCite, APA) or to append to a reference library (BibTeX, RIS, CSL-JSON).
 *
 * @module
 */

import { BadRequestError, CITATION_STYLES, type CitationStyle, TernError } from "../../../mod.ts";
import { choiceOption } from "../args.ts";
import { citationStyle } from "../../registry/citation_styles.ts";
import { layoutText } from "../../display/format.ts";
import { asUsage, checkRefs, type Command, type CommandContext, eachPath } from "../command.ts";
import { quoteInput } from "../../client/errors.ts";

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
  const { joining } = citationStyle(style);
  checkRefs(positionals);
  const store = await context.store();
  const out = context.io.stdout;
  // JSON styles: several are merged into one array so the output stays one JSON value.
  const json = joining === "json-array" || joining === "json-value";
  const items: unknown[] = [];
  const status = await eachPath(context, positionals, async (path, index) => {
    const citation = await asUsage(() => store.dataset(path)).citation(style).catch((error) => {
      throw error instanceof TernError && error.code === "ERR_NOT_A_FOLDER"
        ? new BadRequestError(
          `tern cite needs a dataset folder, and ${quoteInput(error.path ?? path)} is a ` +
            "file; cite the folder that holds it (its metadata carries the citation).",
          { ...(error.path === undefined ? {} : { path: error.path }), code: error.code },
        )
        : error;
    });
    if (json) {
      items.push(...[JSON.parse(citation)].flat());
      return;
    }
    if (index > 0 && joining === "blank-line") out.line();
    if (index > 0 && joining === "yaml-documents") out.line("---");
    out.line(layoutText(citation.replace(/\n+$/, "")));
    await out.flush();
  });
  if (json && items.length > 0) {
    const value = joining === "json-value" && items.length === 1 ? items[0] : items;
    out.line(JSON.stringify(value, null, 2));
    await out.flush();
  }
  return status;
}
