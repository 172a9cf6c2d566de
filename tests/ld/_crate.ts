/**
 * The checks every crate test makes: JSON-LD expansion with no dropped term (the RO-Crate 1.1
 * context from its local copy), the `ro-crate` library's validator, and a lock's pins.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Lock } from "../../mod.ts";
import { CHECKSUM_TERMS, RO_CRATE_CONTEXT, type RoCrate } from "../../lib/ld/crate.ts";
import { jsonld, RO_CRATE_1_1 as CONTEXT, roCrate } from "../_ld_deps.ts";

const TERMS: Record<string, string> = { ...CONTEXT["@context"], ...CHECKSUM_TERMS };

/** jsonld's document loader: the RO-Crate 1.1 context from its local copy; nothing else. */
// deno-lint-ignore require-await
async function documentLoader(url: string) {
  if (url !== RO_CRATE_CONTEXT) throw new Error(`no network: ${url}`);
  return { contextUrl: null, documentUrl: url, document: CONTEXT };
}

/** Every key of every entity survives expansion as the IRI the contexts give it. */
export async function assertNoDroppedTerms(crate: RoCrate): Promise<void> {
  const base = "http://crate.invalid/";
  const expanded = await jsonld.expand(structuredClone(crate) as never, {
    documentLoader,
    base,
  }) as { "@id": string; [iri: string]: unknown }[];
  const byId = new Map(expanded.map((node) => [node["@id"], node]));
  assert.equal(byId.size, crate["@graph"].length, "one node per entity, none merged");
  for (const entity of crate["@graph"]) {
    const node = byId.get(new URL(entity["@id"], base).href);
    assert.ok(node !== undefined, `${entity["@id"]} expands`);
    for (const key of Object.keys(entity)) {
      if (key.startsWith("@")) continue;
      const iri = TERMS[key];
      assert.equal(typeof iri, "string", `${entity["@id"]}: ${key} is a term of the contexts`);
      const expandedIri = iri.startsWith("dct:") ? `http://purl.org/dc/terms/${iri.slice(4)}` : iri;
      assert.ok(expandedIri in node, `${entity["@id"]}: ${key} survives as ${expandedIri}`);
    }
  }
}

/** One check of the `ro-crate` library's validator. */
export interface Check {
  id: string;
  status: "success" | "warning" | "error";
  message: string;
}

/** `validate` is in the library's `index.js` but not in its type declarations. */
const library = roCrate as unknown as {
  validate(crate: unknown): Promise<Check[]>;
  ROCrate: { create(json: unknown): Promise<unknown> };
};

/** The `ro-crate` library's validator, on the crate read with its context resolved. */
export async function validate(crate: RoCrate): Promise<Check[]> {
  return await library.validate(await library.ROCrate.create(structuredClone(crate)));
}

/**
 * The lock's pins: all but how each file was read, in path order (a lock in memory lists files
 * in the order they were read; a saved lock and a crate, by path).
 */
export function pins(lock: Lock) {
  const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
  return {
    store: lock.store,
    storeId: lock.storeId,
    tern: lock.tern,
    files: lock.files.map(({ operations: _operations, hash: _hash, ...file }) => file)
      .toSorted((a, b) => byPath(a, b) || a.id.localeCompare(b.id)),
    datasets: lock.datasets.map(({ license, ...dataset }) => ({
      ...dataset,
      license: license === undefined ? undefined : { ...license, confidence: undefined },
    })).toSorted(byPath),
  };
}
