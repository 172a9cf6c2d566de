/**
 * Credentials for a store: anonymous, a fixed token, or a username and password that are
 * exchanged for a token at `GET {url}/token/keycloak` (HTTP Basic) when first needed.
 *
 * The exchanged token is cached and exchanged again shortly before `expires_in` runs out, or
 * when the server rejects it; concurrent callers share one exchange. Nothing is decoded from the
 * token. Secrets never show in `Deno.inspect`, `JSON.stringify`, `String()` or error messages.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { abortError, AuthError, TernError } from "./errors.ts";
import type { TokenResponse } from "./schemas.ts";
import { isJwtShaped } from "../registry/jwt_shape.ts";

/**
 * The token route; unsecured and the only one that accepts HTTP Basic. It lives here, not with
 * the data routes in endpoints.ts, because credentials must renew tokens on their own.
 *
 * @example
 * ```ts
 * import { TOKEN_ENDPOINT } from "./auth.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(`/${TOKEN_ENDPOINT}`, "/token/keycloak");
 * ```
 */
export const TOKEN_ENDPOINT = "token/keycloak";

/**
 * How the client authenticates.
 *
 * @example
 * ```ts
 * import type { AuthMode } from "./auth.ts";
 *
 * const describe = (mode: AuthMode) => mode === "anonymous" ? "public data only" : "signed in";
 * ```
 */
export type AuthMode = "anonymous" | "token" | "password";

/**
 * A GET sent without stored credentials, as {@linkcode requestToken} needs it.
 *
 * @example
 * ```ts
 * import type { TokenRequest } from "./auth.ts";
 *
 * const request: TokenRequest = {
 *   path: "/token/keycloak",
 *   endpoint: "token/keycloak",
 *   authenticate: false,
 *   headers: { authorization: "Basic ZGVtbzpwdw==" },
 * };
 * ```
 */
export interface TokenRequest {
  /** Path under the base URL. */
  path: string;
  /** Endpoint name for errors. */
  endpoint: string;
  /** Never attach the stored credentials. */
  authenticate: false;
  /** Extra headers (the Basic authorization). */
  headers: Record<string, string>;
}

/**
 * Sends a {@linkcode TokenRequest} and returns the parsed JSON body (a Transport's `json`).
 *
 * @example
 * ```ts
 * import type { SendJson } from "./auth.ts";
 *
 * const send: SendJson = () => Promise.resolve({ access_token: "a.b.c", expires_in: 300 });
 * ```
 */
export type SendJson = (request: TokenRequest) => Promise<unknown>;

/**
 * Shown instead of any secret.
 *
 * @example
 * ```ts
 * import { Credentials, REDACTED } from "./auth.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(JSON.stringify(Credentials.fromToken("a.b.c")).includes(REDACTED));
 * ```
 */
export const REDACTED = "[redacted]";

/**
 * A URL as it may be shown: whatever stands before the host's `@` (a username, a password, or
 * both) becomes `***`, whether or not the text parses as a URL (a bad port, a stray bracket,
 * a scheme without slashes, leading spaces). Text without userinfo comes back unchanged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { redactUrl } from "./auth.ts";
 *
 * assert.equal(redactUrl("http://demo:hunter2@127.0.0.1:99999/terrain"), "http://***@127.0.0.1:99999/terrain");
 * assert.equal(redactUrl("https://de.cyverse.org/terrain"), "https://de.cyverse.org/terrain");
 * assert.equal(redactUrl("http:demo:p@ss@host/x"), "http:***@host/x");
 * ```
 */
