/**
 * A capture server: a plain `Deno.serve` on 127.0.0.1:0 that records every request it gets
 * (method, path, `Authorization` header) and answers like Terrain, by passing the request on to
 * a real embedded server, or with whatever a handler says. Tests name it where data names a
 * store (a lock's `store`, a redirect's target) and check what reached it: the caller's
 * credentials must not, unless the caller configured that store.
 *
 * @module
 */

/** A request as the capture server got it. */
export interface Captured {
  /** `GET`, `HEAD`, … */
  method: string;
  /** The path, with the query. */
  path: string;
  /** The `Authorization` header, or `null`. */
  authorization: string | null;
}

/** A running capture server; `await using` it, or close it at the end of the test. */
export interface Capture extends AsyncDisposable {
  /** Its Terrain base URL (`http://127.0.0.1:PORT/terrain`). */
  readonly url: string;
  /** Every request so far, in order of arrival. */
  readonly requests: Captured[];
  /** The `Authorization` headers received (empty when every request came without one). */
  authorizations(): string[];
  /** Requests to the token route (`/terrain/token/keycloak`). */
  tokenRequests(): Captured[];
  /** Forgets the requests so far. */
  clear(): void;
  /** Stops the server. */
  close(): Promise<void>;
}

/**
 * Starts a capture server. `answer` is an embedded server's base URL to pass every request on
 * to (headers included, so that server decides whether credentials are good), or a handler.
 *
 * @example
 * ```ts ignore
 * await using capture = serveCapture(served.url);
 * // … name capture.url where a lock names its store …
 * assert.deepEqual(capture.authorizations(), []);
 * ```
 */
export function serveCapture(
  answer: string | ((request: Request) => Response | Promise<Response>),
): Capture {
  const requests: Captured[] = [];
  const handler = typeof answer === "string" ? passOn(new URL(answer).origin) : answer;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    requests.push({
      method: request.method,
      path: `${url.pathname}${url.search}`,
      authorization: request.headers.get("authorization"),
    });
    return handler(request);
  });
  const close = () => server.shutdown();
  return {
    url: `http://127.0.0.1:${server.addr.port}/terrain`,
    requests,
    authorizations: () =>
      requests.flatMap((request) => request.authorization === null ? [] : [request.authorization]),
    tokenRequests: () => requests.filter((request) => request.path.startsWith("/terrain/token/")),
    clear: () => void requests.splice(0),
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** A handler that sends each request on to `origin` and gives back its answer. */
function passOn(origin: string): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    headers.delete("host");
    const reads = request.method === "GET" || request.method === "HEAD";
    const answer = await fetch(`${origin}${url.pathname}${url.search}`, {
      method: request.method,
      headers,
      // A stat's POST carries its paths.
      body: reads ? undefined : await request.arrayBuffer(),
      redirect: "manual",
    });
    // fetch decoded any content encoding, so the length and encoding no longer apply.
    const passed = new Headers(answer.headers);
    if (passed.has("content-encoding")) {
      passed.delete("content-encoding");
      passed.delete("content-length");
    }
    return new Response(answer.body, { status: answer.status, headers: passed });
  };
}
