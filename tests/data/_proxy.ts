/**
 * Real HTTP proxies in front of an embedded server, standing in for WebDAV front ends that
 * misbehave: every request is forwarded, the server's origin in JSON answers (the manifest's
 * anonymous URLs) rewritten to the proxy's, so clients come back here, and hooks may change
 * answer in its place, change the request's headers or replace the answer.
 *
 * @module
 */

/** A running proxy. */
export interface FrontProxy extends AsyncDisposable {
  /** The proxy's Terrain base URL (the upstream's path on the proxy's origin). */
  url: string;
}

/** What a proxy may change. */
export interface ProxyHooks {
  /** An answer given in place of forwarding the request, or `undefined` to forward it. */
  instead?(request: Request): Promise<Response | undefined> | Response | undefined;
  /** Changes the headers forwarded upstream. */
  request?(headers: Headers): void;
  /** A replacement for the upstream's (non-JSON) answer, or `undefined` to pass it on. */
  answer?(request: Request, answer: Response): Promise<Response | undefined>;
  /**
   * Told of an error in the proxy, a replaced answer's body that broke while being sent
   * included (Deno reports those here, else prints them).
   */
  onError?(error: unknown): void;
}

/** Starts a proxy to `upstream` (a Terrain base URL) on 127.0.0.1:0. */
export function frontProxy(upstream: string, hooks: ProxyHooks = {}): FrontProxy {
  const target = new URL(upstream);
  let origin = "";
  const onError = (error: unknown) => {
    hooks.onError!(error);
    return new Response(null, { status: 502 });
  };
  const listen = { hostname: "127.0.0.1", port: 0, onListen() {} };
  const options = hooks.onError === undefined ? listen : { ...listen, onError };
  const server = Deno.serve(options, async (request) => {
    const instead = await hooks.instead?.(request);
    if (instead !== undefined) return instead;
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    hooks.request?.(headers);
    headers.delete("host");
    const reads = request.method === "GET" || request.method === "HEAD";
    const answer = await fetch(`${target.origin}${url.pathname}${url.search}`, {
      method: request.method,
      headers,
      // A stat's POST carries its paths.
      body: reads ? undefined : await request.arrayBuffer(),
    });
    // fetch has decoded any content encoding, so the length and encoding no longer apply.
    const passed = new Headers(answer.headers);
    if (passed.has("content-encoding")) {
      passed.delete("content-encoding");
      passed.delete("content-length");
    }
    if (!(answer.headers.get("content-type") ?? "").includes("json")) {
      const replaced = await hooks.answer?.(request, answer);
      return replaced ?? new Response(answer.body, { status: answer.status, headers: passed });
    }
    const text = (await answer.text()).replaceAll(target.origin, origin);
    passed.delete("content-length");
    return new Response(text, { status: answer.status, headers: passed });
  });
  origin = `http://127.0.0.1:${server.addr.port}`;
  return {
    url: `${origin}${target.pathname}`,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** A proxy that drops `Range` headers. */
export interface RangeProxy extends FrontProxy {
  /** Ranges the proxy dropped. */
  dropped: number;
}

/**
 * A proxy that does not honour `Range`: the header is dropped unless `keepRange` says otherwise
 * (so the answer is `200` with the whole body).
 */
export function rangeIgnoringProxy(
  upstream: string,
  keepRange: (range: string) => boolean = () => false,
): RangeProxy {
  const state = { dropped: 0 };
  const proxy = frontProxy(upstream, {
    request(headers) {
      const range = headers.get("range");
      if (range !== null && !keepRange(range)) {
        headers.delete("range");
        state.dropped++;
      }
    },
  });
  return {
    url: proxy.url,
    get dropped() {
      return state.dropped;
    },
    [Symbol.asyncDispose]: () => proxy[Symbol.asyncDispose](),
  };
}

/** A proxy that stops answering range reads once told to. */
export interface StallingProxy extends FrontProxy {
  /** Whether range reads are held now (the embedded server answers; the client never hears). */
  stalling: boolean;
  /** Range reads held so far. */
  readonly held: number;
  /** Resolves once the next range read is held. */
  nextHeld(): Promise<void>;
}

/**
 * A proxy that, while `stalling`, holds every range read unanswered until it closes: a
 * `dav-anon` front end that stopped answering, the footer read and the listings before it
 * having gone through.
 */
export function stallingProxy(upstream: string): StallingProxy {
  const state = { stalling: false, held: 0 };
  const waiting: (() => void)[] = [];
  const closing = Promise.withResolvers<void>();
  const proxy = frontProxy(upstream, {
    async answer(request, answer) {
      if (!state.stalling || !request.headers.has("range")) return undefined;
      await answer.body?.cancel();
      state.held++;
      for (const resolve of waiting.splice(0)) resolve();
      // Held until the proxy closes; by then the client has long given up (or was aborted).
      await closing.promise;
      return new Response(null, { status: 503 });
    },
  });
  return {
    url: proxy.url,
    get stalling() {
      return state.stalling;
    },
    set stalling(value: boolean) {
      state.stalling = value;
    },
    get held() {
      return state.held;
    },
    nextHeld: () => new Promise<void>((resolve) => waiting.push(resolve)),
    async [Symbol.asyncDispose]() {
      closing.resolve();
      await proxy[Symbol.asyncDispose]();
    },
  };
}

/** A proxy that changes one byte of a file's bodies. */
export interface CorruptingProxy extends FrontProxy {
  /** Whether bodies are changed now. */
  corrupting: boolean;
  /** Bodies of the file that went through (changed or not). */
  readonly downloads: number;
}

/**
 * A proxy that, while `corrupting`, changes one byte of every body of the file whose path ends
 * with `name`: the last ASCII digit becomes another digit (so a CSV still parses), the size and
 * every header (its `ETag`, its date) as the server sent them. Stats and listings pass through.
 */
export function corruptingProxy(upstream: string, name: string): CorruptingProxy {
  const state = { corrupting: true, downloads: 0 };
  const proxy = frontProxy(upstream, {
    async answer(request, answer) {
      const url = decodeURIComponent(new URL(request.url).href);
      if (!url.includes(name) || answer.status >= 300) return undefined;
      state.downloads++;
      if (!state.corrupting) return undefined;
      const bytes = await answer.bytes();
      const at = bytes.findLastIndex((byte) => byte >= 0x30 && byte <= 0x39);
      if (at !== -1) bytes[at] ^= 1;
      return new Response(bytes, { status: answer.status, headers: answer.headers });
    },
  });
  return {
    url: proxy.url,
    get corrupting() {
      return state.corrupting;
    },
    set corrupting(value: boolean) {
      state.corrupting = value;
    },
    get downloads() {
      return state.downloads;
    },
    [Symbol.asyncDispose]: () => proxy[Symbol.asyncDispose](),
  };
}
