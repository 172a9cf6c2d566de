/**
 * A served store's identity: an id kept in `ROOT/.terrain/store-id`, made once, and sent in the
 * {@linkcode STORE_ID_HEADER} of the health answer (`GET /terrain/`), so a client that finds the
 * store at another address (a new port) can tell it is the same store.
 *
 * @module
 */

import { join } from "node:path";
import { ifPresent } from "./store_file.ts";

/** Where a store's folder keeps its id. */
const STORE_ID_FILE = ".terrain/store-id";

/**
 * The response header of `GET /terrain/` that carries the store's id (the real Terrain sends
 * none).
 *
 * @example
 * ```ts
 * import { STORE_ID_HEADER } from "./store_id.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(STORE_ID_HEADER, "tern-store-id");
 * ```
 */
export const STORE_ID_HEADER = "tern-store-id";

/** What an id may be: what a lock accepts (`lib/reproduce/lock.ts`), 1 to 128 plain characters. */
const ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * The id of the store in `root`: the one its {@linkcode STORE_ID_FILE} holds, or a new random
 * one written there first. Two servers starting on one folder at once agree: the file appears
 * whole (a hard link of a finished file) and the first one wins. `undefined`, with a warning,
 * when the folder cannot be written or holds a malformed id: the store is then known by its URL
 * alone.
 *
 * @example
 * ```ts
 * import { storeIdOf } from "./store_id.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const id = await storeIdOf(root, () => {});
 * assert.equal(await storeIdOf(root, () => {}), id);
 * assert.equal((await Deno.readTextFile(`${root}/.terrain/store-id`)).trim(), id);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function storeIdOf(
  root: string,
  warn: (line: string) => void,
): Promise<string | undefined> {
  const file = join(root, STORE_ID_FILE);
  try {
    let text = await ifPresent(Deno.readTextFile(file));
    if (text === undefined) {
      await Deno.mkdir(join(root, ".terrain"), { recursive: true });
      const partial = `${file}.${crypto.randomUUID().slice(0, 8)}.partial`;
      await Deno.writeTextFile(partial, `${crypto.randomUUID()}\n`);
      try {
        await Deno.link(partial, file);
      } catch (error) {
        if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      } finally {
        await Deno.remove(partial);
      }
      text = (await ifPresent(Deno.readTextFile(file))) ?? "";
    }
    const id = text.trim();
    if (ID.test(id)) return id;
    warn(`${STORE_ID_FILE} is not an id (1 to 128 letters, digits, ".", "_", ":" or "-"): ignored`);
  } catch (error) {
    warn(`the store has no id (${STORE_ID_FILE}: ${(error as Error).message})`);
  }
  return undefined;
}
