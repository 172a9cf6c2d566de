/**
 * The HTTP layer shared by every endpoint function: credentials, the concurrency limiter,
 * timeouts, retries with backoff, abort, and guarded response bodies.
 *
 * @module
 */

import { Credentials, redactUrl, type SendJson } from "./auth.ts";
import { formatMs, guardBody, type GuardOptions, readBody, realTimer } from "./body.ts";
import {
  abortError,
  BadRequestError,
  errorCodeOf,
  errorFromResponse,
  isAbortError,
  isTokenProblem,
  NetworkError,
  NotFoundError,
  ProtocolError,
  quoteInput,
  RequestTooLargeError,
  ResponseTooLargeError,
  ServerError,
  TernError,
  TlsError,
  truncate,
} from "./errors.ts";
import { Limiter } from "./limiter.ts";
import { backoffDelay, isRetryableStatus, parseRetryAfter, sleep } from "./retry.ts";
import { userAgent } from "./version.ts";

/**
 * Options of {@linkcode Transport}.
 *
 * @example
 * ```ts
 * import type { TransportOptions } from "./transport.ts";
 *
 * const options: TransportOptions = {
 *   url: "https://de.cyverse.org/terrain",
 *   username: "demo",
 *   password: "secret",
 *   concurrency: 2,
 *   timeoutMs: 10_000,
 * };
 * ```
 */
export interface TransportOptions {
  /** Base URL of the Terrain gateway, for example `https://de.cyverse.org/terrain`. */
  url: string;
  /** An access token obtained elsewhere. Excludes `username`/`password`. */
  token?: string;
  /** Username to exchange, with `password`, for a token when first needed. */
  username?: string;
  /** Password for `username`. */
  password?: string;
  /** Requests in flight at once, bodies included (default 4). */
  concurrency?: number;
  /** Extra attempts after a retryable failure (default 4). */
  retries?: number;
  /** Longest wait for the response headers, connecting included, in ms (default 30 s). */
  timeoutMs?: number;
  /** Longest wait for the next chunk of a body, in ms (default 60 s). */
  idleTimeoutMs?: number;
  /** Ceiling of the first retry delay, in ms; it doubles per retry (default 250). */
  retryBaseMs?: number;
  /** Ceiling of any retry delay, in ms (default 10 s). */
  retryMaxMs?: number;
  /** Aborts every request of this transport (for example when a notebook closes the store). */
  signal?: AbortSignal;
  /**
   * The fetch to use (default: the global one). It must follow redirects as the global one does:
   * without `Authorization` to another origin.
   */
  fetch?: typeof fetch;
  /** Product token sent before tern's own `User-Agent`, e.g. `my-notebook/1.0`. */
  userAgent?: string;
  /**
   * Largest JSON answer read, in bytes (default {@linkcode DEFAULT_MAX_JSON_BYTES}, 64 MiB);
   * past it a {@linkcode ResponseTooLargeError}. Downloads are not capped (they are checked
   * against the file's listed size instead).
   */
  maxJsonBytes?: number;
  /**
   * Arms the timeouts (the headers' wait and each body's idle wait): runs `run` after `ms`
   * unless the returned function is called first. Tests pass one on a clock they step, so no
   * timeout depends on how busy the machine is.
   * @default setTimeout and clearTimeout
   */
  timer?: (run: () => void, ms: number) => () => void;
}

/**
 * The default cap on a JSON answer: 64 MiB, about 200,000 listing entries — far above any page
 * tern asks for (it pages listings at most a few thousand entries at a time).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_MAX_JSON_BYTES } from "./transport.ts";
 *
 * assert.equal(DEFAULT_MAX_JSON_BYTES, 64 * 1024 * 1024);
 * ```
 */
export const DEFAULT_MAX_JSON_BYTES = 64 * 1024 * 1024;

/**
 * A query string: arrays become repeated keys; `undefined` values are left out.
 *
 * @example
 * ```ts
 * import type { Query } from "./transport.ts";
 *
 * const query: Query = { path: "/iplant/home/shared", limit: 100, "info-type": ["csv", "tsv"] };
 * // → ?path=%2Fiplant%2Fhome%2Fshared&limit=100&info-type=csv&info-type=tsv
 * ```
 */
