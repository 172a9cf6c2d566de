/**
 * The command line's streams: buffered text and raw bytes to stdout (a reader that went away,
 * as in `tern ls | head`, ends the command quietly), messages to stderr, terminal detection for
 * colour and progress, and a password prompt that does not echo.
 *
 * @module
 */

import { resolve } from "node:path";
import { type Styles, styles } from "./format.ts";

/**
 * Thrown by {@linkcode Output} when the reader of stdout has gone away (a closed pipe). The
 * command stops, and the process exits 0 without a message, as Unix filters do.
 *
 * @example
 * ```ts
 * import { OutputClosedError } from "./io.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(new OutputClosedError().name, "OutputClosedError");
 * ```
 */
export class OutputClosedError extends Error {
  /**
   * Creates the error.
   *
   * @example
   * ```ts
   * import { OutputClosedError } from "./io.ts";
   * import assert from "node:assert/strict";
   *
   * const error = new OutputClosedError();
   * assert.equal(error.name, "OutputClosedError");
   * ```
   */
  constructor() {
    super("The output was closed by its reader.");
    this.name = "OutputClosedError";
  }
}

/**
 * Where an {@linkcode Output} writes: `Deno.stdout`, `Deno.stderr`, or anything with a
 * `write` that may write fewer bytes than given.
 *
 * @example
 * ```ts
 * import type { Sink } from "./io.ts";
 *
 * const chunks: Uint8Array[] = [];
 * const sink: Sink = { write: (bytes) => Promise.resolve(chunks.push(bytes.slice()) && bytes.length) };
 * ```
 */
export interface Sink {
  /** Writes some of `bytes`, resolving to how many were written. */
  write(bytes: Uint8Array): Promise<number>;
}

/** Lines are sent once this much text is waiting, and at every `flush()`. */
const FLUSH_AT = 64 * 1024;

/**
 * A text and byte stream with a buffer: `line()` collects, `flush()` writes. Commands flush at
 * natural boundaries (a page of a listing), so output streams without one write per line.
 *
 * @example
 * ```ts
 * import { Output } from "./io.ts";
 * import assert from "node:assert/strict";
 *
 * const chunks: Uint8Array[] = [];
 * const out = new Output({ write: (b) => Promise.resolve(chunks.push(b.slice()) && b.length) }, false);
 * out.line("hello");
 * await out.flush();
 * assert.equal(new TextDecoder().decode(chunks[0]), "hello\n");
 * ```
 */
export class Output {
  /** Styles for this stream (plain text unless it is a colour terminal). */
  readonly style: Styles;
  /** Whether the stream is an interactive terminal. */
  readonly isTerminal: boolean;
  readonly #sink: Sink;
  readonly #encoder = new TextEncoder();
  #pending = "";
  #last: Promise<void> = Promise.resolve();

  /**
   * Wraps a sink.
   *
   * @param isTerminal Whether the sink is a terminal (for progress and colour).
   * @param color Use colour (default: when a terminal and `NO_COLOR` is not set).
   *
   * @example
   * ```ts
   * import { Output } from "./io.ts";
   *
   * const stdout = new Output(Deno.stdout, Deno.stdout.isTerminal());
   * ```
   */
  constructor(sink: Sink, isTerminal: boolean, color = isTerminal && !Deno.noColor) {
    this.#sink = sink;
    this.isTerminal = isTerminal;
    this.style = styles(color);
  }

  /**
   * Columns to lay text out in: the terminal's width, or `piped` when the output is not a
   * terminal (or its size cannot be read), so piped output does not depend on a window.
   *
   * @example
   * ```ts
   * import { Output } from "./io.ts";
   * import assert from "node:assert/strict";
   *
   * const out = new Output({ write: (bytes) => Promise.resolve(bytes.length) }, false);
   * assert.equal(out.width(100), 100);
   * ```
   */
  width(piped: number): number {
    if (!this.isTerminal) return piped;
    try {
      return Deno.consoleSize().columns;
    } catch {
      return piped;
    }
  }

  /**
   * Queues `text` and a line break; written at the next `flush()` (or once 64 KiB wait).
   *
   * @example
   * ```ts
   * import { Output } from "./io.ts";
   * import assert from "node:assert/strict";
   *
   * let written = "";
   * const out = new Output({
   *   write(bytes) {
   *     written += new TextDecoder().decode(bytes);
   *     return Promise.resolve(bytes.length);
   *   },
   * }, false);
   * out.line("penguins.csv");
   * await out.flush();
   * assert.equal(written, "penguins.csv\n");
   * ```
   */
  line(text = ""): void {
    this.text(`${text}\n`);
  }

