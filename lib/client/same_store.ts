/**
 * Store URLs: {@linkcode DEFAULT_URL}, the store opened when none is named, and
 * {@linkcode sameStore}, whether two URLs name the same Terrain gateway, the test that decides
 * whether a URL found in data (a lock's store, a manifest's row) may get the caller's credentials.
 *
 * @module
 */

/**
 * The store `connect()` opens when neither `url` nor `TERRAIN_URL` names one: the public
 * CyVerse gateway. Credentials from the environment are for it then.
 *
 * @example
 * ```ts
 * import { DEFAULT_URL } from "./same_store.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(DEFAULT_URL, "https://de.cyverse.org/terrain");
 * ```
 */
export const DEFAULT_URL = "https://de.cyverse.org/terrain";

/**
 * Whether `a` and `b` name the same store: the same origin (scheme, host and port as URL parsing
 * normalises them: case, default ports, IDN) and the same base path (dot segments resolved,
 * trailing slashes ignored). A username, password, query or fragment never makes two URLs the
 * same store; text that does not parse as an http(s) URL is no store at all. Loopback names are
 * not merged (`localhost` and `127.0.0.1` are two origins to a browser and to fetch).
 *
 * @example
 * ```ts
 * import { sameStore } from "./same_store.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(sameStore("https://DE.CyVerse.org:443/terrain/", "https://de.cyverse.org/terrain"));
 * assert.ok(!sameStore("https://de.cyverse.org/terrain", "http://de.cyverse.org/terrain"));
 * assert.ok(!sameStore("https://de.cyverse.org/terrain", "https://de.cyverse.org/terrain2"));
 * assert.ok(!sameStore("https://de.cyverse.org.evil.example/terrain", "https://de.cyverse.org/terrain"));
 * assert.ok(!sameStore("not a url", "not a url"));
 * ```
 */
export function sameStore(a: string, b: string): boolean {
  const left = storeKey(a);
  return left !== undefined && left === storeKey(b);
}

function storeKey(text: string): string | undefined {
  const url = URL.parse(text.trim());
  if (url === null) return undefined;
  const plain = url.username === "" && url.password === "" && url.search === "" &&
    url.hash === "";
  if (!plain || (url.protocol !== "http:" && url.protocol !== "https:")) return undefined;
  return `${url.origin}${url.pathname.replace(/(?<!\/)\/+$/, "")}`;
}