export type Query = Record<
  string,
  string | number | boolean | readonly (string | number)[] | undefined
>;

/**
 * One request, as the endpoint functions describe it: a GET, or a POST of `json`.
 *
 * @example
 * ```ts
 * import type { RequestSpec } from "./transport.ts";
 *
 * const spec: RequestSpec = {
 *   path: "/filesystem/file/manifest",
 *   query: { path: "/iplant/home/shared/a.csv" },
 *   endpoint: "filesystem/file/manifest",
 *   subject: "/iplant/home/shared/a.csv",
 * };
 * ```
 */
export interface RequestSpec {
  /** Path under the base URL, starting with `/`, already percent-encoded. */
  path: string;
  /** Query parameters. */
  query?: Query;
  /** Endpoint name used in errors, for example `filesystem/paged-directory`. */
  endpoint: string;
  /** Data-store path or id the request concerns, used in errors. */
  subject?: string;
  /** Attach the stored credentials (default `true`). */
  authenticate?: boolean;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /**
   * A body to POST as JSON (`stat` reads many items this way; like every request it only reads,
   * so it is retried as a GET is).
   */
  json?: unknown;
  /**
   * Never repeated after a failure that may have reached the server: a scroll's next page moves
   * the server's cursor, so a repeat would answer with the page after the lost one.
   *
   * @default false
   */
  once?: boolean;
  /** Aborts this request. */
  signal?: AbortSignal;
}

/**
 * One GET of an absolute URL outside the gateway, as {@linkcode Transport.streamUrl} sends it.
 *
 * @example
 * ```ts
 * import type { UrlRequestSpec } from "./transport.ts";
 *
 * const spec: UrlRequestSpec = {
 *   url: "https://data.cyverse.org/dav-anon/iplant/home/shared/a.parquet",
 *   endpoint: "dav-anon",
 *   subject: "/iplant/home/shared/a.parquet",
 *   headers: { range: "bytes=0-1023", "if-match": '"abc"' },
 *   answered: [412, 416],
 * };
 * ```
 */
export interface UrlRequestSpec {
  /** The absolute `http://` or `https://` URL, such as a file's anonymous `dav-anon` URL. */
  url: string;
  /** Name used in errors, for example `dav-anon`. */
  endpoint: string;
  /** Data-store path the request concerns, used in errors. */
  subject?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Aborts this request. */
  signal?: AbortSignal;
  /**
   * Statuses besides 2xx handed back as an answer instead of an error, and never retried: a
   * conditional request's `412`, say, whose headers the caller reads itself.
   *
   * @default []
   */
  answered?: readonly number[];
}

/**
 * A successful answer whose body is left to the caller.
 *
 * @example
 * ```ts
 * import type { StreamedResponse } from "./transport.ts";
 *
 * async function bytes(answer: StreamedResponse): Promise<number> {
 *   let total = 0;
 *   for await (const chunk of answer.body) total += chunk.byteLength;
 *   return total;
 * }
 * ```
 */
export interface StreamedResponse {
  /**
   * The body. Read it to the end or cancel it: the request's limiter slot is held until then.
   * It errors with a {@linkcode NetworkError} when it stalls, breaks, or is shorter or longer
   * than announced, and with an `AbortError` when aborted.
   */
  body: ReadableStream<Uint8Array>;
  /** Response headers. */
  headers: Headers;
  /** HTTP status: 2xx, or one of the request's `answered` statuses. */
  status: number;
  /** Byte length from `Content-Length`, when the server announced it. */
  size?: number;
}

/**
 * Retry, timeout and concurrency settings of a {@linkcode Transport}.
 *
 * @example
 * ```ts
 * import type { TransportPolicy } from "./transport.ts";
 *
 * const patience = (policy: TransportPolicy) => policy.timeoutMs * (policy.retries + 1);
 * ```
 */
export interface TransportPolicy {
  /** Requests in flight at once, bodies included. */
  concurrency: number;
  /** Extra attempts after a retryable failure. */
  retries: number;
  /** Longest wait for the response headers, in ms. */
  timeoutMs: number;
  /** Longest wait for the next body chunk, in ms. */
  idleTimeoutMs: number;
  /** Ceiling of the first retry delay, in ms. */
  retryBaseMs: number;
  /** Ceiling of any retry delay, in ms. */
  retryMaxMs: number;
  /** Largest JSON answer read, in bytes. */
  maxJsonBytes: number;
}

