/**
 * The server's own HTTP/1.1 connection layer over `Deno.listen`, built for what `Deno.serve`
 * does not offer: it survives running out of file descriptors, bounds the number of open
 * connections, closes idle and slow connections after a timeout, and sends whole files in large
 * pieces (as fast as Python's static server on loopback, where `Deno.serve` streaming a file
 * reached two thirds of it).
 *
 * What it promises (see docs/security.md):
 * - A connection that sends no request for `idleTimeoutMs` (after connecting, or after a
 *   response on a kept-alive connection) is closed; one whose request head takes longer than
 *   `headersTimeoutMs` from its first byte is closed; a response write that makes no progress
 *   for `sendTimeoutMs` (a client that stopped reading) is cut.
 * - At most `maxLongAnswers` long answers (bodies sent in more than one write: streamed
 *   listings, files larger than one piece) are sent at once; others wait for a lane in turn.
 *   While any wait, a lane whose client is stalled (took less than {@link STALL_BYTES} in the
 *   last {@link STALL_MS}) is taken back: that answer is cut, the longest-stalled first. Each
 *   long answer costs memory and the work of producing it, and a client that never reads looks
 *   like one that does until the kernel's socket buffers are full (megabytes); bounding how many
 *   run bounds both, and keeps the event loop free for everyone else's requests.
 * - At most `maxConnections` are open. Past that, the connection idle the longest is closed to
 *   make room; if none is idle, the one stuck the longest: on an unfinished request head (a
 *   slowloris client trickling headers holds its slot that way), on a client that stopped
 *   taking its answer (stalled), or waiting for a lane. Only when every slot is busy preparing
 *   or sending answers that move does the newcomer get `503` and is closed.
 * - When `accept` fails (no descriptors left), connections are shed as at the cap, one line
 *   is logged per episode, and accepting resumes after a short pause. The server never exits
 *   on it.
 * - Request heads are at most {@link MAX_HEAD_BYTES}; a larger or malformed head gets 431/400
 *   and the connection is closed. Lines end in CRLF: a bare LF in a head is refused with 400 as
 *   soon as it arrives (rather than waiting for a CRLF CRLF that never comes).
 * - Methods other than {@link ROUTED_METHODS} get 405 with `Allow: GET, HEAD`.
 * - Request bodies are read only for `POST` with a `Content-Length` of at most
 *   {@link MAX_BODY_BYTES} (Terrain's `stat` takes its paths in one), within `headersTimeoutMs`;
 *   any other request that announces a body is answered without it and its connection closed.
 *   Whenever a connection closes with input left unread (a body, the rest of a head too large),
 *   the server stops writing and reads on for a moment before closing, so the client reads the
 *   answer instead of a connection reset.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { STATUS_CODES } from "node:http";

/**
 * Connection limits and timeouts (all milliseconds but `maxConnections`).
 *
 * @example
 * ```ts
 * import type { ConnectionLimits } from "./http.ts";
 * const strict: ConnectionLimits = {
 *   maxConnections: 64, idleTimeoutMs: 1000, headersTimeoutMs: 2000, sendTimeoutMs: 5000,
 *   maxLongAnswers: 8,
 * };
 * ```
 */
export interface ConnectionLimits {
  /** Most connections open at once. */
  maxConnections: number;
  /** How long a connection may wait before sending (the first byte of) a request. */
  idleTimeoutMs: number;
  /** How long a request head may take to arrive once its first byte has. */
  headersTimeoutMs: number;
  /** How long one write of a response may make no progress before the connection is cut. */
  sendTimeoutMs: number;
  /** Most long answers (bodies sent in more than one write) sent at once; see the module notes. */
  maxLongAnswers: number;
}

/** Largest request head (request line and headers) accepted, bytes. */
const MAX_HEAD_BYTES = 64 * 1024;