  /**
   * Queues `text` as is.
   *
   * @example
   * ```ts
   * import { Output } from "./io.ts";
   * import assert from "node:assert/strict";
   *
   * let written = "";
   * const out = new Output({
   *   write(bytes) {
   *     written += new TextDecoder().decode(bytes);
   *     return Promise.resolve(bytes.length);
   *   },
   * }, false);
   * out.text("no newline");
   * await out.flush();
   * assert.equal(written, "no newline");
   * ```
   */
  text(text: string): void {
    this.#pending += text;
  }

  /** Whether enough text waits that the caller should `flush()` before queueing more. */
  get full(): boolean {
    return this.#pending.length >= FLUSH_AT;
  }

  /**
   * Writes what is queued. Writes happen in call order, never interleaved, so callers that do
   * not wait (a progress display) cannot tear another caller's output.
   *
   * @throws {OutputClosedError} when the reader went away.
   *
   * @example
   * ```ts
   * import { Output } from "./io.ts";
   * import assert from "node:assert/strict";
   *
   * let written = "";
   * const out = new Output({
   *   write(bytes) {
   *     written += new TextDecoder().decode(bytes);
   *     return Promise.resolve(bytes.length);
   *   },
   * }, false);
   * for (const name of ["penguins.csv", "penguins.tsv"]) out.line(name);
   * assert.equal(written, ""); // queued, not yet written
   * await out.flush();
   * assert.equal(written, "penguins.csv\npenguins.tsv\n");
   * ```
   */
  flush(): Promise<void> {
    if (this.#pending === "") return this.#last;
    const bytes = this.#encoder.encode(this.#pending);
    this.#pending = "";
    return this.#enqueue(bytes);
  }

  /**
   * Writes raw bytes after whatever text is queued.
   *
   * @throws {OutputClosedError} when the reader went away.
   *
   * @example
   * ```ts
   * import { Output } from "./io.ts";
   * import assert from "node:assert/strict";
   *
   * let written = "";
   * const out = new Output({
   *   write(bytes) {
   *     written += new TextDecoder().decode(bytes);
   *     return Promise.resolve(bytes.length);
   *   },
   * }, false);
   * out.text("raw: ");
   * const body = ReadableStream.from(["id,", "x\n"].map((text) => new TextEncoder().encode(text)));
   * for await (const chunk of body) await out.bytes(chunk);
   * assert.equal(written, "raw: id,x\n");
   * ```
   */
  bytes(bytes: Uint8Array): Promise<void> {
    void this.flush().catch(() => {});
    return this.#enqueue(bytes);
  }

  #enqueue(bytes: Uint8Array): Promise<void> {
    const write = this.#last.catch(() => {}).then(() => this.#writeAll(bytes));
    // Whoever awaits a later write sees the failure; this only keeps it from going unhandled.
    write.catch(() => {});
    this.#last = write;
    return write;
  }

  async #writeAll(bytes: Uint8Array): Promise<void> {
    let offset = 0;
    try {
      while (offset < bytes.length) offset += await this.#sink.write(bytes.subarray(offset));
    } catch (error) {
      if (error instanceof Deno.errors.BrokenPipe || error instanceof Deno.errors.ConnectionReset) {
        throw new OutputClosedError();
      }
      throw error;
    }
  }
}

/**
 * Prints every entry of every page with `line`, one write per page (a listing streams without
 * a system call per line), and stops after `limit` entries; resolves to how many it printed and
 * the last page it read.
 *
 * @example
 * ```ts
 * import { Output, printPages } from "./io.ts";
 * import assert from "node:assert/strict";
 *
 * let written = "";
 * const out = new Output({
 *   write(bytes) {
 *     written += new TextDecoder().decode(bytes);
 *     return Promise.resolve(bytes.length);
 *   },
 * }, false);
 * const pages = ReadableStream.from([{ entries: ["a", "b"] }, { entries: ["c"] }]);
 * const { printed } = await printPages(pages, out, (name: string) => name.toUpperCase(), 2);
 * assert.equal(printed, 2);
 * assert.equal(written, "A\nB\n");
 * ```
 */
