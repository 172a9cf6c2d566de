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
}

interface CiteConstructor {
  new (data: unknown): { format(format: string, options?: Record<string, unknown>): unknown };
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
    const Cite = (core as unknown as { Cite: CiteConstructor }).Cite;
    return {
      format: (items: CslItem[], format: string, options?: Record<string, unknown>) =>
        new Cite(items).format(format, options),
    };
  })().catch((error) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
