/**
 * `tern lock verify`: checks a lock written by `store.provenance.save()` against its store —
 * which locked files are unchanged, changed, missing or unverifiable — by stat alone, for CI and
 * before publishing.
 *
 * @module
 */

import { type LockStatus, lockText, readLock, verifyLock } from "../../../mod.ts";
import { textTable } from "../../display/text.ts";
import { stringOption, UsageError } from "../args.ts";
import type { Command, CommandContext } from "../command.ts";
import { count, plural, safeText } from "../format.ts";
import { localPath } from "../io.ts";
import { namesStore } from "../session.ts";
import { quoteInput } from "../../client/errors.ts";

/**
 * `tern lock verify [--download] FILE`.
 *
 * @example
 * ```sh
 * tern lock verify tern.lock.json && echo "same data as when the lock was written"
 * ```
 */
export const lock: Command = {
  name: "lock",
  summary: "verify a lock file: are the files a notebook read still the same?",
  usage: "verify [--download] FILE | from-crate CRATE",
  description: [
    "Checks every file version in FILE (a lock saved by store.provenance.save) against the",
    "store it names, by stat alone (a request per 1,000 files, no content downloaded): the",
    "store's checksum where the lock and the store both have one, else id, size and",
    "date-modified. --download also downloads the files the store has no checksum for and",
    "compares their bytes with the lock's checksum or hash. Prints a table (unchanged, changed,",
    "missing, unverifiable, and how each was compared) and exits 0 when every file is",
    "unchanged, 1 otherwise. The store is --url, else TERRAIN_URL, else the lock's URL. A store",
    "named by --url or TERRAIN_URL overrides the lock's URL (a sample store on a new port):",
    "when the lock recorded its store's id, that store must report the same id, or the lock is",
    "refused naming both; a lock without an id is checked there with a note. Credentials (from",
    "the options or the environment, as for every command) are sent only to the store they are",
    "for: --url, else TERRAIN_URL, else the default; a lock's URL that is another store is",
    "checked anonymously (public files only), with a note.",
    "from-crate CRATE prints the lock of an RO-Crate tern wrote (its folder or its",
    "ro-crate-metadata.json): the same pins, each file marked as read by bytes.",
  ].join("\n"),
  options: {
    download: {
      type: "boolean",
      help: "also download and hash the files the store has no checksum for",
    },
  },
  examples: [
    "tern lock verify tern.lock.json",
    "tern lock verify --download tern.lock.json",
    "tern lock from-crate crate > tern.lock.json",
  ],
  run,
};

async function run(context: CommandContext): Promise<number> {
  const [action, file, ...rest] = context.args.positionals;
  if (action === "from-crate") {
    if (file === undefined || rest.length > 0) {
      throw new UsageError("tern lock from-crate takes one CRATE (a folder or its metadata file)");
    }
    context.io.stdout.line(lockText(readLock(localPath(context.io, file))).trimEnd());
    await context.io.stdout.flush();
    return 0;
  }
  if (action !== "verify") {
    throw new UsageError(
      action === undefined
        ? "tern lock needs an action: verify FILE or from-crate CRATE"
        : `unknown action ${
          JSON.stringify(action)
        }: use "tern lock verify FILE" or "tern lock from-crate CRATE"`,
    );
  }
  if (file === undefined || rest.length > 0) {
    throw new UsageError("tern lock verify takes one FILE");
  }
  const locked = readLock(localPath(context.io, file));
  // A store the user named stands in for the lock's URL (the lock's store id, when it has one,
  // says whether it is the same store); otherwise the lock's URL is opened.
  const named = namesStore(stringOption(context.args.values, "url"), context.io);
  const store = await context.store(
    named ? {} : { named: { url: locked.store, by: `the lock ${quoteInput(file)}` } },
  );
  const notes: string[] = [];
  const checks = await verifyLock(store, locked, {
    download: context.args.values.download === true,
    named,
    warn: (line) => notes.push(line),
    signal: context.signal,
  });
  for (const line of notes) context.io.stderr.line(safeText(line.replace(/^tern: /, "note: ")));
  await context.io.stderr.flush();
  const out = context.io.stdout;
  if (checks.length > 0) {
    out.line(
      textTable(
        [{ heading: "status" }, { heading: "path", max: 100 }, { heading: "compared by" }, {
          heading: "what differs",
          // Room for two checksums with a size and a date change.
          max: 240,
        }],
        checks.map((check) => [
          check.status,
          safeText(check.path),
          check.by ?? "—",
          safeText(check.detail),
        ]),
      ).split("\n").map((line) => line.slice(2)).join("\n"),
    );
  }
  const tally = (status: LockStatus) => checks.filter((check) => check.status === status).length;
  const statuses: LockStatus[] = ["unchanged", "changed", "missing", "unverifiable"];
  const tallies = statuses.map((status) => `${count(tally(status))} ${status}`);
  out.line(`${plural(checks.length, "file")}: ${tallies.join(", ")}.`);
  await out.flush();
  return tally("unchanged") === checks.length ? 0 : 1;
}
