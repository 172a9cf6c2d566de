/**
 * What a read needs from its store besides the transport: the local cache and whether the store
 * is offline. Stores register it per transport, so every handle and listing of a store (however
 * it was made) reads through the same cache.
 *
 * @module
 */

import type { DiskCache } from "../cache/cache.ts";
import type { Transport } from "../client/transport.ts";
import type { ProgressSetting } from "../progress/reporter.ts";

/**
 * A store's reading context.
 *
 * @example
 * ```ts ignore
 * import { bindDataContext, dataContextOf } from "./context.ts";
 *
 * bindDataContext(transport, { cache: undefined, offline: false });
 * console.log(dataContextOf(transport).offline); // false
 * ```
 */
export interface DataContext {
  /** The store's transport. */
  transport: Transport;
  /** The local cache, when the store has one. */
  cache: DiskCache | undefined;
  /** Serve only from the cache; never download. */
  offline: boolean;
  /** How reads show progress (default `true`: in a notebook or on a terminal's stderr). */
  progress?: ProgressSetting;
}

const contexts = new WeakMap<Transport, DataContext>();

/**
 * Registers the reading context of a store's transport (done by the store).
 *
 * @example
 * ```ts ignore
 * bindDataContext(transport, { cache: new DiskCache({ dir }), offline: false });
 * ```
 */
export function bindDataContext(
  transport: Transport,
  context: Omit<DataContext, "transport">,
): void {
  contexts.set(transport, { ...context, transport });
}

/**
 * The reading context of a transport: the registered one, else no cache and online.
 *
 * @example
 * ```ts ignore
 * const { cache, offline } = dataContextOf(transport);
 * ```
 */
export function dataContextOf(transport: Transport): DataContext {
  return contexts.get(transport) ?? { transport, cache: undefined, offline: false };
}