/**
 * Counters for monitoring and the reliability tests.
 *
 * @example
 * ```ts
 * import type { TransportStats } from "./transport.ts";
 *
 * const retryShare = (stats: TransportStats) => stats.retries / Math.max(1, stats.requests);
 * ```
 */
export interface TransportStats {
  /** HTTP requests sent (every attempt, token exchanges included). */
  requests: number;
  /** Attempts repeated after a retryable failure. */
  retries: number;
  /** Token exchanges performed. */
  tokenExchanges: number;
  /** Requests holding a slot right now. */
  inFlight: number;
  /** Most requests ever in flight at once. */
  peakInFlight: number;
}

const MAX_RETRY_AFTER_MS = 60_000;
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * Longest URL sent. Deno's fetch refuses longer ones outright (its HTTP client's limit), and
 * servers refuse far shorter ones (414 or 431); either way the request is too large, not the
 * server out of reach.
 */
const MAX_URL_CHARS = 65_534;
const NEVER_ABORTED = new AbortController().signal;
const UTF8 = new TextDecoder();

type Failure =
  | { kind: "network"; error: NetworkError }
  | { kind: "response"; status: number; body: unknown; retryAfterMs?: number };

/** A request as sent: a gateway route, or (from {@linkcode Transport.streamUrl}) a URL of its own. */
type Outgoing = RequestSpec & { url?: string; answered?: readonly number[] };

type Attempt<T> = { ok: true; value: T } | { ok: false; failure: Failure };

/**
 * Takes a successful answer: reads `body` under `guard` (which releases the request's slot once
 * the body is done with), or hands it on guarded.
 */
type Accept<T> = (
  response: Response,
  body: ReadableStream<Uint8Array>,
  guard: GuardOptions,
) => Promise<T>;

/**
 * Sends requests to one Terrain gateway on behalf of one store: GETs, and the POSTs that only
 * read (`stat`).
 *
 * Retries network failures, timeouts, broken JSON bodies, 502/503/504 and 500 without a Terrain
 * `error_code`, with exponential backoff and full jitter; 429 and 503 honour `Retry-After`. Other
 * answers are never retried. An abort rejects with an `AbortError` and is never retried. With a
 * username and password, a token is exchanged when first needed and again when it nears expiry
 * or is rejected (once per request).
 *
 * @example Anonymous JSON request
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { Transport } from "./transport.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const transport = new Transport({ url: store.options.url });
 * const docs = await transport.json({
 *   path: "/filesystem/search-documentation",
 *   endpoint: "filesystem/search-documentation",
 * });
 * assert.equal(transport.stats.requests, 1);
 * ```
 */
export class Transport {
  /** Base URL without a trailing slash. */
  readonly url: string;
  /** Retry, timeout and concurrency settings in force (frozen). */
  readonly policy: Readonly<TransportPolicy>;
  /** The `User-Agent` sent with every request. */
  readonly userAgent: string;
  /** The limiter bounding this transport's requests. */
  readonly limiter: Limiter;
  #credentials: Credentials;
  #fetch: typeof fetch;
  #timer: (run: () => void, ms: number) => () => void;
  #signal: AbortSignal;
  #requests = 0;
  #retries = 0;
  #sendJson: SendJson = (request) => this.json(request);

  /**
   * Creates a transport; nothing is sent until the first request.
   *
   * @param options Base URL, credentials and policy (numbers as `connect()` checked them); see
   * {@linkcode TransportOptions}.
   * @throws {BadRequestError} for an unusable URL, or credentials given twice or by halves.
   *
   * @example
   * ```ts
   * import { Transport } from "./transport.ts";
   * import assert from "node:assert/strict";
   *
   * const transport = new Transport({ url: "https://de.cyverse.org/terrain", token: "eyJh.eyJw.c2ln" });
   * assert.equal(
   *   String(transport),
   *   "Transport(https://de.cyverse.org/terrain, token, [redacted])",
   * );
   * ```
   */
  constructor(options: TransportOptions) {
    this.url = checkUrl(options.url);
    // The numbers were checked where the caller gave them (`connect()`).
    this.policy = Object.freeze({
      concurrency: options.concurrency ?? 4,
      retries: options.retries ?? 4,
      timeoutMs: options.timeoutMs ?? 30_000,
      idleTimeoutMs: options.idleTimeoutMs ?? 60_000,
      retryBaseMs: options.retryBaseMs ?? 250,
      retryMaxMs: options.retryMaxMs ?? 10_000,
      maxJsonBytes: options.maxJsonBytes ?? DEFAULT_MAX_JSON_BYTES,
    });
    this.limiter = new Limiter(this.policy.concurrency);
    this.userAgent = userAgent(options.userAgent);
    this.#credentials = credentialsFrom(options);
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#timer = options.timer ?? realTimer;
    this.#signal = options.signal ?? NEVER_ABORTED;
  }