export function redactUrl(text: string): string {
  // The authority starts after "scheme:" and any slashes (WHATWG parsers accept "http:user@h"
  // and backslashes), or at the start when there is no scheme; it ends at the first / \ ? #.
  // The userinfo is everything up to its last "@", as URL parsers take it.
  return text.replace(
    /^(\s*(?:[a-z][a-z0-9+.-]*:)?[\/\\]*)([^\/\\?#]*@)/i,
    (_match, head: string) => `${head}***@`,
  );
}

/**
 * Exchanges a username and password for a token at `GET /token/keycloak` with HTTP Basic.
 *
 * @param send Sends the request (retries, timeouts and the limiter apply).
 * @throws {AuthError} when the server refuses the username or password.
 *
 * @example
 * ```ts
 * import { STORE_CONTEXT } from "../handles/store_context.ts";
 * import { DEMO_USER } from "../sample/constants.ts";
 * import { exampleStore } from "../sample/example.ts";
 * import { requestToken, type TokenRequest } from "./auth.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const transport = store[STORE_CONTEXT].transport;
 * const send = (request: TokenRequest) => transport.json(request);
 * const grant = await requestToken(send, DEMO_USER.username, DEMO_USER.password);
 * assert.ok(grant.expires_in > 0);
 * ```
 */
export async function requestToken(
  send: SendJson,
  username: string,
  password: string,
): Promise<TokenResponse> {
  // The schemas (zod under them) load while the request is on its way.
  const [body, schemas] = await Promise.all([
    send({
      path: `/${TOKEN_ENDPOINT}`,
      endpoint: TOKEN_ENDPOINT,
      authenticate: false,
      headers: { authorization: basicAuthorization(username, password) },
    }),
    import("./schemas.ts"),
  ]).catch((error) => {
    if (error instanceof AuthError || (error instanceof TernError && error.status === 403)) {
      throw new AuthError(
        `Sign-in as ${JSON.stringify(username)} failed: the server rejected the username or ` +
          `password (${TOKEN_ENDPOINT}, HTTP ${error.status}).`,
        { status: error.status, endpoint: TOKEN_ENDPOINT },
      );
    }
    throw error;
  });
  return schemas.parseBody(schemas.TokenResponse, body, {
    endpoint: TOKEN_ENDPOINT,
    redactValues: true,
  });
}

/**
 * The `Authorization` value for HTTP Basic: `Basic base64(username:password)` in UTF-8.
 *
 * @example
 * ```ts
 * import { basicAuthorization } from "./auth.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(basicAuthorization("demo", "pw"), "Basic ZGVtbzpwdw==");
 * ```
 */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
}

interface Grant {
  authorization: string;
  renewAt: number;
}

/**
 * Holds a store's credentials and hands out the `Authorization` header for each request.
 *
 * @example Anonymous, fixed token, and username/password
 * ```ts
 * import { Credentials } from "./auth.ts";
 * import assert from "node:assert/strict";
 *
 * const anonymous = Credentials.anonymous();
 * const fixed = Credentials.fromToken("eyJh.eyJw.c2ln");
 * const login = Credentials.fromPassword("demo", "pw");
 * assert.equal(anonymous.mode, "anonymous");
 * assert.equal(fixed.mode, "token");
 * assert.equal(login.mode, "password");
 * assert.equal(
 *   JSON.stringify(login),
 *   '{"mode":"password","username":"demo","secret":"[redacted]"}',
 * );
 * ```
 */
export class Credentials {
  /** How this client authenticates. */
  readonly mode: AuthMode;
  /** The username, for password credentials. */
  readonly username?: string;
  /** The token, or the password. */
  #secret?: string;
  #grant?: Grant;
  #pending?: Promise<Grant>;
  #exchanges = 0;
  #secrets: string[] = [];
  #clock: () => number;

  private constructor(
    mode: AuthMode,
    username?: string,
    secret?: string,
    clock: () => number = () => performance.now(),
  ) {
    this.mode = mode;
    this.#clock = clock;
    this.#secret = secret;
    if (mode === "password") {
      this.username = username;
      this.#remember(basicAuthorization(username!, secret!).slice("Basic ".length));
    }
    if (secret !== undefined) this.#remember(secret);
  }

  /**
   * No credentials: only the routes Terrain opens to the `anonymous` user work.
   *
   * @example
   * ```ts
   * import { Credentials } from "./auth.ts";
   * import assert from "node:assert/strict";
   *
   * assert.equal(Credentials.anonymous().mode, "anonymous");
   * ```
   */
  static anonymous(): Credentials {
    return new Credentials("anonymous");
  }

  /**
   * A token obtained elsewhere (for example from an environment variable); never renewed. A
   * leading `Bearer ` is dropped.
   *
   * @throws {AuthError} for an empty token, or one that is not JWT-shaped (Terrain would ignore
   * it and treat the caller as anonymous).
   *
   * @example
   * ```ts
   * import { Credentials } from "./auth.ts";
   * import assert from "node:assert/strict";
   *
   * assert.equal(
   *   String(Credentials.fromToken("eyJh.eyJw.c2ln")),
   *   "Credentials(token, [redacted])",
   * );
   * ```
   */
  static fromToken(token: string): Credentials {
    if (typeof token !== "string" || token.trim() === "") {
      throw new AuthError("The token is empty; pass the access token string.");
    }
    // A token copied together with its header's scheme word.
    const value = token.trim().replace(/^bearer\s+/i, "");
    // Terrain ignores a Bearer value that is not JWT-shaped as if none was sent, and then says
    // only that no authentication was found, never what is wrong with the token.
    if (!isJwtShaped(value)) {
      throw new AuthError(
        "The token is not an access token: Terrain takes a JWT, three base64url parts " +
          "separated by dots (eyJ….eyJ….…), and ignores anything else as if no token was sent.",
      );
    }
    return new Credentials("token", undefined, value);
  }

  /**
   * A username and password, exchanged for a token when first needed.
   *
   * @param clock Milliseconds on a monotonic clock, read to decide when a token is due for
   *   renewal (tests step their own); `performance.now` when left out.
   *
   * @example
   * ```ts
   * import { Credentials } from "./auth.ts";
   * import assert from "node:assert/strict";
   *
   * assert.equal(Credentials.fromPassword("demo", "pw").username, "demo");
   * ```
   */
  static fromPassword(
    username: string,
    password: string,
    clock?: () => number,
  ): Credentials {
    if (typeof username !== "string" || username === "") {
      throw new AuthError("The username is empty.");
    }
    if (typeof password !== "string" || password === "") {
      throw new AuthError(`The password for ${JSON.stringify(username)} is empty.`);
    }
    return new Credentials("password", username, password, clock);
  }

  /** Whether a rejected token can be replaced by exchanging the password again. */
  get renewable(): boolean {
    return this.mode === "password";
  }

  /** Token exchanges performed so far. */
  get exchanges(): number {
    return this.#exchanges;
  }

  /**
   * The `Authorization` header value for the next request, exchanging the password first when
   * there is no token yet or it is about to expire. Concurrent callers share one exchange;
   * `signal` only stops this caller's wait.
   *
   * @param send How to reach the token endpoint.
   * @returns `undefined` for anonymous credentials.
   *
   * @example
   * ```ts
   * import { Credentials } from "./auth.ts";
   * import assert from "node:assert/strict";
   *
   * const header = await Credentials.fromToken("eyJh.eyJw.c2ln").authorization(() => {
   *   throw new Error("not called for fixed tokens");
   * });
   * assert.ok(header === "Bearer eyJh.eyJw.c2ln");
   * ```
   */
  async authorization(send: SendJson, signal?: AbortSignal): Promise<string | undefined> {
    if (this.mode === "anonymous") return undefined;
    if (this.mode === "token") return `Bearer ${this.#secret}`;
    const grant = this.#grant;
    if (grant !== undefined && this.#clock() < grant.renewAt) return grant.authorization;
    this.#pending ??= this.#exchange(send).finally(() => {
      this.#pending = undefined;
    });
    return (await raceAbort(this.#pending, signal)).authorization;
  }

  /**
   * Forgets the token `authorization` came from, after the server rejected it, so that the next
   * {@linkcode Credentials.authorization} exchanges again. A header that is no longer current
   * (another caller already renewed it) is ignored.
   *
   * @example
   * ```ts
   * import { Credentials } from "./auth.ts";
   *
   * Credentials.fromPassword("demo", "pw").invalidate("Bearer old.token.value");
   * ```
   */
  invalidate(authorization: string): void {
    if (this.#grant?.authorization === authorization) this.#grant = undefined;
  }

  /**
   * Replaces every secret this object has seen (password, tokens, Basic value) in `text`.
   *
   * @example
   * ```ts
   * import { Credentials } from "./auth.ts";
   * import assert from "node:assert/strict";
   *
   * assert.equal(
   *   Credentials.fromToken("eyJh.eyJw.c2ln").scrub("got eyJh.eyJw.c2ln"),
   *   "got [redacted]",
   * );
   * ```
   */
  scrub(text: string): string {
    let result = text;
    for (const secret of this.#secrets) result = result.replaceAll(secret, REDACTED);
    return result;
  }

  async #exchange(send: SendJson): Promise<Grant> {
    this.#exchanges++;
    const answer = await requestToken(send, this.username!, this.#secret!);
    this.#remember(answer.access_token);
    const lifetimeMs = answer.expires_in * 1000;
    // Renew a little early (a quarter of the lifetime, at most 30 s) so a request never leaves
    // with a token that expires on the way; a 401/403 still triggers one renewal if it does.
    const renewAt = this.#clock() + lifetimeMs - Math.min(30_000, lifetimeMs / 4);
    this.#grant = { authorization: `Bearer ${answer.access_token}`, renewAt };
    return this.#grant;
  }

  #remember(secret: string): void {
    if (secret.length < 4 || this.#secrets.includes(secret)) return;
    // Fixed secrets first; exchanged tokens rotate, so keep only the recent ones.
    this.#secrets.push(secret);
    const fixed = this.mode === "password" ? 2 : 1;
    if (this.#secrets.length > fixed + 4) this.#secrets.splice(fixed, 1);
  }

  /** `{"mode":"password","username":"demo","secret":"[redacted]"}`; never the secret. */
  toJSON(): Record<string, string> {
    const json: Record<string, string> = { mode: this.mode };
    if (this.username !== undefined) json.username = this.username;
    if (this.mode !== "anonymous") json.secret = REDACTED;
    return json;
  }

  /** `Credentials(password, demo, [redacted])`; never the secret. */
  toString(): string {
    return `Credentials(${Object.values(this.toJSON()).join(", ")})`;
  }

  /** Same as {@linkcode Credentials.toString}, for `Deno.inspect` and `console.log`. */
  [Symbol.for("Deno.customInspect")](): string {
    return this.toString();
  }

  /** Same as {@linkcode Credentials.toString}, for `node:util` inspect. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
