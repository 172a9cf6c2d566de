/**
 * The store view: which gateway, signed in how (never the secret), the request policy, the
 * local cache, and the traffic so far.
 *
 * @module
 */

import { bundle, type MediaBundle } from "./bundle.ts";
import { formatBytes, formatCount, formatDuration } from "./format.ts";
import { type Html, link, markup } from "./html.ts";
import { bounded, card, facts, LIMITS, pairs } from "./parts.ts";
import { textPairs } from "./text.ts";

/**
 * What the store view shows: settings without secrets, and counters.
 *
 * @example
 * ```ts
 * import type { StoreView } from "./store_view.ts";
 *
 * const view: StoreView = {
 *   url: "https://de.cyverse.org/terrain", auth: "anonymous", concurrency: 4, retries: 4,
 *   timeoutMs: 30_000, cacheDir: false, offline: false,
 *   stats: { requests: 0, retries: 0, tokenExchanges: 0, inFlight: 0 },
 * };
 * ```
 */
export interface StoreView {
  /** Base URL of the gateway. */
  url: string;
  /** `anonymous`, `token` or `password`. */
  auth: string;
  /** Username, for password sign-in. */
  username?: string;
  /** Where the credentials came from. */
  credentialsFrom?: string;
  /** Requests in flight at once. */
  concurrency: number;
  /** Extra attempts after a retryable failure. */
  retries: number;
  /** Longest wait for response headers. */
  timeoutMs: number;
  /** Local cache folder, or `false`. */
  cacheDir?: string | false;
  /** Cap on cached bytes. */
  cacheMaxBytes?: number;
  /** Serving from the cache only. */
  offline?: boolean;
  /** Progress display setting, as given. */
  progress?: string;
  /** Traffic so far. */
  stats: { requests: number; retries: number; tokenExchanges: number; inFlight: number };
}

/**
 * Renders a store as a MIME bundle.
 *
 * @example
 * ```ts
 * import { renderStore } from "./store_view.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderStore({
 *   url: "http://127.0.0.1:8080/terrain", auth: "token", concurrency: 4, retries: 4, timeoutMs: 30_000,
 *   stats: { requests: 3, retries: 0, tokenExchanges: 0, inFlight: 0 },
 * });
 * assert.equal(
 *   out["text/plain"].split("\n")[0],
 *   "Store http://127.0.0.1:8080/terrain — signed in with a token",
 * );
 * ```
 */
export function renderStore(view: StoreView): MediaBundle {
  return bundle(storeHtml(view), storeText(view));
}

function who(view: StoreView): string {
  if (view.auth === "anonymous") return "anonymous (public data only)";
  const from = view.credentialsFrom === "environment" ? " from the environment" : "";
  if (view.auth === "password") {
    return `signed in as ${view.username ?? "a user"} (password${from})`;
  }
  return `signed in with a token${from}`;
}

function cacheLine(view: StoreView): string {
  if (view.cacheDir === undefined || view.cacheDir === false) return "no local cache";
  const cap = view.cacheMaxBytes === undefined ? "" : `, up to ${formatBytes(view.cacheMaxBytes)}`;
  return `${view.cacheDir}${cap}${view.offline === true ? " — offline: cache only" : ""}`;
}

function storeHtml(view: StoreView): Html {
  const title = link(view.url, bounded(view.url, LIMITS.name));
  const body = markup`${facts([who(view)])}${
    pairs([
      [
        "requests",
        `${formatCount(view.concurrency)} at once, ${formatCount(view.retries)} retries, ${
          formatDuration(view.timeoutMs)
        } timeout`,
      ],
      ["cache", markup`<span class="t-mono">${bounded(cacheLine(view), LIMITS.name)}</span>`],
      ["progress", view.progress],
      [
        "traffic",
        `${formatCount(view.stats.requests)} requests, ${formatCount(view.stats.retries)} retried${
          view.stats.inFlight > 0 ? `, ${formatCount(view.stats.inFlight)} in flight` : ""
        }${
          view.stats.tokenExchanges > 0
            ? `, ${formatCount(view.stats.tokenExchanges)} sign-ins`
            : ""
        }`,
      ],
    ])
  }`;
  return card({ kind: "Store", title }, body);
}

function storeText(view: StoreView): string {
  return [
    `Store ${view.url} — ${who(view)}`,
    textPairs([
      [
        "requests",
        `${view.concurrency} at once, ${view.retries} retries, ${
          formatDuration(view.timeoutMs)
        } timeout`,
      ],
      ["cache", cacheLine(view)],
      ["progress", view.progress],
      [
        "traffic",
        `${formatCount(view.stats.requests)} requests, ${formatCount(view.stats.retries)} retried`,
      ],
    ]),
  ].join("\n");
}
