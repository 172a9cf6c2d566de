/**
 * Command-line arguments: the options every command accepts, finding the command among them,
 * parsing a command's options with `node:util` parseArgs, and checking option values — each
 * mistake a {@linkcode UsageError} that says what was wrong (exit status 2).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { BadRequestError, quoteInput } from "../client/errors.ts";
import { closest } from "../client/closest.ts";

/**
 * A mistake in the command line: an unknown command or option, a missing or bad value. The CLI
 * prints the message and a short usage line, and exits with status 2.
 *
 * @example
 * ```ts
 * import { UsageError } from "./args.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new UsageError("--max-depth must be an integer ≥ 1, got \"x\"");
 * assert.equal(error.name, "UsageError");
 * ```
 */
export class UsageError extends Error {
  /** `UsageError`: the message says what was wrong, in one sentence without a trailing period. */
  override readonly name = "UsageError";
}

/**
 * One option as a command declares it: its parseArgs type, and what help shows.
 *
 * @example
 * ```ts
 * import type { OptionSpec } from "./args.ts";
 *
 * const long: OptionSpec = { type: "boolean", short: "l", help: "sizes, dates and types" };
 * ```
 */
export interface OptionSpec {
  /** `boolean` for a switch, `string` for an option that takes a value. */
  type: "boolean" | "string";
  /** One-letter alias. */
  short?: string;
  /** Placeholder for the value in help (`N`, `PATH`). */
  value?: string;
  /** A string option that may be given several times; its value is then the list, in order. */
  multiple?: boolean;
  /** One line of help. */
  help: string;
}

/**
 * Options by long name.
 *
 * @example
 * ```ts
 * import type { OptionSpecs } from "./args.ts";
 *
 * const options: OptionSpecs = { json: { type: "boolean", help: "one JSON object per line" } };
 * ```
 */
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/**
 * The options every command accepts, before or after the command name.
 *
 * @example
 * ```ts
 * import { GLOBAL_OPTIONS } from "./args.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(Object.keys(GLOBAL_OPTIONS).includes("token"));
 * ```
 */
export const GLOBAL_OPTIONS: OptionSpecs = Object.freeze({
  url: {
    type: "string",
    value: "URL",
    help: "Terrain gateway (TERRAIN_URL; default https://de.cyverse.org/terrain)",
  },
  token: {
    type: "string",
    value: "TOKEN",
    help: "access token (TERRAIN_TOKEN keeps it out of the process list)",
  },
  username: {
    type: "string",
    value: "NAME",
    help: "sign in as NAME; password from TERRAIN_PASSWORD, else a prompt",
  },
  anonymous: { type: "boolean", help: "ignore credentials in the environment; public data only" },
  "cache-dir": {
    type: "string",
    value: "DIR",
    help: "cache of downloaded files (default $XDG_CACHE_HOME/tern or ~/.cache/tern)",
  },
  "no-cache": { type: "boolean", help: "neither read nor fill the local cache" },
  debug: { type: "boolean", help: "stack traces on errors, request counts at the end" },
  help: { type: "boolean", short: "h", help: "show help" },
});

/**
 * Parsed options (by long name) and positional arguments.
 *
 * @example
 * ```ts
 * import type { ParsedArgs } from "./args.ts";
 *
 * const parsed: ParsedArgs = { values: { long: true }, positionals: ["/iplant/home/shared"] };
 * ```
 */
export interface ParsedArgs {
  /**
   * Option values; switches are `true` when given, `multiple` options a list, absent options
   * `undefined`.
   */
  values: Record<string, string | boolean | string[] | undefined>;
  /** Arguments that are not options, in order. */
  positionals: string[];
}

/**
 * Finds the command name: the first argument that is neither an option nor the value of a
 * global option (`tern --url URL ls`). Returns the name (if any) and the other arguments.
 *
 * @example
 * ```ts
 * import { splitCommand } from "./args.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(splitCommand(["--url", "http://x/terrain", "ls", "-l"]), {
 *   command: "ls",
 *   before: ["--url", "http://x/terrain"],
 *   after: ["-l"],
 * });
 * ```
 */