export async function printPages<E, P extends { readonly entries: readonly E[] }>(
  pages: AsyncIterable<P>,
  out: Output,
  line: (entry: E) => string,
  limit?: number,
): Promise<{ printed: number; last?: P }> {
  let printed = 0;
  let last: P | undefined;
  pages: for await (const page of pages) {
    last = page;
    for (const entry of page.entries) {
      out.line(line(entry));
      if (++printed === limit) break pages;
    }
    await out.flush();
  }
  await out.flush();
  return { printed, last };
}

/**
 * The streams a command uses, injectable for tests and embedding.
 *
 * @example
 * ```ts
 * import { type CliIo, Output, PromptCancelledError } from "./io.ts";
 * import assert from "node:assert/strict";
 *
 * // Streams for a test or an embedding: output kept in memory, nobody to answer a prompt.
 * let written = "";
 * const sink = {
 *   write(bytes: Uint8Array) {
 *     written += new TextDecoder().decode(bytes);
 *     return Promise.resolve(bytes.length);
 *   },
 * };
 * const io: CliIo = {
 *   stdout: new Output(sink, false),
 *   stderr: new Output(sink, false),
 *   interactive: false,
 *   readSecret: () => Promise.reject(new PromptCancelledError()),
 * };
 * io.stdout.line("hello");
 * await io.stdout.flush();
 * assert.equal(written, "hello\n");
 * ```
 */
export interface CliIo {
  /** Results. */
  readonly stdout: Output;
  /** Messages, warnings, errors and progress. */
  readonly stderr: Output;
  /** Whether a person can answer a prompt on stdin. */
  readonly interactive: boolean;
  /** Asks for a secret on the terminal without echoing it; only when `interactive`. */
  readSecret(question: string): Promise<string>;
  /**
   * The whole environment the command sees: the `TERRAIN_*` variables, `XDG_CACHE_HOME` and
   * `HOME` for the default cache, `TERN_SAMPLE_STORE` for `sample-store`, `PATH` for `doctor`,
   * and what `notebook` hands to Jupyter.
   * Given, the process's own environment is never read, so commands run side by side in one
   * process (an embedding, a test) each see their own.
   *
   * @default the process's environment
   */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * The folder relative local paths (`get -o`, `--cache-dir`, `cite --lock`, `lock verify`,
   * `notebook`) are resolved against.
   *
   * @default the process's working folder
   */
  readonly cwd?: string;
  /**
   * Interrupts the command as Ctrl-C does (it stops, cleans up and exits 130). Given, the
   * process's SIGINT is not listened to.
   *
   * @default the process's SIGINT; a second one exits the process at once
   */
  readonly interrupt?: AbortSignal;
}

/**
 * An environment variable as the command sees it ({@linkcode CliIo.env}, else the process's):
 * `undefined` when unset, blank, or not readable.
 *
 * @example
 * ```ts
 * import { envVar, Output } from "./io.ts";
 * import assert from "node:assert/strict";
 *
 * const out = new Output({ write: (bytes) => Promise.resolve(bytes.length) }, false);
 * const io = {
 *   stdout: out,
 *   stderr: out,
 *   interactive: false,
 *   readSecret: () => Promise.resolve(""),
 *   env: { TERRAIN_URL: "http://127.0.0.1:8080/terrain", HOME: " " },
 * };
 * assert.equal(envVar(io, "TERRAIN_URL"), "http://127.0.0.1:8080/terrain");
 * assert.equal(envVar(io, "HOME"), undefined); // blank
 * assert.equal(envVar(io, "TERRAIN_TOKEN"), undefined); // the process's is not read
 * ```
 */
export function envVar(io: CliIo, name: string): string | undefined {
  try {
    const value = io.env === undefined ? Deno.env.get(name) : io.env[name];
    return value?.trim() ? value : undefined;
  } catch {
    // Not readable (no permission): as if unset.
    return undefined;
  }
}

/**
 * The whole environment the command sees, for a program it starts.
 *
 * @example
 * ```ts
 * import { environment, Output } from "./io.ts";
 * import assert from "node:assert/strict";
 *
 * const out = new Output({ write: (bytes) => Promise.resolve(bytes.length) }, false);
 * const env = { PATH: "/usr/bin" };
 * const io = { stdout: out, stderr: out, interactive: false, readSecret: () => Promise.resolve(""), env };
 * assert.deepEqual(environment(io), { PATH: "/usr/bin" });
 * ```
 */
