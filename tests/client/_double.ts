/**
 * A tiny local HTTP test double on 127.0.0.1:0, for answers the embedded server cannot produce
 * (429 with Retry-After, stalled bodies, malformed JSON, wrong field types, …).
 *
 * @module
 */

/** A request as the double saw it. */
export interface Seen {
  method: string;
  url: URL;
  headers: Headers;
}

/** A running double; close it (or `await using` it) at the end of the test. */
export interface Double extends AsyncDisposable {
  /** Base URL with the `/terrain` prefix, like the embedded server's. */
  url: string;
  /** Every request received, in order. */
  seen: Seen[];
  /** Stops the server. */
  close(): Promise<void>;
}

/**
 * Serves `handler` on 127.0.0.1 with a free port. The handler gets the request and its 0-based
 * arrival number.
 *
 * @example
 * ```ts ignore
 * await using double = serveDouble(() => Response.json({ ok: true }));
 * console.log(double.url);
 * ```
 */
export function serveDouble(
  handler: (request: Request, index: number) => Response | Promise<Response>,
): Double {
  const seen: Seen[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) => {
      const index = seen.length;
      seen.push({ method: request.method, url: new URL(request.url), headers: request.headers });
      return handler(request, index);
    },
  );
  const close = () => server.shutdown();
  return {
    url: `http://127.0.0.1:${server.addr.port}/terrain`,
    seen,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** A response whose body sends `first` bytes and then never ends (until the client leaves). */
export function stallingResponse(first: number, announced: number): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("x".repeat(first)));
    },
  });
  return new Response(body, { headers: { "content-length": String(announced) } });
}

/** A response announcing `announced` bytes that ends after `sent` bytes (a truncated body). */
export function shortResponse(text: string, announced: number): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  });
  return new Response(body, {
    headers: { "content-length": String(announced), "content-type": "application/json" },
  });
}
