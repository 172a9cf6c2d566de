/**
 * The server's internal response value. Handlers return a {@link Reply}; the router turns it
 * into a `Response`, applying traffic shaping, HEAD handling and byte counting in one place.
 *
 * @module
 */

/**
 * `Content-Type` of every JSON answer, as Terrain sends it.
 *
 * @example
 * ```ts
 * import { JSON_TYPE } from "./reply.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(JSON_TYPE, "application/json; charset=utf-8");
 * ```
 */
export const JSON_TYPE = "application/json; charset=utf-8";

/**
 * A slice of an open file to stream as the body. The router owns `file` once it is returned in
 * a reply and closes it when the body ends, fails or is cancelled.
 *
 * @example
 * ```ts
 * import type { FileBody } from "./reply.ts";
 * const file = await Deno.open(Deno.execPath());
 * const { size } = await file.stat();
 * const body: FileBody = { file, start: 0, length: 16, size };
 * file.close();
 * ```
 */
export interface FileBody {
  /** The open file; closed by the router when the body ends. */
  file: Deno.FsFile;
  /** Offset of the first byte to send. */
  start: number;
  /** Number of bytes to send (the Content-Length). */
  length: number;
  /**
   * The file's size when it was opened. A body that is the whole file (`start` 0, `length`
   * equal to `size`) can be handed to the runtime to stream from disk to socket by itself.
   */
  size: number;
}

/**
 * A response before shaping: status, headers and a body of bytes, a file slice, a stream of
 * bytes produced as the client reads (see {@link jsonStreamReply}), or nothing.
 * `download` marks file bodies that drop-rate shaping may cut.
 *
 * @example
 * ```ts
 * import type { Reply } from "./reply.ts";
 * const reply: Reply = { status: 204, headers: new Headers(), body: null };
 * ```
 */
export interface Reply {
  /** HTTP status. */
  status: number;
  /** Response headers. */
  headers: Headers;
  /** Bytes, a file slice, a pull-driven stream, or no body. */
  body: Uint8Array<ArrayBuffer> | FileBody | ReadableStream<Uint8Array> | null;
  /** True for file downloads, which drop-rate shaping may cut. */
  download?: boolean;
}

const encoder = new TextEncoder();

/**
 * A reply with a byte body and an explicit `Content-Length`; `contentType` `null` sends no
 * `Content-Type` header at all (as some Terrain errors do).
 *
 * @example
 * ```ts
 * import { bytesReply } from "./reply.ts";
 * import assert from "node:assert/strict";
 *
 * const reply = bytesReply(200, new Uint8Array([1, 2]), "application/octet-stream");
 * assert.equal(reply.headers.get("content-length"), "2");
 * ```
 */
export function bytesReply(
  status: number,
  body: Uint8Array<ArrayBuffer>,
  contentType: string | null,
  extraHeaders?: HeadersInit,
): Reply {
  const headers = new Headers(extraHeaders);
  if (contentType !== null) headers.set("content-type", contentType);
  headers.set("content-length", String(body.byteLength));
  return { status, headers, body };
}

/**
 * A JSON reply (`application/json; charset=utf-8` unless `contentType` says otherwise).
 *
 * @example
 * ```ts
 * import { jsonReply } from "./reply.ts";
 * import assert from "node:assert/strict";
 *
 * const reply = jsonReply({ ok: true });
 * assert.equal(reply.status, 200);
 * assert.equal(reply.headers.get("content-type"), "application/json; charset=utf-8");
 * ```
 */
export function jsonReply(
  value: unknown,
  status = 200,
  contentType: string | null = JSON_TYPE,
  extraHeaders?: HeadersInit,
): Reply {
  return bytesReply(status, encoder.encode(JSON.stringify(value)), contentType, extraHeaders);
}

/**
 * A plain-text reply, with `extraHeaders` if given.
 *
 * @example
 * ```ts
 * import { textReply } from "./reply.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(textReply(503, "busy").headers.get("content-type"), "text/plain; charset=utf-8");
 * ```
 */
export function textReply(status: number, text: string, extraHeaders?: HeadersInit): Reply {
  return bytesReply(status, encoder.encode(text), "text/plain; charset=utf-8", extraHeaders);
}

/** Text gathered before a streamed JSON answer hands a piece to the connection. */
const STREAM_PIECE_CHARS = 32 * 1024;

/**
 * A JSON object whose last keys hold long arrays, streamed (chunked, no `Content-Length`):
 * `head`'s keys, then each array's key with the values its chunks give. A chunk is asked for
 * only when the connection has sent what came before, so a client that reads slowly (or not at
 * all) holds the server's memory to a piece or two, not the whole answer. The text is what
 * `JSON.stringify` of the whole object gives. A chunk that fails errors the stream, and the
 * connection is cut rather than ending in a well-formed but short answer.
 *
 * @example
 * ```ts
 * import { jsonStreamReply } from "./reply.ts";
 * import assert from "node:assert/strict";
 *
 * async function* numbers() {
 *   yield [1, 2];
 *   yield [3];
 * }
 * const reply = jsonStreamReply({ total: 3 }, [["items", numbers()], ["none", []]]);
 * const text = await new Response(reply.body as ReadableStream<Uint8Array>).text();
 * assert.equal(text, JSON.stringify({ total: 3, items: [1, 2, 3], none: [] }));
 * assert.equal(reply.headers.get("content-length"), null);
 * ```
 */
export function jsonStreamReply(
  head: object,
  arrays: readonly (readonly [
    string,
    AsyncIterable<readonly unknown[]> | Iterable<readonly unknown[]>,
  ])[],
): Reply {
  async function* pieces(): AsyncGenerator<string> {
    const opening = JSON.stringify(head);
    let separator = opening === "{}" ? "" : ",";
    yield opening.slice(0, -1);
    for (const [key, chunks] of arrays) {
      yield `${separator}${JSON.stringify(key)}:[`;
      separator = ",";
      let first = true;
      for await (const values of chunks) {
        if (values.length === 0) continue;
        yield `${first ? "" : ","}${values.map((value) => JSON.stringify(value)).join(",")}`;
        first = false;
      }
      yield "]";
    }
    yield "}";
  }
  const source = pieces();
  // A pull source of its own, not ReadableStream.from(pieces): under the siege test (clients
  // that never read) the latter was seen to hold more memory and leave ordinary requests
  // unanswered.
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let text = "";
      while (text.length < STREAM_PIECE_CHARS) {
        const next = await source.next();
        if (next.done) break;
        text += next.value;
      }
      if (text !== "") controller.enqueue(encoder.encode(text));
      if (text.length < STREAM_PIECE_CHARS) controller.close();
    },
    async cancel() {
      await source.return(undefined);
    },
  }, { highWaterMark: 0 });
  return { status: 200, headers: new Headers({ "content-type": JSON_TYPE }), body };
}