export function environment(io: CliIo): Record<string, string> {
  return { ...(io.env ?? Deno.env.toObject()) };
}

/**
 * A local path given on the command line, made absolute against {@linkcode CliIo.cwd} (else
 * the process's working folder).
 *
 * @example
 * ```ts
 * import { localPath, Output } from "./io.ts";
 * import assert from "node:assert/strict";
 *
 * const out = new Output({ write: (bytes) => Promise.resolve(bytes.length) }, false);
 * const io = { stdout: out, stderr: out, interactive: false, readSecret: () => Promise.resolve(""), cwd: "/home/me/project" };
 * assert.equal(localPath(io, "data/penguins.csv"), "/home/me/project/data/penguins.csv");
 * assert.equal(localPath(io, "/tmp/x.csv"), "/tmp/x.csv");
 * assert.equal(localPath(io), "/home/me/project");
 * ```
 */
export function localPath(io: CliIo, path = "."): string {
  return resolve(io.cwd ?? Deno.cwd(), path);
}

/**
 * The process's own streams: `Deno.stdout`, `Deno.stderr`, and a prompt on the terminal.
 *
 * @example
 * ```ts
 * import { processIo } from "./io.ts";
 *
 * const io = processIo();
 * io.stdout.line("hello");
 * await io.stdout.flush(); // prints hello
 * ```
 */
export function processIo(): CliIo {
  const stderr = new Output(Deno.stderr, safeIsTerminal(Deno.stderr));
  return {
    stdout: new Output(Deno.stdout, safeIsTerminal(Deno.stdout)),
    stderr,
    interactive: safeIsTerminal(Deno.stdin),
    readSecret: (question) => readSecret(question, stderr),
  };
}

/**
 * Raised when a prompt is interrupted with Ctrl-C or Ctrl-D.
 *
 * @example
 * ```ts
 * import { PromptCancelledError } from "./io.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(new PromptCancelledError().message, "The prompt was cancelled.");
 * ```
 */
export class PromptCancelledError extends Error {
  /**
   * Creates the error.
   *
   * @example
   * ```ts
   * import { PromptCancelledError } from "./io.ts";
   * import assert from "node:assert/strict";
   *
   * const error = new PromptCancelledError();
   * assert.equal(error.name, "PromptCancelledError");
   * ```
   */
  constructor() {
    super("The prompt was cancelled.");
    this.name = "PromptCancelledError";
  }
}

const ENTER: ReadonlySet<number> = new Set([0x0a, 0x0d]);
const CTRL_C = 0x03;
const CTRL_D = 0x04;
const BACKSPACE: ReadonlySet<number> = new Set([0x08, 0x7f]);

/** Reads a line from the terminal with echo off; the typed text never reaches the screen. */
async function readSecret(question: string, stderr: Output): Promise<string> {
  const typed: number[] = [];
  const buffer = new Uint8Array(256);
  // Echo goes off before the question shows, so even quick typists are never echoed.
  Deno.stdin.setRaw(true);
  try {
    stderr.text(question);
    await stderr.flush();
    reading: while (true) {
      const read = await Deno.stdin.read(buffer);
      if (read === null) break;
      for (const byte of buffer.subarray(0, read)) {
        if (ENTER.has(byte)) break reading;
        if (byte === CTRL_C || (byte === CTRL_D && typed.length === 0)) {
          throw new PromptCancelledError();
        }
        if (BACKSPACE.has(byte)) {
          // Drop a whole UTF-8 character: its continuation bytes, then its lead byte.
          while (typed.length > 0 && (typed[typed.length - 1] & 0xc0) === 0x80) typed.pop();
          typed.pop();
          continue;
        }
        typed.push(byte);
      }
    }
  } finally {
    Deno.stdin.setRaw(false);
    buffer.fill(0);
    stderr.line();
    await stderr.flush();
  }
  const secret = new TextDecoder().decode(new Uint8Array(typed));
  typed.fill(0);
  return secret;
}

function safeIsTerminal(stream: { isTerminal(): boolean }): boolean {
  try {
    return stream.isTerminal();
  } catch {
    return false;
  }
}