export function splitCommand(
  args: readonly string[],
): { command?: string; before: string[]; after: string[] } {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === "--") break;
    if (arg.startsWith("-") && arg !== "-") {
      const name = arg.startsWith("--") ? arg.slice(2) : undefined;
      if (name !== undefined && !name.includes("=") && GLOBAL_OPTIONS[name]?.type === "string") {
        index++;
      }
      continue;
    }
    return { command: arg, before: args.slice(0, index), after: args.slice(index + 1) };
  }
  return { before: [...args], after: [] };
}

/**
 * Parses arguments against `options` (the global ones are added), strictly: an unknown option,
 * a missing value or a value given to a switch is a {@linkcode UsageError}, with a suggestion
 * when the option looks like a known one misspelt.
 *
 * @throws {UsageError} naming the bad option.
 *
 * @example
 * ```ts
 * import { parseOptions } from "./args.ts";
 * import assert from "node:assert/strict";
 *
 * const parsed = parseOptions(["-l", "/iplant/home/shared"], {
 *   long: { type: "boolean", short: "l", help: "long format" },
 * });
 * assert.ok(parsed.values.long);
 * assert.deepEqual(parsed.positionals, ["/iplant/home/shared"]);
 * ```
 */
export function parseOptions(args: readonly string[], options: OptionSpecs): ParsedArgs {
  const all: OptionSpecs = { ...GLOBAL_OPTIONS, ...options };
  try {
    // parseArgs reads `type`, `short` and `multiple` and passes over the help fields.
    const parsed = parseArgs({
      args: [...args],
      options: all,
      allowPositionals: true,
      strict: true,
    });
    return {
      values: { ...parsed.values } as ParsedArgs["values"],
      positionals: [...parsed.positionals],
    };
  } catch (error) {
    throw new UsageError(describeParseError(error, all));
  }
}

function describeParseError(error: unknown, options: OptionSpecs): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  const quoted = /'([^']*)'/.exec(message)?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && quoted !== undefined) {
    // Only the option's name is shown: with "--tokn=SECRET", the value may be a credential.
    const option = quoted.split("=")[0];
    const name = option.replace(/^-+/, "");
    if (/^(password|passwd|pass|pw)$/i.test(name)) {
      return `unknown option ${option}: tern takes no password on the command line, where ` +
        "other users and the shell history could read it; set TERRAIN_PASSWORD, or give " +
        "--username NAME and type the password at the prompt";
    }
    const close = option.startsWith("--") ? closest(name, Object.keys(options)) : undefined;
    return `unknown option ${option}${close === undefined ? "" : ` (did you mean --${close}?)`}`;
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && quoted !== undefined) {
    // parseArgs names the option as "-n, --lines <value>": the long form says most.
    const option = /--[\w-]+/.exec(quoted)?.[0] ?? quoted.split(/[ ,]/)[0];
    const name = option.replace(/^-+/, "");
    const spec = options[name] ?? Object.values(options).find((o) => o.short === name);
    return spec?.type === "string"
      ? `${option} needs a value (${spec.value ?? "VALUE"})`
      : `${option} is a switch and takes no value`;
  }
  return message.replace(/\.$/, "");
}

/**
 * The `-o` option's value, when given. `-` is a usage error ending in `instead`: other tools read
 * it as stdout, and a file named "-" is never what was meant.
 *
 * @example
 * ```ts
 * import { outputOption, UsageError } from "./args.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(outputOption({ output: "a.json" }, "…"), "a.json");
 * assert.throws(() => outputOption({ output: "-" }, "without -o it goes to stdout"), UsageError);
 * ```
 */
export function outputOption(values: ParsedArgs["values"], instead: string): string | undefined {
  const output = stringOption(values, "output");
  if (output === "-") throw new UsageError(`-o - would write a file named "-"; ${instead}`);
  return output;
}