/**
 * Methods handed to the request handler. Reads are served; HTTP's write methods reach the
 * handler too, so that they are answered as Terrain answers them (its catch-all route). Any
 * other method (TRACE, TRACK, CONNECT, OPTIONS, extension methods) gets 405 from the connection
 * layer: fetch's `Request` cannot even carry some of them.
 */
const ROUTED_METHODS: ReadonlySet<string> = new Set([
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "DELETE",
  "PATCH",
]);

/** A client that takes less than this many bytes of an answer in {@link STALL_MS} is stalled. */
const STALL_BYTES = 64 * 1024;

/**
 * How long a client may take to accept {@link STALL_BYTES} of an answer before it counts as
 * stalled, ms. Stalled answers are cut only when something waits for what they hold (a lane, a
 * connection slot); otherwise `sendTimeoutMs` applies. A reader this slow (under 64 KiB/s)
 * would take a minute and a half over a 5.7 MB listing.
 */
const STALL_MS = 1000;

/**
 * Largest request body read, bytes: a `stat` of 1,000 paths (Terrain's limit) of iRODS's longest
 * (2,700 bytes) fits.
 */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** How long, and how many bytes, a closing connection reads on to drain unread input. */
const LINGER_MS = 1000;
const LINGER_BYTES = 1024 * 1024;

/**
 * Pieces of whole-file bodies. Server CPU per 500 MB download, measured on loopback: 400 ms in
 * 64 KiB pieces, 160 ms in 1 MiB, 108 ms in 4 MiB (Python's http.server: 85 ms). A few 4 MiB
 * buffers are kept and shared by the downloads running at once; downloads beyond those use
 * 256 KiB pieces, so memory stays bounded however many run.
 */
const BIG_PIECE = 4 * 1024 * 1024;
const SMALL_PIECE = 256 * 1024;
const BIG_BUFFERS = 2;

/**
 * A `Response` whose body is `content`, written by the connection layer together with the head
 * (reading it back through the `Response`'s stream cost more than answering small requests).
 *
 * @example
 * ```ts
 * import { BytesResponse } from "./http.ts";
 * import assert from "node:assert/strict";
 *
 * const response = new BytesResponse(new TextEncoder().encode("hi"), { status: 200 });
 * assert.equal(await response.text(), "hi");
 * ```
 */
export class BytesResponse extends Response {
  constructor(readonly content: Uint8Array<ArrayBuffer>, init: ResponseInit) {
    super(content, init);
  }
}

/**
 * A `Response` whose body is the first `length` bytes of `file`, sent by the connection layer
 * in large pieces (see the module notes); the `Response`'s own body is never read. The file is
 * closed when the body ends, fails or the client goes away; a file that shrinks meanwhile cuts
 * the connection.
 *
 * @example
 * ```ts
 * import { FileResponse } from "./http.ts";
 * import assert from "node:assert/strict";
 *
 * const file = await Deno.open(Deno.execPath());
 * const response = new FileResponse(file, 16, { status: 200 });
 * assert.equal(response.status, 200);
 * file.close();
 * ```
 */
export class FileResponse extends Response {
  constructor(readonly file: Deno.FsFile, readonly length: number, init: ResponseInit) {
    super(file.readable, init);
  }
}

/**
 * A running HTTP server (see {@link serveHttp}).
 *
 * @example
 * ```ts
 * import type { HttpServer } from "./http.ts";
 * const port = (server: HttpServer) => server.addr.port;
 * ```
 */
export type HttpServer = ReturnType<typeof serveHttp>;

/**
 * What {@link serveHttp} needs.
 *
 * @example
 * ```ts
 * import type { HttpOptions } from "./http.ts";
 * const options: HttpOptions = {
 *   hostname: "127.0.0.1", port: 0, log: () => {},
 *   limits: {
 *     maxConnections: 64, idleTimeoutMs: 5000, headersTimeoutMs: 10000, sendTimeoutMs: 30000,
 *     maxLongAnswers: 16,
 *   },
 * };
 * ```
 */
export interface HttpOptions {
  /** Interface to listen on. */
  hostname: string;
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Limits and timeouts. */
  limits: ConnectionLimits;
  /** Receives the one line logged when descriptors run out. */
  log: (line: string) => void;
}

