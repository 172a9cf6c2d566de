/**
 * A real HTTP proxy in front of an embedded server, standing in for a WebDAV front end that does
 * not honour `Range`: every request is forwarded, the `Range` header dropped unless `keepRange`
 * says otherwise (so the answer is `200` with the whole body), and the server's origin in JSON
 * answers (the manifest's anonymous URLs) rewritten to the proxy's, so clients come back here.
 *
 * @module
 */

/** A running proxy. */
export interface RangeProxy extends AsyncDisposable {
  /** The proxy's Terrain base URL (the upstream's path on the proxy's origin). */
  url: string;
  /** Ranges the proxy dropped. */
  dropped: number;
}

/**
 * Starts a proxy to `upstream` (a Terrain base URL) on 127.0.0.1:0. `keepRange` decides which
 * `Range` headers pass (default: none).
 */
export function rangeIgnoringProxy(
  upstream: string,
  keepRange: (range: string) => boolean = () => false,
): RangeProxy {
  const target = new URL(upstream);
  const state = { dropped: 0 };
  let origin = "";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    const range = headers.get("range");
    if (range !== null && !keepRange(range)) {
      headers.delete("range");
      state.dropped++;
    }
    headers.delete("host");
    const answer = await fetch(`${target.origin}${url.pathname}${url.search}`, {
      method: request.method,
      headers,
    });
    // fetch has decoded any content encoding, so the length and encoding no longer apply.
    const passed = new Headers(answer.headers);
    if (passed.has("content-encoding")) {
      passed.delete("content-encoding");
      passed.delete("content-length");
    }
    if (!(answer.headers.get("content-type") ?? "").includes("json")) {
      return new Response(answer.body, { status: answer.status, headers: passed });
    }
    const text = (await answer.text()).replaceAll(target.origin, origin);
    passed.delete("content-length");
    return new Response(text, { status: answer.status, headers: passed });
  });
  origin = `http://127.0.0.1:${server.addr.port}`;
  return {
    url: `${origin}${target.pathname}`,
    get dropped() {
      return state.dropped;
    },
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}