  /** How this transport authenticates: `anonymous`, `token` or `password`. */
  get authMode(): Credentials["mode"] {
    return this.#credentials.mode;
  }

  /** Whether requests go out without credentials (only Terrain's public routes work). */
  get anonymous(): boolean {
    return this.#credentials.mode === "anonymous";
  }

  /** The username, for username/password transports. */
  get username(): string | undefined {
    return this.#credentials.username;
  }

  /** HTTP requests sent so far (every attempt, token exchanges included). */
  get requests(): number {
    return this.#requests;
  }

  /** Attempts repeated after retryable failures so far. */
  get retries(): number {
    return this.#retries;
  }

  /**
   * A snapshot of the counters.
   *
   * @example
   * ```ts
   * import { Transport } from "./transport.ts";
   * import assert from "node:assert/strict";
   *
   * const transport = new Transport({ url: "http://127.0.0.1:8080/terrain" });
   * assert.deepEqual(
   *   transport.stats,
   *   { requests: 0, retries: 0, tokenExchanges: 0, inFlight: 0, peakInFlight: 0 },
   * );
   * ```
   */
  get stats(): TransportStats {
    return {
      requests: this.#requests,
      retries: this.#retries,
      tokenExchanges: this.#credentials.exchanges,
      inFlight: this.limiter.active,
      peakInFlight: this.limiter.peak,
    };
  }

