/**
 * `tern lock verify`: checks a lock written by `store.provenance.save()` against its store —
 * which locked files are unchanged, changed or missing — for CI and before publishing.
 *
 * @module
 */

import { readLock, verifyLock } from "../../../mod.ts";
import { textTable } from "../../display/text.ts";
import { UsageError } from "../args.ts";
import type { Command, CommandContext } from "../command.ts";
import { count, plural, safeText } from "../format.ts";
import { localPath } from "../io.ts";
import { quoteInput } from "../../client/errors.ts";

/**
 * `tern lock verify [--hash] FILE`.
 *
 * @example
 * ```sh
 * tern lock verify tern.lock.json && echo "same data as when the lock was written"
 * ```
 */
export const lock: Command = {
  name: "lock",
  summary: "verify a lock file: are the files a notebook read still the same?",
  usage: "verify [--hash] FILE",
  description: [
    "Checks every file version in FILE (a lock saved by store.provenance.save) against the",
    "store it names: one stat per file, comparing id, size and date-modified; --hash also",
    "downloads each file the lock has a hash for and compares the hash of its bytes. Prints",
    "a table (unchanged, changed, missing) and exits 0 when every file is unchanged, 1",
    "otherwise. The store's URL comes from the lock (--url overrides it). Credentials (from",
    "the options or the environment, as for every command) are sent only to the store they",
    "are for: --url, else TERRAIN_URL, else the default. A lock naming another store is",
    "checked anonymously (public files only), with a note; pass --url with the lock's store",
    "to sign in there.",
  ].join("\n"),
  options: {
    hash: { type: "boolean", help: "also download and compare the hash of each file's bytes" },
  },
  examples: ["tern lock verify tern.lock.json", "tern lock verify --hash tern.lock.json"],
  run,
};

async function run(context: CommandContext): Promise<number> {
  const [action, file, ...rest] = context.args.positionals;
  if (action !== "verify") {
    throw new UsageError(
      action === undefined
        ? "tern lock needs an action: verify FILE"
        : `unknown action ${JSON.stringify(action)}: use "tern lock verify FILE"`,
    );
  }
  if (file === undefined || rest.length > 0) {
    throw new UsageError("tern lock verify takes one FILE");
  }
  const locked = readLock(localPath(context.io, file));
  const store = await context.store({
    named: { url: locked.store, by: `the lock ${quoteInput(file)}` },
  });
  const checks = await verifyLock(store, locked, {
    hash: context.args.values.hash === true,
    signal: context.signal,
  });
  const out = context.io.stdout;
  if (checks.length > 0) {
    out.line(
      textTable(
        [{ heading: "status" }, { heading: "path", max: 100 }, {
          heading: "what differs",
          max: 120,
        }],
        checks.map((check) => [check.status, safeText(check.path), check.detail]),
      ).split("\n").map((line) => line.slice(2)).join("\n"),
    );
  }
  const changed = checks.filter((check) => check.status === "changed").length;
  const missing = checks.filter((check) => check.status === "missing").length;
  const unchanged = checks.length - changed - missing;
  out.line(
    `${plural(checks.length, "file")}: ${count(unchanged)} unchanged, ${count(changed)} changed, ${
      count(missing)
    } missing.`,
  );
  await out.flush();
  return changed + missing === 0 ? 0 : 1;
}
