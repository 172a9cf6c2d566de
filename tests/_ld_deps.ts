/**
 * The JSON-LD tools the tests check tern's RO-Crate and Croissant documents with: `jsonld`
 * (expansion, with contexts served from local copies, no network) and `ro-crate` (the Language
 * Data Commons RO-Crate library and its validator). Test-only: tern never loads them.
 *
 * @module
 */

export { default as jsonld } from "npm:jsonld@9.0.0";
export * as roCrate from "npm:ro-crate@3.7.2";