  /**
   * Sends a GET (a POST with `spec.json`) and returns the JSON body, read whole and parsed.
   *
   * @throws {TernError} a subclass matching the failure; `AbortError` when aborted.
   *
   * @example
   * ```ts
   * import { DEMO_USER } from "../sample/constants.ts";
   * import { exampleStore } from "../sample/example.ts";
   * import { Transport } from "./transport.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const transport = new Transport({ url: store.options.url, token: DEMO_USER.token });
   * const page = await transport.json({
   *   path: "/secured/filesystem/paged-directory",
   *   query: { path: "/iplant/home/demo", limit: 100 },
   *   endpoint: "filesystem/paged-directory",
   *   subject: "/iplant/home/demo",
   * }) as { total: number };
   * assert.equal(page.total, 6);
   * ```
   */
  json(spec: RequestSpec): Promise<unknown> {
    return this.#send(spec, async (_response, body, guard) => {
      const max = this.policy.maxJsonBytes;
      const bytes = await readBody(body, guard, max);
      if (bytes === undefined) {
        throw new ResponseTooLargeError(
          `${spec.endpoint} answered with more than ${max} bytes of JSON` +
            `${spec.subject === undefined ? "" : ` for ${quoteInput(spec.subject)}`}; ` +
            "reading stopped there (raise maxJsonBytes if the server is trusted).",
          { endpoint: spec.endpoint, path: spec.subject },
        );
      }
      const text = UTF8.decode(bytes);
      try {
        return JSON.parse(text);
      } catch {
        const shown = text.trim() === "" ? "an empty body" : JSON.stringify(truncate(text, 80));
        const subject = spec.subject === undefined ? "" : ` for ${quoteInput(spec.subject)}`;
        // A web site's page (a base URL without /terrain, a sign-in portal) answers every path.
        const page = /^\s*</.test(text);
        throw new ProtocolError(
          page
            ? `${spec.endpoint} answered with a web page, not JSON${subject}: ${shown}. ` +
              `Check the base URL (${quoteInput(this.url)}): Terrain's ends in /terrain ` +
              "(for CyVerse, https://de.cyverse.org/terrain)."
            : `${spec.endpoint} answered with something that is not JSON${subject}: ${shown}.`,
          { endpoint: spec.endpoint, path: spec.subject },
        );
      }
    });
  }

  /**
   * Sends a GET and returns the body as a guarded stream once the headers arrive. Failures before
   * that are retried; the body itself is not (a download cannot resume without Range support).
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import { Transport } from "./transport.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const transport = new Transport({ url: store.options.url });
   * const { body, size } = await transport.stream({
   *   path: "/fileio/download",
   *   query: { path: "/iplant/home/shared/tern_samples/formats/penguins.csv" },
   *   endpoint: "fileio/download",
   * });
   * assert.equal(size, 13487);
   * assert.equal((await new Response(body).bytes()).length, 13487);
   * ```
   */
  stream(spec: RequestSpec): Promise<StreamedResponse> {
    return this.#send(spec, streamed);
  }

  /**
   * Sends a GET to an absolute URL outside the gateway (a file's anonymous `dav-anon` URL, which
   * remote scans read byte ranges from) through this transport like any other request: its
   * `fetch`, limiter, timeouts, retries, signal and `User-Agent`. It never carries credentials:
   * those go to the gateway only. The answer is handed on as by {@linkcode Transport.stream}.
   *
   * @throws {BadRequestError} when `url` is not an absolute `http(s)` URL.
   *
   * @example
   * ```ts
   * import { exampleStore } from "../sample/example.ts";
   * import { Transport } from "./transport.ts";
   * import assert from "node:assert/strict";
   *
   * await using store = await exampleStore();
   * const path = "/iplant/home/shared/tern_samples/formats/penguins.csv";
   * const { publicUrl } = await store.file(path).manifest();
   * const transport = new Transport({ url: store.options.url });
   * const { status, body } = await transport.streamUrl({
   *   url: publicUrl!,
   *   endpoint: "dav-anon",
   *   subject: path,
   *   headers: { range: "bytes=0-8" },
   * });
   * assert.equal(status, 206);
   * assert.equal(await new Response(body).text(), "Species,I");
   * assert.equal(transport.stats.requests, 1);
   * ```
   */
  streamUrl(spec: UrlRequestSpec): Promise<StreamedResponse> {
    const parsed = URL.parse(spec.url);
    if (parsed?.protocol !== "http:" && parsed?.protocol !== "https:") {
      throw new BadRequestError(
        `${spec.endpoint} needs an absolute http(s) URL, got ${
          quoteInput(redactUrl(String(spec.url)))
        }.`,
        { endpoint: spec.endpoint, path: spec.subject },
      );
    }
    return this.#send({ ...spec, path: "", authenticate: false }, streamed);
  }

  async #send<T>(spec: Outgoing, accept: Accept<T>): Promise<T> {
    const signal = spec.signal === undefined
      ? this.#signal
      : this.#signal === NEVER_ABORTED
      ? spec.signal
      : AbortSignal.any([this.#signal, spec.signal]);
    let retry = 0;
    let renewed = false;
    try {
      while (true) {
        if (signal.aborted) throw abortError(signal);
        const authorization = spec.authenticate === false
          ? undefined
          : await this.#credentials.authorization(this.#sendJson, signal);
        const release = await this.limiter.acquire(signal);
        const attempt = await this.#attempt(spec, authorization, signal, release, accept);
        if (attempt.ok) return attempt.value;
        const failure = attempt.failure;
        if (
          failure.kind === "response" && authorization !== undefined && !renewed &&
          this.#credentials.renewable && isTokenProblem(failure.status, failure.body)
        ) {
          renewed = true;
          this.#credentials.invalidate(authorization);
          continue;
        }
        // A server that speaks plain HTTP, or a refused certificate, fails the same every time.
        const retryable = failure.kind === "network"
          ? !(failure.error instanceof TlsError)
          : isRetryableStatus(failure.status, errorCodeOf(failure.body));
        if (!retryable || retry >= this.policy.retries || spec.once === true) {
          throw this.#finalError(failure, spec, authorization !== undefined, retry + 1);
        }
        let delay = backoffDelay(retry, this.policy.retryBaseMs, this.policy.retryMaxMs);
        if (failure.kind === "response" && failure.retryAfterMs !== undefined) {
          if (failure.retryAfterMs > MAX_RETRY_AFTER_MS) {
            throw new ServerError(
              `The server asked to wait ${formatMs(failure.retryAfterMs)} before retrying ` +
                `${spec.endpoint} (HTTP ${failure.status}); giving up instead.`,
              { status: failure.status, endpoint: spec.endpoint, path: spec.subject },
            );
          }
          delay = failure.retryAfterMs;
        }
        retry++;
        this.#retries++;
        await sleep(delay, signal);
      }
    } catch (error) {
      throw this.#scrubbed(error);
    }
  }

  async #attempt<T>(
    spec: Outgoing,
    authorization: string | undefined,
    signal: AbortSignal,
    release: () => void,
    accept: Accept<T>,
  ): Promise<Attempt<T>> {
    let handedOver = false;
    try {
      const headers = new Headers(spec.headers);
      const sent = spec.json === undefined ? undefined : JSON.stringify(spec.json);
      if (sent !== undefined) headers.set("content-type", "application/json");
      headers.set("user-agent", this.userAgent);
      if (!headers.has("accept")) headers.set("accept", "application/json, */*;q=0.5");
      if (authorization !== undefined) headers.set("authorization", authorization);
      const url = this.#urlFor(spec);
      if (url.length > MAX_URL_CHARS) {
        throw new RequestTooLargeError(
          `The request for ${spec.endpoint}${
            spec.subject === undefined ? "" : ` ${quoteInput(spec.subject)}`
          } was not sent: its URL would be ${url.length} characters, more than any server ` +
            `accepts (at most ${MAX_URL_CHARS}). Use a shorter path or name.`,
          { endpoint: spec.endpoint, path: spec.subject },
        );
      }

      const attempt = new AbortController();
      const onAbort = () => attempt.abort(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      let timedOut = false;
      const disarm = this.#timer(() => {
        timedOut = true;
        attempt.abort();
      }, this.policy.timeoutMs);
      let response: Response;
      this.#requests++;
      try {
        // fetch follows redirects, and drops Authorization when one leads to another origin
        // (the Fetch standard; tests/client/transport_test.ts holds Deno to it): credentials
        // never follow a redirect away from the store.
        response = await this.#fetch(url, {
          method: sent === undefined ? "GET" : "POST",
          headers,
          body: sent,
          signal: attempt.signal,
        });
      } catch (error) {
        if (signal.aborted) throw abortError(signal);
        const host = new URL(spec.url ?? this.url).host;
        const where = `${spec.endpoint}${
          spec.subject === undefined ? "" : ` ${quoteInput(spec.subject)}`
        }`;
        const message = timedOut
          ? `No answer from ${host} for ${where} within ${formatMs(this.policy.timeoutMs)}.`
          : `Could not reach ${host} for ${where}: ${describeFetchError(error)}.`;
        const details = { endpoint: spec.endpoint, path: spec.subject };
        const tls = timedOut ? undefined : tlsFailure(error, spec.url ?? this.url, where);
        return {
          ok: false,
          failure: {
            kind: "network",
            error: tls !== undefined
              ? new TlsError(tls, { ...details, cause: error })
              : new NetworkError(message, timedOut ? details : { ...details, cause: error }),
          },
        };
      } finally {
        disarm();
        signal.removeEventListener("abort", onAbort);
      }

      const body = response.body ?? new Blob().stream();
      const guard: GuardOptions = {
        expectedLength: declaredLength(response.headers),
        idleTimeoutMs: this.policy.idleTimeoutMs,
        signal,
        onFinish: release,
        context: { endpoint: spec.endpoint, subject: spec.subject },
        timer: this.#timer,
      };
      // From here the body's guard gives the slot back, once the body is done with.
      handedOver = true;

      if (!response.ok && !spec.answered?.includes(response.status)) {
        // A body that cannot be read is left out: the status alone still says what happened.
        const bytes = await readBody(body, guard, MAX_ERROR_BODY_BYTES).catch((error) => {
          if (isAbortError(error)) throw error;
          return undefined;
        });
        return {
          ok: false,
          failure: {
            kind: "response",
            status: response.status,
            body: parseErrorBody(bytes),
            retryAfterMs: parseRetryAfter(response.headers.get("retry-after")),
          },
        };
      }
      try {
        return { ok: true, value: await accept(response, body, guard) };
      } catch (error) {
        if (error instanceof NetworkError) {
          return { ok: false, failure: { kind: "network", error } };
        }
        // A body that is not JSON, or an abort, was done with already; releasing again is a
        // no-op that keeps the slot from leaking should an answer ever be refused unread.
        release();
        throw error;
      }
    } finally {
      if (!handedOver) release();
    }
  }

  #finalError(
    failure: Failure,
    spec: Outgoing,
    authenticated: boolean,
    attempts: number,
  ): TernError {
    if (failure.kind === "response" && failure.status === 404 && spec.url !== undefined) {
      // Not the gateway's 404, which can mean a wrong base URL: this URL's own item is missing.
      return new NotFoundError(
        `${spec.subject === undefined ? "The item" : quoteInput(spec.subject)} was not found ` +
          `at its URL (${spec.endpoint}, HTTP 404).`,
        { status: 404, endpoint: spec.endpoint, path: spec.subject },
      );
    }
    if (failure.kind === "response") {
      return errorFromResponse({
        ...failure,
        endpoint: spec.endpoint,
        subject: spec.subject,
        authenticated,
        attempts,
        baseUrl: withoutCredentials(this.url),
      });
    }
    if (attempts === 1) return failure.error;
    const { message, endpoint, path, cause } = failure.error;
    const gaveUp = `${message.replace(/\.$/, "")} (gave up after ${attempts} attempts).`;
    return new NetworkError(gaveUp, { endpoint, path, cause });
  }

  #urlFor(spec: Outgoing): string {
    if (spec.url !== undefined) return spec.url;
    // A string, not a URL: fetch parses it anyway, and each append to a URL's `searchParams`
    // parses the whole URL again.
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(spec.query ?? {})) {
      if (value === undefined) continue;
      const values = Array.isArray(value) ? value : [value];
      for (const item of values) query.append(key, String(item));
    }
    const search = query.toString();
    return this.url + spec.path + (search === "" ? "" : `?${search}`);
  }

  /** Removes every known secret from an error's message, stack and cause before it leaves. */
  #scrubbed(error: unknown): unknown {
    if (!(error instanceof TernError)) return error;
    const scrub = (text: string) => this.#credentials.scrub(text);
    error.message = scrub(error.message);
    if (error.stack !== undefined) error.stack = scrub(error.stack);
    if (error.cause !== undefined) {
      const cause = error.cause;
      const safe = cause instanceof Error
        ? Object.assign(new Error(scrub(cause.message)), { name: cause.name })
        : scrub(String(cause));
      Object.defineProperty(error, "cause", { value: safe, writable: true, configurable: true });
    }
    return error;
  }

  /** `{"url":…,"auth":"password","username":"demo","credentials":"[redacted]",…}`. */
  toJSON(): Record<string, unknown> {
    return {
      url: this.url,
      auth: this.authMode,
      ...(this.username === undefined ? {} : { username: this.username }),
      credentials: this.anonymous ? "none" : "[redacted]",
      policy: this.policy,
    };
  }

  /** `Transport(http://…/terrain, password demo, [redacted])`. */
  toString(): string {
    const who = this.username === undefined ? this.authMode : `${this.authMode} ${this.username}`;
    return `Transport(${this.url}, ${who}${this.anonymous ? "" : ", [redacted]"})`;
  }

  /** For `Deno.inspect` and `console.log`: settings and counters, never credentials. */
  [Symbol.for("Deno.customInspect")](
    inspect: (value: unknown, options: unknown) => string,
    options: unknown,
  ): string {
    return `Transport ${inspect({ ...this.toJSON(), stats: this.stats }, options)}`;
  }

  /** For `node:util` inspect: same as `toString`. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}

/** Hands an answer on with its body guarded (the body gives the request's slot back). */
function streamed(
  response: Response,
  body: ReadableStream<Uint8Array>,
  guard: GuardOptions,
): Promise<StreamedResponse> {
  return Promise.resolve({
    body: guardBody(body, guard),
    headers: response.headers,
    status: response.status,
    ...(guard.expectedLength === undefined ? {} : { size: guard.expectedLength }),
  });
}

