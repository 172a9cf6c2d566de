/**
 * Help text: `tern --help` (the commands and global options), `tern CMD --help` (one command in
 * full), and the one-line usage printed after a usage error.
 *
 * @module
 */

import { VERSION } from "../../mod.ts";
import { GLOBAL_OPTIONS, type OptionSpecs } from "./args.ts";
import { type Command, OTHER_PATH_FORMS } from "./command.ts";

/**
 * `usage: tern ls [options] [PATH...]`, or the general one without a command.
 *
 * @example
 * ```ts
 * import { usageLine } from "./help.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(usageLine(), "usage: tern [options] COMMAND [ARGS...]");
 * ```
 */
export function usageLine(command?: Command): string {
  return command === undefined
    ? "usage: tern [options] COMMAND [ARGS...]"
    : `usage: tern ${command.name} ${command.usage}`;
}

/**
 * What `tern --help` prints: what tern is, the commands, the global options, the environment
 * and the exit statuses.
 *
 * @example
 * ```ts
 * import { COMMANDS } from "./commands/mod.ts";
 * import { mainHelp } from "./help.ts";
 * import assert from "node:assert/strict";
 *
 * const help = mainHelp(COMMANDS);
 * assert.equal(help.split("\n")[2], "usage: tern [options] COMMAND [ARGS...]");
 * assert.ok(COMMANDS.every((command) => help.includes(`  ${command.name} `)));
 * ```
 */
export function mainHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    `tern ${VERSION}: explore a CyVerse data store (or any Terrain-compatible server)`,
    "",
    usageLine(),
    "",
    "commands:",
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    "",
    "global options (before or after the command):",
    optionLines(GLOBAL_OPTIONS),
    "  -V, --version         print the version",
    "",
    "environment:",
    "  TERRAIN_URL                          the gateway, as --url",
    "  TERRAIN_TOKEN                        an access token, as --token",
    "  TERRAIN_USERNAME, TERRAIN_PASSWORD   sign in with a password",
    "  XDG_CACHE_HOME                       parent of the default cache folder",
    "  TERN_SAMPLE_STORE                    where the sample store lives",
    "  NO_COLOR                             no colour on a terminal",
    "",
    "PATH is an absolute data-store path (/iplant/home/shared/...), or",
    `  ${OTHER_PATH_FORMS}.`,
    "Without credentials tern is anonymous and sees public data (/iplant/home/shared).",
    "Exit status: 0 success, 1 the operation failed, 2 a usage error, 130 interrupted.",
    "",
    'Run "tern COMMAND --help" for the options of a command.',
  ].join("\n");
}

/**
 * What `tern CMD --help` prints.
 *
 * @example
 * ```ts
 * import { ls } from "./commands/ls.ts";
 * import { commandHelp } from "./help.ts";
 * import assert from "node:assert/strict";
 *
 * const [title] = commandHelp(ls).split("\n");
 * assert.equal(title, "tern ls: list a folder, page by page as entries arrive");
 * ```
 */
export function commandHelp(command: Command): string {
  if (command.help !== undefined) return command.help;
  const lines = [`tern ${command.name}: ${command.summary}`, "", usageLine(command)];
  if (command.description !== undefined) lines.push("", command.description);
  if (Object.keys(command.options).length > 0) {
    lines.push("", "options:", optionLines(command.options));
  }
  if (!command.delegates) {
    lines.push(
      "",
      "global options: --url URL, --token TOKEN, --username NAME, --anonymous,",
      '  --cache-dir DIR, --no-cache, --debug (see "tern --help")',
    );
  }
  if (command.examples.length > 0) {
    lines.push("", "examples:", ...command.examples.map((example) => `  ${example}`));
  }
  return lines.join("\n");
}

/** The option list of help: `  -l, --long   sizes, dates and types`, aligned. */
function optionLines(options: OptionSpecs): string {
  const rows = Object.entries(options).map(([name, spec]) => {
    const value = spec.value === undefined ? "" : ` ${spec.value}`;
    const flag = `${spec.short === undefined ? "    " : `-${spec.short}, `}--${name}${value}`;
    return [flag, spec.help] as const;
  });
  const width = Math.max(20, ...rows.map(([flag]) => flag.length));
  return rows.map(([flag, help]) => `  ${flag.padEnd(width)}  ${help}`).join("\n");
}
