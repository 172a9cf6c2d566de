/**
 * Runs a command on a pseudo-terminal with util-linux's `script`, as a person's shell would,
 * and returns what reached the terminal, each redraw's "carriage return + erase line" shown as
 * ⟲. `PTY` says whether `script` is there (tests that need it are skipped, saying so, if not).
 */

async function hasScript(): Promise<boolean> {
  try {
    return (await new Deno.Command("script", {
      args: ["--version"],
      stdout: "null",
      stderr: "null",
    })
      .output()).success;
  } catch {
    return false;
  }
}

/** Whether a pseudo-terminal can be had. */
export const PTY: boolean = await hasScript();
if (!PTY) console.warn("terminal tests skipped: util-linux's `script` is not installed.");

/** Runs `command` (a shell command line) on a pseudo-terminal; returns the screen's bytes. */
export async function onTerminal(command: string): Promise<string> {
  const result = await new Deno.Command("script", {
    args: ["-qfec", command, "/dev/null"],
    env: { NO_COLOR: "1", TERM: "xterm" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return new TextDecoder().decode(result.stdout).replaceAll("\r\u001b[2K", "⟲");
}