/**
 * A string option's value, when given.
 *
 * @example
 * ```ts
 * import { stringOption } from "./args.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(stringOption({ glob: "*.csv" }, "glob"), "*.csv");
 * ```
 */
export function stringOption(values: ParsedArgs["values"], name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * A `multiple` option's values, in the order given (none when absent).
 *
 * @example
 * ```ts
 * import { listOption } from "./args.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(listOption({ meta: ["subject=maize", "rights"] }, "meta"), ["subject=maize", "rights"]);
 * assert.deepEqual(listOption({}, "meta"), []);
 * ```
 */
export function listOption(values: ParsedArgs["values"], name: string): string[] {
  const value = values[name];
  return Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
}

/**
 * An integer option's value, when given.
 *
 * @throws {UsageError} when it is not an integer ≥ `min`.
 *
 * @example
 * ```ts
 * import { intOption } from "./args.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(intOption({ "max-depth": "2" }, "max-depth", 1), 2);
 * ```
 */
export function intOption(
  values: ParsedArgs["values"],
  name: string,
  min: number,
): number | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  const value = Number(raw.trim());
  if (raw.trim() === "" || !Number.isSafeInteger(value) || value < min) {
    throw new UsageError(`--${name} must be an integer ≥ ${min}, got ${quoteInput(raw)}`);
  }
  return value;
}

/**
 * A choice option's value, when given.
 *
 * @throws {UsageError} when it is not one of `choices`.
 *
 * @example
 * ```ts
 * import { choiceOption } from "./args.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(choiceOption({ order: "desc" }, "order", ["asc", "desc"] as const), "desc");
 * ```
 */
export function choiceOption<T extends string>(
  values: ParsedArgs["values"],
  name: string,
  choices: readonly T[],
): T | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  if ((choices as readonly string[]).includes(raw)) return raw as T;
  const close = closest(raw, choices);
  throw new UsageError(
    `--${name} must be one of ${choices.join(", ")}, got ${quoteInput(raw)}` +
      (close === undefined ? "" : ` (did you mean ${close}?)`),
  );
}

/**
 * Fails when two mutually exclusive options were both given.
 *
 * @throws {UsageError} naming both.
 *
 * @example
 * ```ts
 * import { exclusive } from "./args.ts";
 * import assert from "node:assert/strict";
 *
 * exclusive({ json: true }, ["json", "csv"]); // fine: only one given
 * assert.throws(() => exclusive({ json: true, csv: true }, ["json", "csv"]), {
 *   name: "UsageError",
 *   message: "--json and --csv cannot be combined",
 * });
 * ```
 */
export function exclusive(values: ParsedArgs["values"], names: readonly string[]): void {
  const given = names.filter((name) => values[name] !== undefined && values[name] !== false);
  if (given.length > 1) {
    throw new UsageError(`${given.map((name) => `--${name}`).join(" and ")} cannot be combined`);
  }
}

/**
 * Runs `make` (which builds handles or listings and sends nothing) and turns the library's
 * argument errors into usage errors: a bad path or glob is the command line's fault.
 *
 * @throws {UsageError} when `make` throws a `BadRequestError`.
 *
 * @example
 * ```ts
 * import { exampleStore } from "../sample/example.ts";
 * import { asUsage, UsageError } from "./args.ts";
 * import assert from "node:assert/strict";
 *
 * await using store = await exampleStore();
 * const file = asUsage(() => store.file("/iplant/home/shared/tern_samples/formats/penguins.csv"));
 * assert.equal(file.path, "/iplant/home/shared/tern_samples/formats/penguins.csv");
 * assert.throws(() => asUsage(() => store.file("formats/penguins.csv")), UsageError);
 * ```
 */
export function asUsage<T>(make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (error instanceof BadRequestError) throw new UsageError(error.message.replace(/\.$/, ""));
    throw error;
  }
}