const encoder = new TextEncoder();
const HEAD_END = encoder.encode("\r\n\r\n");
/** The first byte of a TLS handshake record (a ClientHello), never of an HTTP request. */
const TLS_HANDSHAKE = 0x16;

class Closed extends Error {}

/** Makes `timer` keep the process alive, or not (see `unref()` on the server). */
function holdTimer(timer: ReturnType<typeof setTimeout> | undefined, held: boolean): void {
  if (timer !== undefined) (held ? Deno.refTimer : Deno.unrefTimer)(timer);
}

/** One client connection and its state. */
class Connection {
  /** Kept alive after an answer, waiting for the next request (nothing of it has arrived). */
  idle = false;
  idleSince = performance.now();
  /** Waiting for (the rest of) a request head: new, or part of a head arrived. */
  partial = true;
  /** When the connection was accepted, or the first byte of an unfinished head arrived. */
  headSince = performance.now();
  /** Writing a response body. */
  sending = false;
  /** Has answered a request. */
  served = false;
  /**
   * When the write in progress started waiting for the client (moved on each time the client
   * takes another {@link STALL_BYTES}); undefined between writes.
   */
  waitingSince: number | undefined;
  #closed = false;
  #gone = Promise.withResolvers<void>();
  /** Settles when the connection closes. */
  readonly gone = this.#gone.promise;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #held = true;

