/**
 * The one place that loads citation-js: its core and the CSL, BibTeX and RIS plugins, imported
 * together and once, so the plugins register on the same core (citation-js#239), and only when
 * a citation in one of those styles is first asked for (they take a while to load).
 *
 * @module
 */

import { loadCitationJsModules } from "../deps.ts";

/**
 * A CSL-JSON item (the fields tern writes; see the CSL 1.0.2 specification).
 *
 * @example
 * ```ts
 * import type { CslItem } from "./citejs.ts";
 *
 * const item: CslItem = { id: "Gorman2020", type: "dataset", title: "Palmer penguins" };
 * ```
 */
export interface CslItem {
  /** Item id (tern uses the citation key). */
  id: string;
  /** CSL item type (`dataset`, `software`). */
  type: string;
  /** Other CSL variables. */
  [variable: string]: unknown;
}

/**
 * The parts of citation-js tern uses.
 *
 * @example
 * ```ts
 * import { loadCitationJs } from "./citejs.ts";
 * import assert from "node:assert/strict";
 *
 * const { format } = await loadCitationJs();
 * const bibtex = format([{ id: "x", type: "dataset", title: "T" }], "bibtex");
 * assert.equal(bibtex, "@misc{T,\n\ttitle = {T},\n}\n\n");
 * ```
 */
export interface CitationJs {
  /** Formats items with a citation-js output format and its options. */
  format(items: CslItem[], format: string, options?: Record<string, unknown>): unknown;
  /**
   * BibTeX entries (`format: "object"`) of items whose text {@linkcode CitationJs.tex} escaped
   * already: citation-js's own escaping would drop every letter it has no LaTeX for.
   */
  bibtexEntries(items: CslItem[]): unknown;
  /**
   * Text for a BibTeX field: LaTeX's special characters and what citation-js has a command for
   * (accented Latin letters, `Ø`, typographic quotes and dashes) as LaTeX, as citation-js writes
   * them; every other letter (Cyrillic, Greek, CJK, Hangul) as it is, for UTF-8 LaTeX and
   * Biber, where citation-js drops it (and writes Greek as math symbols).
   */
  tex(text: string): string;
}

interface CiteConstructor {
  new (data: unknown): { format(format: string, options?: Record<string, unknown>): unknown };
}

/** The part of citation-js's BibTeX plugin configuration tern reads and sets. */
interface BibtexConfig {
  constants: {
    commands: Record<string, string>;
    diacritics: Record<string, string>;
    ligatures: Record<string, string>;
  };
  format: { asciiOnly: boolean };
}

/** Characters BibTeX takes as they are (citation-js's list). */
const PLAIN = /^[a-zA-Z0-9\s!"'()*+,\-./:;=?@[\]]$/;

/** An escaper of text for BibTeX from citation-js's tables (see `CitationJs.tex`). */
function texEscaper({ constants }: BibtexConfig): (text: string) => string {
  const command = new Map<string, string>();
  for (const [name, char] of Object.entries(constants.commands)) command.set(char, `\\${name}{}`);
  for (const [text, char] of Object.entries(constants.ligatures)) command.set(char, text);
  // `\_` and `\$` read better than citation-js's `\textunderscore{}` and `\textdollar{}`.
  for (const char of "&%$#_") command.set(char, `\\${char}`);
  const accent = new Map(Object.entries(constants.diacritics).map(([name, mark]) => [mark, name]));
  return (text) =>
    Array.from(text.normalize("NFC"), (char) => {
      if (PLAIN.test(char)) return char;
      const known = command.get(char);
      if (known !== undefined) return known;
      const [base, ...marks] = Array.from(char.normalize("NFD"));
      const letter = PLAIN.test(base) ? base : command.get(base);
      if (letter === undefined || marks.length === 0 || !marks.every((m) => accent.has(m))) {
        return char;
      }
      return marks.reduce((inner, mark) => `{\\${accent.get(mark)} ${inner}}`, letter);
    }).join("");
}

/** citation-js, loaded once: a lazily built immutable singleton (a failed load is not kept). */
let loading: Promise<CitationJs> | undefined;

/**
 * Loads citation-js and its CSL, BibTeX and RIS plugins (once; a failed load is retried on the
 * next call).
 *
 * @example
 * ```ts
 * import { loadCitationJs } from "./citejs.ts";
 * import assert from "node:assert/strict";
 *
 * const citejs = await loadCitationJs();
 * const text = citejs.format([{ id: "x", type: "dataset", title: "T" }], "bibliography", {
 *   template: "apa", format: "text", lang: "en-US",
 * });
 * assert.match(String(text), /^T\. \(n\.d\.\)/);
 * ```
 */
export function loadCitationJs(): Promise<CitationJs> {
  loading ??= (async (): Promise<CitationJs> => {
    const core = await loadCitationJsModules();
    const { Cite, plugins } = core as unknown as {
      Cite: CiteConstructor;
      plugins: { config: { get(plugin: string): BibtexConfig } };
    };
    const bibtex = plugins.config.get("@bibtex");
    return {
      format: (items: CslItem[], format: string, options?: Record<string, unknown>) =>
        new Cite(items).format(format, options),
      bibtexEntries(items: CslItem[]) {
        // citation-js reads the setting while it formats, synchronously: set for this call only.
        const asciiOnly = bibtex.format.asciiOnly;
        bibtex.format.asciiOnly = false;
        try {
          return new Cite(items).format("bibtex", { format: "object" });
        } finally {
          bibtex.format.asciiOnly = asciiOnly;
        }
      },
      tex: texEscaper(bibtex),
    };
  })().catch((error) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
