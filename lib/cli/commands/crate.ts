/**
 * `tern crate`: a lock file as an RO-Crate (RO-Crate 1.1, Process Run Crate): the
 * `ro-crate-metadata.json` on standard output, or with `-o DIR` a crate folder holding it, its
 * preview page and a checked copy of every input file.
 *
 * @module
 */

import { readLock } from "../../../mod.ts";
import { buildCrate, CRATE_OPTIONS } from "../../reproduce/crate.ts";
import { quoteInput } from "../../client/errors.ts";
import { outputOption, stringOption, UsageError } from "../args.ts";
import type { Command, CommandContext } from "../command.ts";
import { localPath } from "../io.ts";
import { namesStore } from "../session.ts";
import { safeText } from "../format.ts";
import { visibleJson } from "../../registry/visible_text.ts";
import { admitLockStore } from "../../reproduce/lock_store.ts";
import { STORE_CONTEXT } from "../../handles/store_context.ts";

/**
 * `tern crate --lock FILE [-o DIR] [--instrument NOTEBOOK] [--agent NAME [--orcid ID]]`.
 *
 * @example
 * ```sh
 * tern crate --lock tern.lock.json -o crate --instrument analysis.ipynb
 * ```
 */
export const crate: Command = {
  name: "crate",
  summary: "turn a lock file into an RO-Crate (the inputs a notebook read, as linked data)",
  usage: "--lock FILE [-o DIR] [--instrument NOTEBOOK] [--agent NAME [--orcid ID]]",
  description: [
    "Writes the RO-Crate 1.1 metadata (Process Run Crate profile) of the files a lock pins:",
    "each file version by its store URL with the store's id, size, date-modified and checksum,",
    "each dataset by its DOI or ARK with its creators, licence and citation, and tern as the",
    "software used. Without -o it prints ro-crate-metadata.json. With -o DIR it writes a crate",
    "folder: ro-crate-metadata.json, ro-crate-preview.html, the notebook (--instrument) and a",
    "copy of every input file under inputs/, downloaded from the store (--url, else",
    "TERRAIN_URL, else the lock's URL) and checked against the lock's size and checksum; a",
    "store you name must report the store id the lock recorded, as for tern lock verify.",
    "--agent names who ran the notebook (the run's agent, a Person), --orcid their ORCID iD",
    "(its check digit is checked). Input copies come from the local cache when it holds the",
    "locked version, else from the store, a few at a time.",
    "tern lock from-crate DIR (or connect({ lock: DIR })) reads the pins back.",
  ].join("\n"),
  options: {
    lock: { type: "string", value: "FILE", help: "the lock file (store.provenance.save)" },
    output: { type: "string", short: "o", value: "DIR", help: "write a crate folder there" },
    instrument: { type: "string", value: "NOTEBOOK", help: "the notebook or script that ran" },
    agent: { type: "string", value: "NAME", help: "who ran it (the run's agent)" },
    orcid: { type: "string", value: "ID", help: "the agent's ORCID iD" },
  },
  examples: [
    "tern crate --lock tern.lock.json",
    "tern crate --lock tern.lock.json -o crate",
    'tern crate --lock tern.lock.json --agent "Ada Lovelace" --orcid 0000-0002-1825-0097',
  ],
  run,
};

async function run(context: CommandContext): Promise<number> {
  const file = stringOption(context.args.values, "lock");
  if (file === undefined || context.args.positionals.length > 0) {
    throw new UsageError("tern crate takes --lock FILE (and -o DIR)");
  }
  const locked = readLock(localPath(context.io, file));
  const dir = outputOption(context.args.values, "name the crate's folder");
  const instrument = stringOption(context.args.values, "instrument");
  const name = stringOption(context.args.values, "agent");
  const orcid = stringOption(context.args.values, "orcid");
  if (orcid !== undefined && name === undefined) {
    throw new UsageError("tern crate: --orcid is the ORCID iD of the --agent NAME; give both");
  }
  const options = CRATE_OPTIONS.parse("tern crate", {
    ...(dir === undefined ? {} : { dir: localPath(context.io, dir) }),
    ...(instrument === undefined ? {} : { instrument: localPath(context.io, instrument) }),
    ...(name === undefined ? {} : { agent: { name, ...(orcid === undefined ? {} : { orcid }) } }),
    signal: context.signal,
  });
  if (dir === undefined) {
    const made = await buildCrate(locked, {}, options);
    context.io.stdout.line(visibleJson(JSON.stringify(made, null, 2)));
  } else {
    const store = await context.store({
      named: { url: locked.store, by: `the lock ${quoteInput(file)}` },
    });
    // A store the user named stands in for the lock's only once it is shown to be the same
    // store (the id the lock recorded): the inputs of a lock without checksums are checked by
    // size alone.
    const named = namesStore(stringOption(context.args.values, "url"), context.io);
    await admitLockStore(locked, {
      url: store.options.url,
      transport: store[STORE_CONTEXT].transport,
    }, {
      named,
      refusal: `was written for the store ${quoteInput(locked.store)}`,
      signal: context.signal,
      warn: (line) => context.io.stderr.line(safeText(line.replace(/^tern: /, "note: "))),
    });
    await buildCrate(locked, {}, options, {
      read: (path, call) => store.file(path).stream(call),
      concurrency: store.options.concurrency,
    });
    context.io.stdout.line(`Wrote the crate of ${locked.files.length} files to ${dir}.`);
  }
  await context.io.stdout.flush();
  return 0;
}
