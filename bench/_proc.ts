/**
 * Child processes and clean-up for the benchmarks: start a server, wait until it says where it
 * listens, keep draining its output so a chatty server never blocks on a full pipe, and make sure
 * every child and temporary directory is gone when the run ends, also on error or Ctrl-C.
 *
 * @module
 */

/**
 * A stack of clean-up actions run in reverse order of registration. Failures are collected and
 * reported together so one failing step does not leave the later ones undone.
 *
 * @example
 * ```ts
 * import { Cleanup } from "./_proc.ts";
 *
 * const cleanup = new Cleanup();
 * const dir = await Deno.makeTempDir();
 * cleanup.defer(() => Deno.remove(dir, { recursive: true }));
 * await cleanup.run();
 * ```
 */
export class Cleanup {
  #actions: (() => unknown)[] = [];
  #closed = false;
  #running?: Promise<void>;

  /**
   * Registers an action to run at clean-up time (last registered runs first). Once clean-up has
   * started (say on Ctrl-C while a suite is still starting a server), the action runs at once and
   * `defer` throws, so nothing started late outlives the run and the suite stops there.
   */
  defer(action: () => unknown): void {
    if (this.#closed) {
      Promise.resolve().then(action).catch((error) => console.error(`clean-up: ${error}`));
      throw new Error("the run is stopping; clean-up already started");
    }
    this.#actions.push(action);
  }

  /**
   * Runs and forgets all registered actions; throws an AggregateError if any failed. A second
   * call while the first is under way waits for the same run, so a process exiting right after
   * `await run()` never cuts a removal short.
   */
  run(): Promise<void> {
    this.#closed = true;
    this.#running ??= this.#drain();
    return this.#running;
  }

  async #drain(): Promise<void> {
    const errors: unknown[] = [];
    while (this.#actions.length > 0) {
      const action = this.#actions.pop()!;
      try {
        await action();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors, "clean-up failed");
  }
}

/**
 * Makes a temporary directory that is removed by `cleanup`.
 *
 * @example
 * ```ts
 * import { Cleanup, tempDir } from "./_proc.ts";
 *
 * const cleanup = new Cleanup();
 * const dir = await tempDir(cleanup, "tern-bench-");
 * await cleanup.run(); // dir is gone
 * ```
 */
export async function tempDir(cleanup: Cleanup, prefix: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix });
  cleanup.defer(() => removeDir(dir));
  return dir;
}

