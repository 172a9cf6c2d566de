import assert from "node:assert/strict";
import { Output, OutputClosedError, type Sink } from "../../lib/cli/io.ts";

/** A sink that records what it got, writing at most `chunk` bytes per call. */
function recorder(chunk = Infinity): Sink & { text(): string } {
  const parts: Uint8Array[] = [];
  return {
    write: (bytes) => {
      const taken = bytes.slice(0, Math.min(bytes.length, chunk));
      parts.push(taken);
      return Promise.resolve(taken.length);
    },
    text: () => new TextDecoder().decode(new Uint8Array(parts.flatMap((part) => [...part]))),
  };
}

Deno.test("Output buffers lines until flushed and survives short writes", async () => {
  const sink = recorder(3);
  const out = new Output(sink, false);
  out.line("hello");
  out.text("wörld");
  assert.equal(sink.text(), "");
  await out.flush();
  assert.equal(sink.text(), "hello\nwörld");
  assert.equal(out.full, false);
  out.text("x".repeat(70_000));
  assert.equal(out.full, true);
});

Deno.test("writes keep their call order even when nobody waits for them", async () => {
  const sink = recorder(2);
  const out = new Output(sink, false);
  out.line("a");
  void out.flush();
  const bytes = out.bytes(new TextEncoder().encode("b\n"));
  out.line("c");
  await Promise.all([bytes, out.flush()]);
  assert.equal(sink.text(), "a\nb\nc\n");
});

Deno.test("a reader that went away is an OutputClosedError", async () => {
  const out = new Output(
    { write: () => Promise.reject(new Deno.errors.BrokenPipe("gone")) },
    false,
  );
  out.line("x");
  await assert.rejects(out.flush(), OutputClosedError);
  await assert.rejects(out.bytes(new Uint8Array([1])), OutputClosedError);
});

Deno.test("other write failures are not mistaken for a closed pipe", async () => {
  const out = new Output(
    { write: () => Promise.reject(new Deno.errors.PermissionDenied("no")) },
    false,
  );
  out.line("x");
  await assert.rejects(out.flush(), Deno.errors.PermissionDenied);
});

Deno.test("colour follows the terminal and NO_COLOR", () => {
  assert.equal(new Output(recorder(), false).style.bold("x"), "x");
  assert.equal(new Output(recorder(), true, true).style.bold("x"), "\x1b[1mx\x1b[22m");
});