  /** `held`: whether the connection keeps the process alive (see `HttpServer.unref`). */
  constructor(readonly conn: Deno.TcpConn, held: boolean) {
    if (!held) this.hold(false);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Whether the client has taken less than {@link STALL_BYTES} in the last {@link STALL_MS}. */
  stalled(now: number): boolean {
    return this.waitingSince !== undefined && now - this.waitingSince >= STALL_MS;
  }

  /** Closes the connection after `ms` unless {@link Connection.disarm} comes first. */
  arm(ms: number): void {
    this.disarm();
    this.#timer = setTimeout(() => this.close(), ms);
    if (!this.#held) Deno.unrefTimer(this.#timer);
  }

  /** Whether the connection's reads and timer keep the process alive (see `HttpServer.unref`). */
  hold(held: boolean): void {
    this.#held = held;
    if (held) this.conn.ref();
    else this.conn.unref();
    holdTimer(this.#timer, held);
  }

  disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  close(): void {
    this.disarm();
    if (this.#closed) return;
    this.#closed = true;
    this.#gone.resolve();
    // Unlike close(), no throw when a failed read or write closed it already.
    this.conn[Symbol.dispose]();
  }

  /**
   * Closes after draining what the client may still be sending (a body, the rest of a head):
   * closing with unread input would reset the connection, and the client could lose the answer
   * written just before.
   */
  async linger(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.conn.closeWrite();
    } catch {
      return this.close();
    }
    this.arm(LINGER_MS);
    const sink = new Uint8Array(16 * 1024);
    let drained = 0;
    while (drained < LINGER_BYTES) {
      const count = await this.read(sink);
      if (count === null) break;
      drained += count;
    }
    this.close();
  }

  async read(into: Uint8Array): Promise<number | null> {
    if (this.#closed) return null;
    return await this.conn.read(into).catch(() => null);
  }

  /** Writes all of `bytes`, cutting the connection if one write stalls past `timeoutMs`. */
  async write(bytes: Uint8Array, timeoutMs: number): Promise<void> {
    let offset = 0;
    let taken = 0;
    this.waitingSince = performance.now();
    try {
      while (offset < bytes.byteLength) {
        if (this.#closed) throw new Closed();
        this.arm(timeoutMs);
        let count: number;
        try {
          count = await this.conn.write(bytes.subarray(offset));
        } catch {
          this.close();
          throw new Closed();
        } finally {
          this.disarm();
        }
        offset += count;
        taken += count;
        if (taken >= STALL_BYTES) {
          taken = 0;
          this.waitingSince = performance.now();
        }
      }
    } finally {
      this.waitingSince = undefined;
    }
  }
}

/** Parses a request head (without its final blank line); a string says what is wrong. */
function parseHead(text: string) {
  const lines = text.split("\r\n");
  const parts = lines[0].split(" ");
  if (parts.length !== 3 || !/^[A-Z]+$/.test(parts[0]) || !/^HTTP\/1\.[01]$/.test(parts[2])) {
    return "malformed request line";
  }
  const headers = new Headers();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    if (colon <= 0) return "malformed header line";
    try {
      headers.append(line.slice(0, colon), line.slice(colon + 1).trim());
    } catch {
      return "malformed header";
    }
  }
  return { method: parts[0], target: parts[1], version: parts[2], headers };
}

/** Where the head's blank line starts in the first `filled` bytes, searching from `from`. */
function findHeadEnd(buffer: Uint8Array, filled: number, from: number): number {
  return Buffer.from(buffer.buffer, buffer.byteOffset, filled).indexOf(HEAD_END, Math.max(0, from));
}

function statusLine(status: number): string {
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Unknown"}\r\n`;
}

function simpleResponse(status: number, text: string, extra = ""): Uint8Array {
  const body = encoder.encode(text);
  return encoder.encode(
    `${statusLine(status)}content-type: text/plain; charset=utf-8\r\n${extra}` +
      `content-length: ${body.byteLength}\r\nconnection: close\r\n\r\n${text}`,
  );
}

/** Whether `bytes[from, to)` holds a line feed not preceded by a carriage return. */
function hasBareLf(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    if (bytes[i] === 0x0a && (i === 0 || bytes[i - 1] !== 0x0d)) return true;
  }
  return false;
}

/**
 * Serves `handler` over HTTP/1.1 with the limits in `options` (see the module notes).
 *
 * @throws when the address cannot be listened on.
 *
 * @example
 * ```ts
 * import { serveHttp } from "./http.ts";
 * import assert from "node:assert/strict";
 *
 * const server = serveHttp({
 *   hostname: "127.0.0.1", port: 0, log: () => {},
 *   limits: {
 *     maxConnections: 8, idleTimeoutMs: 1000, headersTimeoutMs: 1000, sendTimeoutMs: 1000,
 *     maxLongAnswers: 2,
 *   },
 * }, () => Promise.resolve(new Response("hello")));
 * const response = await fetch(`http://127.0.0.1:${server.addr.port}/`);
 * assert.equal(await response.text(), "hello");
 * await server.close();
 * ```
 */
export function serveHttp(
  options: HttpOptions,
  handler: (request: Request) => Promise<Response>,
) {
  const { limits, log } = options;
  const listener = Deno.listen({ hostname: options.hostname, port: options.port });
  const addr = listener.addr as Deno.NetAddr;
  const open = new Set<Connection>();
  const running = new Set<Promise<void>>();
  let closing = false;
  const spareBuffers: Uint8Array[] = [];
  let bigBuffersOut = 0;
  /** Connections sending a long answer. */
  const inLane = new Set<Connection>();
  /** Connections waiting for a lane, in arrival order: since when, and how to let each go on. */
  let waiting: { c: Connection; since: number; grant: (granted: boolean) => void }[] = [];
  let reclaiming: ReturnType<typeof setTimeout> | undefined;
  /** Whether the server keeps the process alive (see `unref()` below). */
  let held = true;
  /** A timer that keeps the process alive only while the server does. */
  const later = (run: () => void, ms: number) => {
    const timer = setTimeout(run, ms);
    if (!held) Deno.unrefTimer(timer);
    return timer;
  };
  const hold = (value: boolean) => {
    held = value;
    if (value) listener.ref();
    else listener.unref();
    for (const c of open) c.hold(value);
    holdTimer(reclaiming, value);
  };

  /** Closes the connections idle the longest, at most `count`; returns how many. */
  const shedIdle = (count: number): number => {
    const idle = [...open].filter((c) => c.idle).sort((a, b) => a.idleSince - b.idleSince);
    for (const c of idle.slice(0, count)) c.close();
    return Math.min(count, idle.length);
  };

  /**
   * Makes room for `count` connections: idle kept-alive ones first, then, the one stuck the
   * longest first, those stuck on someone else: waiting for a request head, new or part-way
   * through one (a slow head is what a slowloris client holds a slot with), waiting for their
   * client to take their answer (stalled: the oldest unread answer), or waiting for a lane.
   * A genuine client's head arrives at once, so it is always among the newest, even when a
   * busy server has not read it yet. Answers being prepared or taken by their clients are kept.
   * Returns how many were closed.
   */
  const shed = (count: number): number => {
    const closed = shedIdle(count);
    if (closed === count) return closed;
    const now = performance.now();
    const stuck: { since: number; c: Connection }[] = waiting.filter((w) => !w.c.closed);
    for (const c of open) {
      if (c.closed) continue;
      if (c.partial) stuck.push({ since: c.headSince, c });
      else if (c.stalled(now)) stuck.push({ since: c.waitingSince!, c });
    }
    stuck.sort((a, b) => a.since - b.since);
    for (const { c } of stuck.slice(0, count - closed)) c.close();
    return closed + Math.min(stuck.length, count - closed);
  };

  /** Lets the connections waiting longest take the free lanes. */
  const passOn = () => {
    while (inLane.size < limits.maxLongAnswers && waiting.length > 0) {
      const next = waiting.shift()!;
      if (next.c.closed) continue;
      inLane.add(next.c);
      next.grant(true);
    }
  };

  /**
   * Waits for a lane for `c`'s long answer, in turn; false when `c` closed first. While any
   * wait, stalled lanes are taken back (see {@link reclaim}).
   */
  const takeLane = (c: Connection): Promise<boolean> => {
    const { promise, resolve } = Promise.withResolvers<boolean>();
    waiting.push({ c, since: performance.now(), grant: resolve });
    c.gone.then(() => resolve(false));
    passOn();
    if (waiting.length > 0 && !closing) reclaiming ??= later(reclaim, STALL_MS / 4);
    return promise;
  };

  const leaveLane = (c: Connection) => {
    inLane.delete(c);
    passOn();
  };

  /**
   * While answers wait for a lane, cuts as many stalled lanes as answers wait, the longest
   * stalled first; a lane whose client keeps taking bytes is never taken back. A waiter thus
   * holds only its connection, never a lane another needs, and a client that stopped reading
   * keeps no one waiting much beyond {@link STALL_MS}.
   */
  const reclaim = () => {
    reclaiming = undefined;
    waiting = waiting.filter((w) => !w.c.closed);
    if (waiting.length === 0 || closing) return;
    const now = performance.now();
    const stalled = [...inLane].filter((c) => c.stalled(now))
      .sort((a, b) => a.waitingSince! - b.waitingSince!);
    for (const c of stalled.slice(0, waiting.length)) c.close();
    reclaiming = later(reclaim, STALL_MS / 4);
  };

  const accepting = (async () => {
    let pause = 10;
    let loggedAt = -Infinity;
    let failures = 0;
    while (!closing) {
      let conn: Deno.TcpConn;
      try {
        conn = await listener.accept();
      } catch (error) {
        if (closing || error instanceof Deno.errors.BadResource) break;
        // Out of descriptors (or another transient accept failure): make room by dropping idle
        // keep-alive connections, pause so the loop does not spin, and keep going. One line a
        // minute at most, however long the siege lasts.
        failures++;
        if (performance.now() - loggedAt > 60_000) {
          log(
            `accept failed ${failures} time(s) (${(error as Error).message}): shedding idle ` +
              `connections and pausing accepts until descriptors free up`,
          );
          loggedAt = performance.now();
          failures = 0;
        }
        shed(Math.max(1, Math.ceil(open.size / 4)));
        await new Promise<void>((resolve) => later(resolve, pause));
        pause = Math.min(pause * 2, 1000);
        continue;
      }
      pause = 10;
      if (open.size >= limits.maxConnections && shed(1) === 0) {
        const refused = new Connection(conn, held);
        refused.write(simpleResponse(503, "Service Unavailable (too many connections)\n"), 1000)
          .catch(() => {}).finally(() => refused.close());
        continue;
      }
      const connection = new Connection(conn, held);
      // Heads and bodies go out in separate writes; Nagle's algorithm would hold the second
      // one back until the client's delayed acknowledgement (40 ms on Linux).
      conn.setNoDelay(true);
      open.add(connection);
      const task = serveConnection(connection).catch(() => {}).finally(() => {
        connection.close();
        open.delete(connection);
        running.delete(task);
      });
      running.add(task);
    }
  })();

  /** Answers `status` with `text` and closes, reading on what the client still sends. */
  async function refuse(c: Connection, status: number, text: string, extra = "") {
    await c.write(simpleResponse(status, text, extra), 1000);
    await c.linger();
  }

  async function serveConnection(c: Connection): Promise<void> {
    let buffer = new Uint8Array(8192);
    let filled = 0;
    while (!closing && !c.closed) {
      // Wait for a whole request head. A kept-alive connection is idle until its next request
      // starts; a new one is already waiting for its first head.
      c.idle = filled === 0 && c.served;
      c.idleSince = performance.now();
      c.partial = !c.idle;
      if (filled > 0) c.headSince = performance.now();
      c.arm(filled === 0 ? limits.idleTimeoutMs : limits.headersTimeoutMs);
      let end = findHeadEnd(buffer, filled, 0);
      let checked = 0;
      for (;;) {
        const headEnd = end < 0 ? filled : end + HEAD_END.byteLength;
        if (hasBareLf(buffer, checked, headEnd)) {
          return await refuse(c, 400, "Bad Request (bare LF: lines must end in CRLF)\n");
        }
        checked = headEnd;
        if (end >= 0) break;
        if (filled === buffer.byteLength) {
          if (buffer.byteLength >= MAX_HEAD_BYTES) {
            return await refuse(c, 431, "Request Header Fields Too Large\n");
          }
          const larger = new Uint8Array(Math.min(buffer.byteLength * 2, MAX_HEAD_BYTES));
          larger.set(buffer);
          buffer = larger;
        }
        const count = await c.read(buffer.subarray(filled));
        if (count === null || c.closed) return;
        if (filled === 0 && count > 0) {
          if (buffer[0] === TLS_HANDSHAKE) {
            // A TLS client (an https:// URL) would otherwise wait for the headers timeout;
            // a plain answer tells it at once that this server speaks http://.
            await c.write(
              simpleResponse(400, "Bad Request (this server speaks plain HTTP)\n"),
              1000,
            );
            return;
          }
          if (c.idle) c.headSince = performance.now();
          c.idle = false;
          c.partial = true;
          c.arm(limits.headersTimeoutMs);
        }
        const searchFrom = filled - HEAD_END.byteLength;
        filled += count;
        end = findHeadEnd(buffer, filled, searchFrom);
      }
      c.disarm();
      c.idle = false;
      c.partial = false;
      const head = parseHead(new TextDecoder().decode(buffer.subarray(0, end)));
      buffer.copyWithin(0, end + HEAD_END.byteLength, filled);
      filled -= end + HEAD_END.byteLength;
      if (typeof head === "string") {
        return await refuse(c, 400, `Bad Request (${head})\n`);
      }
      if (!ROUTED_METHODS.has(head.method)) {
        const text = `Method Not Allowed (${head.method}; this server serves GET and HEAD)\n`;
        return await refuse(c, 405, text, "allow: GET, HEAD\r\n");
      }
      const connectionHeader = head.headers.get("connection")?.toLowerCase() ?? "";
      const declared = head.headers.get("content-length") ?? "0";
      let body: Uint8Array<ArrayBuffer> | undefined;
      if (
        head.method === "POST" && !head.headers.has("transfer-encoding") &&
        /^\d{1,9}$/.test(declared) && Number(declared) <= MAX_BODY_BYTES
      ) {
        // Part of the body may have come with the head; the rest is awaited like a head's.
        body = new Uint8Array(Number(declared));
        const ready = Math.min(filled, body.byteLength);
        body.set(buffer.subarray(0, ready));
        buffer.copyWithin(0, ready, filled);
        filled -= ready;
        c.partial = true;
        c.arm(limits.headersTimeoutMs);
        for (let got = ready; got < body.byteLength;) {
          const count = await c.read(body.subarray(got));
          if (count === null || c.closed) return;
          got += count;
        }
        c.disarm();
        c.partial = false;
      }
      const hasBody = body === undefined &&
        (head.headers.has("transfer-encoding") || declared !== "0");
      const keepAlive = head.version === "HTTP/1.1" && !connectionHeader.includes("close") &&
        !hasBody;
      const url = head.target.startsWith("/")
        ? URL.parse(head.target, `http://${head.headers.get("host") || "localhost"}`)
        : URL.parse(head.target);
      if (!url) return await refuse(c, 400, "Bad Request (malformed target)\n");
      let response: Response;
      try {
        response = await handler(
          new Request(url, { method: head.method, headers: head.headers, body }),
        );
      } catch {
        response = new Response("Internal Server Error\n", { status: 500 });
      }
      c.sending = true;
      await send(c, response, head.method === "HEAD", keepAlive && !closing);
      c.sending = false;
      c.served = true;
      if (!keepAlive) return hasBody ? await c.linger() : undefined;
    }
  }

  async function send(c: Connection, response: Response, head: boolean, keepAlive: boolean) {
    const file = response instanceof FileResponse ? response : undefined;
    const headers = response.headers;
    let length = headers.get("content-length");
    if (file) length = String(file.length);
    if (length === null && (response.body === null || head)) length = head ? null : "0";
    const chunked = length === null && !head;
    let text = statusLine(response.status);
    for (const [name, value] of headers) {
      if (name === "content-length" || name === "transfer-encoding" || name === "connection") {
        continue;
      }
      text += `${name}: ${value}\r\n`;
    }
    if (length !== null) text += `content-length: ${length}\r\n`;
    if (chunked) text += "transfer-encoding: chunked\r\n";
    text += `date: ${new Date().toUTCString()}\r\n`;
    text += keepAlive ? "\r\n" : "connection: close\r\n\r\n";
    const timeout = limits.sendTimeoutMs;
    // A body sent in more than one write waits for a lane; a whole file that fits in one piece
    // and a byte body (already in memory, sent as it is) do not.
    const long = !head && response.body !== null && !(response instanceof BytesResponse) &&
      (file === undefined || text.length + file.length > SMALL_PIECE);
    let laned = false;
    try {
      if (long && !(laned = await takeLane(c))) {
        if (!file) response.body?.cancel().catch(() => {});
        return;
      }
      if (head || response.body === null) {
        await c.write(encoder.encode(text), timeout);
        return;
      }
      if (file) {
        await sendFile(c, encoder.encode(text), file.file, file.length);
        return;
      }
      const bytes = response instanceof BytesResponse ? response.content : undefined;
      if (bytes) return await writeAfter(c, encoder.encode(text), bytes, 64 * 1024);
      const reader = response.body.getReader();
      let prefix = text;
      let sent = 0;
      const expected = length === null ? undefined : Number(length);
      for (;;) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch {
          // A body that failed part-way: the client must see a broken transfer, not an end.
          return c.close();
        }
        if (next.done || !next.value) break;
        let piece: Uint8Array = next.value;
        if (expected !== undefined) piece = piece.subarray(0, expected - sent);
        sent += piece.byteLength;
        if (chunked) {
          if (piece.byteLength === 0) continue;
          prefix += `${piece.byteLength.toString(16)}\r\n`;
        }
        const before = encoder.encode(prefix);
        prefix = chunked ? "\r\n" : "";
        try {
          await writeAfter(c, before, piece, 16 * 1024);
        } catch (error) {
          reader.cancel().catch(() => {});
          throw error;
        }
      }
      const tail = chunked ? `${prefix}0\r\n\r\n` : prefix;
      if (tail !== "") await c.write(encoder.encode(tail), timeout);
      // A body that ended short of its Content-Length: the client must see a broken transfer.
      if (expected !== undefined && sent < expected) c.close();
    } finally {
      if (laned) leaveLane(c);
      file?.file[Symbol.dispose](); // unlike close(), no throw when closed already
    }
  }

  /**
   * Writes `before`, then `piece`: a piece smaller than `small` goes out with it in one write,
   * a larger one after it, uncopied.
   */
  async function writeAfter(c: Connection, before: Uint8Array, piece: Uint8Array, small: number) {
    if (piece.byteLength < small) {
      return await c.write(Buffer.concat([before, piece]), limits.sendTimeoutMs);
    }
    if (before.byteLength > 0) await c.write(before, limits.sendTimeoutMs);
    await c.write(piece, limits.sendTimeoutMs);
  }

  /** Sends `head`, then `length` bytes of `file`; the head rides with the first piece. */
  async function sendFile(
    c: Connection,
    head: Uint8Array,
    file: Deno.FsFile,
    length: number,
  ): Promise<void> {
    const whole = head.byteLength + length;
    let piece: Uint8Array;
    if (whole <= SMALL_PIECE) piece = new Uint8Array(whole);
    else if (bigBuffersOut < BIG_BUFFERS) {
      bigBuffersOut++;
      piece = spareBuffers.pop() ?? new Uint8Array(BIG_PIECE);
    } else piece = new Uint8Array(SMALL_PIECE);
    try {
      piece.set(head);
      let start = head.byteLength;
      let left = length;
      while (left > 0) {
        if (closing) return c.close();
        const room = Math.min(piece.byteLength - start, left);
        const count = await file.read(piece.subarray(start, start + room));
        // A file that shrank since it was opened: cut rather than send a short body.
        if (count === null || count === 0) return c.close();
        await c.write(piece.subarray(0, start + count), limits.sendTimeoutMs);
        left -= count;
        start = 0;
      }
      if (start > 0) await c.write(head, limits.sendTimeoutMs);
    } finally {
      if (piece.byteLength === BIG_PIECE) {
        bigBuffersOut--;
        spareBuffers.push(piece);
      }
    }
  }

  let closed: Promise<void> | undefined;
  return {
    /** Where it listens. */
    addr,
    /** Connections open now. */
    get connections(): number {
      return open.size;
    },
    /**
     * Lets the process end while the server runs: its listener, connections and timers no longer
     * keep the event loop alive (as `Deno.serve`'s `unref()`). A request in progress still does
     * when its client is in the same process, since the client waits for the answer.
     */
    unref: () => hold(false),
    /** Undoes `unref()`: the server keeps the process alive again (the default). */
    ref: () => hold(true),
    /**
     * Stops accepting, closes idle connections and those waiting for a request head, cuts bodies
     * being sent, waits for the rest.
     */
    close(): Promise<void> {
      closed ??= (async () => {
        closing = true;
        // What close() waits for (the accept loop, reads cut short) must keep the process
        // alive until it settles, or an unreferenced server's close() would never return.
        hold(true);
        listener[Symbol.dispose](); // unlike close(), no throw when closed already
        await accepting;
        shedIdle(open.size);
        // Bodies being sent are cut, and connections still waiting for a whole request head
        // (new ones included: nothing of a request has been answered) are closed rather than
        // left to their timeout; answers still being prepared go out, then their connections
        // close.
        for (const c of open) if (c.sending || c.partial) c.close();
        await Promise.all([...running]);
        clearTimeout(reclaiming);
      })();
      return closed;
    },
  };
}