/** Removes a tree, retrying briefly while writes still in flight (after Ctrl-C) refill it. */
async function removeDir(dir: string): Promise<void> {
  for (let attempt = 1;; attempt++) {
    try {
      await Deno.remove(dir, { recursive: true });
      return;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      if (attempt >= 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * How to start a child and recognise that it is ready.
 *
 * @example
 * ```ts
 * import type { ChildSpec } from "./_proc.ts";
 *
 * const spec: ChildSpec = {
 *   label: "python http.server",
 *   command: "/usr/bin/python3",
 *   args: ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1"],
 *   ready: /\((http:\/\/[^)\s]+)\)/,
 * };
 * ```
 */
export interface ChildSpec {
  /** Name used in error messages. */
  label: string;
  /** Executable to run. */
  command: string;
  /** Its arguments. */
  args: string[];
  /** Working directory; defaults to the harness's. */
  cwd?: string;
  /** Environment; when given, it replaces the inherited one entirely. */
  env?: Record<string, string>;
  /** A line on stdout matching this marks the child ready; capture group 1 is returned. */
  ready: RegExp;
  /** How long to wait for the ready line, ms (default 30,000). */
  readyTimeoutMs?: number;
}

/**
 * A started child process.
 *
 * @example
 * ```ts
 * import { Cleanup, startChild } from "./_proc.ts";
 *
 * const cleanup = new Cleanup();
 * const child = await startChild(cleanup, {
 *   label: "echo",
 *   command: "sh",
 *   args: ["-c", "echo ready http://x; exec sleep 30"],
 *   ready: /(http:\/\/\S+)/,
 * });
 * console.log(child.readyMatch); // "http://x"
 * await child.stop();
 * ```
 */
export interface Child {
  /** Process id, for /proc sampling. */
  pid: number;
  /** Capture group 1 of the ready line. */
  readyMatch: string;
  /** The last few kilobytes the child wrote to stdout and stderr, for error messages. */
  outputTail(): string;
  /** Sends SIGTERM, then SIGKILL if it has not exited within 3 s, and waits for it. */
  stop(): Promise<void>;
}

const TAIL_BYTES = 4096;

/**
 * Starts a child, drains its stdout and stderr for its whole life, and resolves once a stdout
 * line matches `spec.ready`. The child is stopped by `cleanup`, and immediately if it exits or
 * stays silent before becoming ready (the error then quotes the tail of its output).
 *
 * @example
 * ```ts
 * import { Cleanup, startChild } from "./_proc.ts";
 *
 * const cleanup = new Cleanup();
 * try {
 *   const child = await startChild(cleanup, {
 *     label: "sleeper",
 *     command: "sh",
 *     args: ["-c", "echo up at http://127.0.0.1:1; exec sleep 30"],
 *     ready: /(http:\/\/\S+)/,
 *   });
 *   console.log(child.pid > 0); // true
 * } finally {
 *   await cleanup.run();
 * }
 * ```
 */
export async function startChild(cleanup: Cleanup, spec: ChildSpec): Promise<Child> {
  const process = new Deno.Command(spec.command, {
    args: spec.args,
    cwd: spec.cwd,
    env: spec.env,
    clearEnv: spec.env !== undefined,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let tail = "";
  const remember = (text: string) => {
    tail = (tail + text).slice(-TAIL_BYTES);
  };
  let exited = false;
  const status = process.status.then((s) => {
    exited = true;
    return s;
  });
  let onLine: (line: string) => void = () => {};
  const stopReading = new AbortController();
  const stdoutDone = readLines(process.stdout, stopReading.signal, (line) => {
    remember(line + "\n");
    onLine(line);
  });
  const stderrDone = readLines(process.stderr, stopReading.signal, (line) => remember(line + "\n"));
  const drained = Promise.all([stdoutDone, stderrDone]);

  const stop = async () => {
    if (!exited) {
      try {
        process.kill("SIGTERM");
      } catch {
        // Already gone between the check and the signal.
      }
      const timer = setTimeout(() => {
        try {
          process.kill("SIGKILL");
        } catch {
          // Exited in the meantime.
        }
      }, 3000);
      await status;
      clearTimeout(timer);
    }
    // A grandchild that inherited the pipes could keep them open long after the child is gone;
    // give the last output a moment to arrive, then stop reading.
    const grace = setTimeout(() => stopReading.abort(), 1000);
    await drained;
    clearTimeout(grace);
  };
  cleanup.defer(stop);

  const timeoutMs = spec.readyTimeoutMs ?? 30_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const readyMatch = await new Promise<string>((resolve, reject) => {
      onLine = (line) => {
        const match = spec.ready.exec(line);
        if (match) resolve(match[1]);
      };
      timer = setTimeout(
        () => reject(new Error(`${spec.label} was not ready within ${timeoutMs} ms`)),
        timeoutMs,
      );
      status.then((s) => reject(new Error(`${spec.label} exited with code ${s.code}`)));
    });
    onLine = () => {};
    return { pid: process.pid, readyMatch, outputTail: () => tail, stop };
  } catch (error) {
    await stop();
    const output = tail.trim() === "" ? "(no output)" : tail.trim();
    throw new Error(`${(error as Error).message}; its output ended with:\n${output}`);
  } finally {
    clearTimeout(timer);
  }
}

async function readLines(
  stream: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  onLine: (line: string) => void,
): Promise<void> {
  let pending = "";
  const lines = stream.pipeThrough(new TextDecoderStream(), { signal });
  try {
    for await (const text of lines) {
      pending += text;
      let newline;
      while ((newline = pending.indexOf("\n")) >= 0) {
        onLine(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
      }
      // A child that logs without newlines must not grow this buffer without bound.
      if (pending.length > TAIL_BYTES) pending = pending.slice(-TAIL_BYTES);
    }
  } catch {
    // Stopped by `signal` or a broken pipe: either way there is nothing more to read, and a
    // rejection here would have no one to handle it.
  }
  if (pending !== "") onLine(pending);
}

/**
 * Runs a command to completion and returns its stdout; throws with its stderr when it fails.
 *
 * @example
 * ```ts
 * import { output } from "./_proc.ts";
 *
 * console.log((await output("sh", ["-c", "echo hi"])).trim()); // "hi"
 * ```
 */
export async function output(command: string, args: string[]): Promise<string> {
  const result = await new Deno.Command(command, { args, stdin: "null" }).output();
  const decoder = new TextDecoder();
  if (!result.success) {
    const stderr = decoder.decode(result.stderr).trim();
    throw new Error(`${command} exited with code ${result.code}: ${stderr.slice(-2000)}`);
  }
  return decoder.decode(result.stdout);
}