function credentialsFrom(options: TransportOptions): Credentials {
  const { token, username, password } = options;
  if (token !== undefined && (username !== undefined || password !== undefined)) {
    throw new BadRequestError("Pass either token, or username and password, not both.");
  }
  if (token !== undefined) return Credentials.fromToken(token);
  if (username !== undefined || password !== undefined) {
    if (username === undefined) throw new BadRequestError("password was given without username.");
    if (password === undefined) throw new BadRequestError("username was given without password.");
    return Credentials.fromPassword(username, password);
  }
  return Credentials.anonymous();
}

function checkUrl(url: unknown): string {
  if (typeof url !== "string" || url.trim() === "") {
    throw new BadRequestError("url is required, for example https://de.cyverse.org/terrain.");
  }
  // Every message below shows the URL redacted: it may hold a password, valid URL or not.
  // A query may carry a token too: only its presence is shown.
  const shown = JSON.stringify(truncate(redactUrl(url.trim()).replace(/[?#][^]*$/, "?…"), 120));
  const parsed = URL.parse(url.trim());
  if (parsed === null) {
    throw new BadRequestError(
      `url is not a valid URL: ${shown}; it starts with http:// or https://, ` +
        "e.g. https://de.cyverse.org/terrain.",
    );
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new BadRequestError(
      `url must start with http:// or https://, got ${parsed.protocol} in ${shown}.`,
    );
  }
  if (parsed.username !== "" || parsed.password !== "") {
    // Userinfo is refused, not used: a URL is copied into logs, notebooks and shell history,
    // where a password in it would leak; credentials go in their own options.
    throw new BadRequestError(
      `url must not contain a username or password (got ${shown}); pass username and ` +
        "password (or token) as options instead.",
    );
  }
  if (parsed.search !== "" || parsed.hash !== "") {
    throw new BadRequestError(
      `url must be the gateway's base URL, without a query or fragment (got ${shown}).`,
    );
  }
  return parsed.href.replace(/(?<!\/)\/+$/, "");
}

/** The promised body length, unless the body was content-encoded (fetch decodes it). */
function declaredLength(headers: Headers): number | undefined {
  const encoding = headers.get("content-encoding");
  if (encoding !== null && encoding.trim().toLowerCase() !== "identity") return undefined;
  const length = headers.get("content-length");
  if (length === null || !/^\d+$/.test(length.trim())) return undefined;
  return Number(length.trim());
}

function parseErrorBody(bytes: Uint8Array | undefined): unknown {
  if (bytes === undefined) return "";
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describeFetchError(error: unknown): string {
  // Deno says "fetch failed" and puts the reason in the cause chain; use the deepest message,
  // without the "error sending request for url (…):" prefix (the endpoint is already named).
  let deepest: unknown = error;
  while (deepest instanceof Error && deepest.cause instanceof Error) deepest = deepest.cause;
  const text = deepest instanceof Error ? deepest.message : String(deepest);
  return truncate(text.replace(/^error sending request for url \([^)]*\):\s*/i, ""), 200);
}

/**
 * What a failed TLS handshake means, when no retry can change it: the server answered in plain
 * HTTP (rustls reads its `HTTP/1.1 400` as a record of an invalid content type), or refused
 * the certificate. Anything else (a connection closed mid-handshake) may be passing.
 */
function tlsFailure(error: unknown, url: string, where: string): string | undefined {
  const text = describeFetchError(error);
  const target = new URL(url);
  if (/InvalidContentType/i.test(text)) {
    const plain = new URL(withoutCredentials(url));
    plain.protocol = "http:";
    return `${target.host} answered the TLS handshake for ${where} in plain HTTP: the server ` +
      `speaks http://, not https://. Use ${plain.href.replace(/\/$/, "")}.`;
  }
  if (/certificate|UnknownIssuer|NotValidForName|CertExpired/i.test(text)) {
    return `The TLS certificate of ${target.host} was not accepted for ${where}: ${text}. ` +
      "Check the URL's host name, or the certificates this machine trusts (DENO_CERT).";
  }
  return undefined;
}

/** A URL without any user name or password in it, for messages. */
function withoutCredentials(url: string): string {
  const parsed = URL.parse(url);
  if (parsed === null) return "the base URL";
  parsed.username = "";
  parsed.password = "";
  return parsed.href.replace(/\/$/, "");
}
