/**
 * {@linkcode lockCrate}: a lock (what a notebook read) as an RO-Crate — the metadata built by
 * `lib/ld`, the notebook and outputs hashed, and, with `dir`, a crate folder holding the metadata,
 * its preview page, the notebook, the outputs and a copy of every input file. What
 * `store.provenance.crate()` and `tern crate` make.
 *
 * @module
 */

import { createHash } from "node:crypto";
import type { CallOptions } from "../client/endpoints.ts";
import { BadRequestError, quoteInput } from "../client/errors.ts";
import { checksumHasher } from "../client/checksum.ts";
import { definedOf } from "../client/defined.ts";
import { mapConcurrent } from "../client/map_concurrent.ts";
import { isSafeLocalName } from "../client/paths.ts";
import {
  abortSignal,
  defineOptions,
  filled,
  flag,
  type OptionsSchema,
  rule,
} from "../client/options.ts";
import { withDisplay } from "../display/attach.ts";
import type { JUPYTER_DISPLAY, MediaBundle } from "../display/bundle.ts";
import { cratePreviewPage, type CrateView, renderCrate } from "../display/crate.ts";
import { normalizeOrcid } from "../metadata/names.ts";
import {
  type CrateAgent,
  type CrateLocalFile,
  type CrateRecord,
  fileUrl,
  provenanceCrate,
  type RoCrate,
} from "../ld/crate.ts";
import { DataChangedError, type Lock, type LockedFile, lockedVersion } from "./lock.ts";

/**
 * Options of `store.provenance.crate()` and {@linkcode lockCrate}.
 *
 * @example
 * ```ts
 * import type { CrateCallOptions } from "./crate.ts";
 *
 * const options: CrateCallOptions = { instrument: "analysis.ipynb", outputs: ["figure.png"], dir: "crate" };
 * ```
 */
export interface CrateCallOptions extends CallOptions {
  /**
   * The crate's name.
   * @default "Data read by tern"
   */
  name?: string;
  /**
   * The crate's description.
   * @default a sentence naming the store and how many files and datasets were read
   */
  description?: string;
  /**
   * The licence of the crate's metadata (each dataset keeps its own), an http(s) URL.
   * @default "https://creativecommons.org/publicdomain/zero/1.0/"
   */
  license?: string;
  /**
   * The notebook or script that ran (a local path): the run's `instrument`, hashed (SHA-256)
   * when the file exists, and copied into `dir`.
   * @default none
   */
  instrument?: string;
  /**
   * Who ran the notebook: the run's `agent`, a `Person` with a name and, when given, an ORCID iD
   * (`0000-0002-1825-0097`, hyphens optional, or its `https://orcid.org/` link; its check digit
   * must hold), which becomes the person's `@id`.
   * @default none: the crate names no agent
   */
  agent?: CrateAgent;
  /**
   * Files the run made (local paths): the run's `result`, hashed, and copied into `dir`.
   * @default []
   */
  outputs?: readonly string[];
  /**
   * A folder to write the crate to: `ro-crate-metadata.json`, `ro-crate-preview.html`, the
   * notebook, the outputs and (with `copy`) the input files under `inputs/`.
   * @default none: the crate is returned, nothing is written
   */
  dir?: string;
  /**
   * Whether `dir` also holds a copy of every input file: the store's cached copy when its cache
   * holds the locked version, else downloaded through the store (a few at a time, the store's
   * `concurrency`); either way checked against the lock's size and the store's checksum.
   * @default true
   */
  copy?: boolean;
}

/**
 * The options schema of `store.provenance.crate()`.
 *
 * @example
 * ```ts
 * import { CRATE_OPTIONS } from "./crate.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => CRATE_OPTIONS.parse("provenance.crate()", { output: [] }), /did you mean "outputs"/);
 * assert.throws(
 *   () => CRATE_OPTIONS.parse("provenance.crate()", { agent: { name: "Ada", orcid: "0000-0002-1825-0098" } }),
 *   /agent must be a person: \{ name: a non-empty string, orcid\?: an ORCID iD with a valid check digit \}/,
 * );
 * ```
 */
export const CRATE_OPTIONS: OptionsSchema<CrateCallOptions> = defineOptions<CrateCallOptions>(
  () => ({
    signal: abortSignal(),
    name: filled("a non-empty string"),
    description: filled("a non-empty string"),
    license: rule("an http(s) URL", isHttpUrl),
    instrument: filled("a file path"),
    agent: rule(
      "a person: { name: a non-empty string, orcid?: an ORCID iD with a valid check digit }",
      isAgent,
    ),
    outputs: rule(
      "an array of file paths",
      (value): value is string[] =>
        Array.isArray(value) && value.every((item) => typeof item === "string" && item !== ""),
    ),
    dir: filled("a folder path"),
    copy: flag(),
  }),
);

/**
 * Where a crate's input copies come from: a store's `file(path).stream()` (its cached copy when
 * the cache holds the file's version, else a download through the store's own transport, so a
 * token goes only to it), at most `concurrency` at once.
 *
 * @example
 * ```ts
 * import type { CrateInputs } from "./crate.ts";
 *
 * const none: CrateInputs = { read: () => Promise.reject(new Error("offline")), concurrency: 1 };
 * ```
 */
export interface CrateInputs {
  /** The bytes of the store file at `path`. */
  read(path: string, options: CallOptions): Promise<ReadableStream<Uint8Array>>;
  /** How many inputs are copied at once (the store's `concurrency`). */
  readonly concurrency: number;
}

/**
 * A crate's metadata (plain JSON-LD: `JSON.stringify` gives `ro-crate-metadata.json`), shown in a
 * notebook as a card of its entities with a download link.
 *
 * @example
 * ```ts
 * import type { ProvenanceCrate } from "./crate.ts";
 *
 * const graph = (crate: ProvenanceCrate) => crate["@graph"];
 * ```
 */
export type ProvenanceCrate = RoCrate & {
  readonly [JUPYTER_DISPLAY]: () => MediaBundle | Promise<MediaBundle>;
};

/**
 * A lock as an RO-Crate (see {@linkcode CrateCallOptions}); with `dir`, writes the crate folder.
 *
 * @param times When the reads started and ended, when known (a lock file does not say).
 * @param inputs Where the input copies come from, for `copy`.
 * @throws {BadRequestError} for a misspelt or bad option, an output that is not a file, two files
 * with one name in the folder, or `copy` without `dir`.
 * @throws {DataChangedError} when an input copied has changed since the lock.
 *
 * @example
 * ```ts
 * import { lockCrate } from "./crate.ts";
 * import assert from "node:assert/strict";
 *
 * const lock = {
 *   lock: "tern lock", format: 1, tern: "0.1.0", store: "http://127.0.0.1:8080/terrain",
 *   datasets: [], files: [],
 * } as const;
 * const crate = await lockCrate(lock, {}, { name: "Nothing read" });
 * assert.equal(crate["@graph"][1].name, "Nothing read");
 * ```
 */
export async function lockCrate(
  lock: Lock,
  times: Pick<CrateRecord, "startTime" | "endTime">,
  options: CrateCallOptions = {},
  inputs?: CrateInputs,
): Promise<ProvenanceCrate> {
  return await buildCrate(lock, times, CRATE_OPTIONS.parse("lockCrate()", options), inputs);
}

/**
 * {@linkcode lockCrate} for options already read by {@linkcode CRATE_OPTIONS} (at
 * `provenance.crate()` or `tern crate`).
 *
 * @example
 * ```ts
 * import { buildCrate } from "./crate.ts";
 * import assert from "node:assert/strict";
 *
 * const lock = {
 *   lock: "tern lock", format: 1, tern: "0.1.0", store: "http://127.0.0.1:8080/terrain",
 *   datasets: [], files: [],
 * } as const;
 * assert.equal((await buildCrate(lock, {}, {}))["@graph"][1].name, "Data read by tern");
 * ```
 */
export async function buildCrate(
  lock: Lock,
  times: Pick<CrateRecord, "startTime" | "endTime">,
  options: CrateCallOptions,
  inputs?: CrateInputs,
): Promise<ProvenanceCrate> {
  const dir = options.dir;
  const copy = dir !== undefined && options.copy !== false;
  if (options.copy === true && dir === undefined) {
    throw new BadRequestError("crate(): copy needs dir, the folder to copy the input files into");
  }
  const instrument = options.instrument === undefined
    ? undefined
    : await localFile(options.instrument, false);
  const outputs = await Promise.all((options.outputs ?? []).map((path) => localFile(path, true)));
  if (copy) {
    // A lock may come from anyone: a name that is no plain file name on every system (`C:x`,
    // `..\x`) would put its copy outside inputs/ on Windows.
    for (const file of lock.files) {
      const name = file.path.split("/").slice(1).find((segment) => !isSafeLocalName(segment));
      if (name !== undefined) {
        throw new BadRequestError(
          `crate(): cannot copy ${quoteInput(file.path)} into the crate's folder: ` +
            `${quoteInput(name)} is no safe local file name; make the crate without copy.`,
          { path: file.path },
        );
      }
    }
  }
  const copies = copy
    ? lock.files.map((file): CrateLocalFile => ({
      id: `inputs/${file.path.slice(1).split("/").map(encodeURIComponent).join("/")}`,
      copyOf: fileUrl(lock.store, file.path),
    }))
    : [];
  const ids = [instrument, ...outputs].filter((file) => file !== undefined).map((file) => file.id);
  const twice = ids.find((id, index) => ids.indexOf(id) !== index);
  if (twice !== undefined) {
    throw new BadRequestError(
      `crate(): two files named ${quoteInput(decodeURIComponent(twice))} would go in the crate`,
    );
  }
  const crate = provenanceCrate({ ...lock, ...times }, {
    ...definedOf(options, ["name", "description", "license"]),
    ...(options.agent === undefined ? {} : { agent: agentOf(options.agent) }),
    ...(instrument === undefined ? {} : { instrument }),
    outputs,
    copies,
  });
  const json = `${JSON.stringify(crate, null, 2)}\n`;
  if (dir !== undefined) {
    await Deno.mkdir(dir, { recursive: true });
    if (copy) {
      if (inputs === undefined) {
        throw new BadRequestError("crate(): copy needs a store to download the inputs from");
      }
      // A few at a time (the store's concurrency), as every pool of reads in tern.
      await mapConcurrent(lock.files, inputs.concurrency, async (file, index, signal) => {
        const target = `${dir}/${copies[index].id.split("/").map(decodeURIComponent).join("/")}`;
        await copyInput(lock.store, file, target, await inputs.read(file.path, { signal }));
      }, options.signal === undefined ? {} : { signal: options.signal });
    }
    for (const file of [instrument, ...outputs]) {
      if (file?.source !== undefined) {
        await Deno.copyFile(file.source, `${dir}/${decodeURIComponent(file.id)}`);
      }
    }
    await Deno.writeTextFile(
      `${dir}/ro-crate-preview.html`,
      cratePreviewPage(crateView(crate, json)),
    );
    await Deno.writeTextFile(`${dir}/ro-crate-metadata.json`, json);
  }
  return withDisplay(crate, () => renderCrate(crateView(crate, json, dir))) as ProvenanceCrate;
}

/** What the crate card shows of a crate: every entity but the metadata descriptor. */
function crateView(crate: RoCrate, json: string, dir?: string): CrateView {
  const root = crate["@graph"].find((entity) => entity["@id"] === "./");
  return {
    name: typeof root?.name === "string" ? root.name : "RO-Crate",
    entities: crate["@graph"].filter((entity) => entity["@id"] !== "ro-crate-metadata.json").map(
      (entity) => {
        const type = [entity["@type"]].flat().join(", ");
        const detail = [
          typeof entity.contentSize === "string" ? `${entity.contentSize} bytes` : undefined,
          typeof entity.md5 === "string" ? `md5 ${entity.md5}` : undefined,
          typeof entity.sha256 === "string" ? `sha256 ${entity.sha256}` : undefined,
          typeof entity.softwareVersion === "string"
            ? `version ${entity.softwareVersion}`
            : undefined,
          typeof entity.identifier === "string" && type === "CreativeWork"
            ? entity.identifier
            : undefined,
        ].filter((part) => part !== undefined).join(" · ");
        return {
          id: entity["@id"],
          type,
          ...(typeof entity.name === "string" ? { name: entity.name } : {}),
          ...(detail === "" ? {} : { detail }),
        };
      },
    ),
    json,
    ...(dir === undefined ? {} : { dir }),
  };
}

/** A local file as the crate names it: its name (URI-encoded), size and SHA-256 when it exists. */
async function localFile(
  path: string,
  mustExist: boolean,
): Promise<CrateLocalFile & { source?: string }> {
  const name = path.replace(/(?<!\/)\/+$/, "").split(/[\\/]/).at(-1) ?? path;
  const id = encodeURIComponent(name);
  let stat: Deno.FileInfo;
  try {
    stat = await Deno.stat(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound) || mustExist) {
      throw new BadRequestError(
        `crate(): the output ${quoteInput(path)} cannot be read (${
          error instanceof Deno.errors.NotFound ? "no such file" : String(error)
        })`,
      );
    }
    return { id, name };
  }
  if (!stat.isFile) {
    throw new BadRequestError(`crate(): ${quoteInput(path)} is not a file`);
  }
  const hash = createHash("sha256");
  using file = await Deno.open(path);
  for await (const chunk of file.readable) hash.update(chunk);
  return { id, name, contentSize: stat.size, sha256: hash.digest("hex"), source: path };
}

/** Writes an input's bytes into the crate, checking its size and the store's checksum. */
async function copyInput(
  store: string,
  file: LockedFile,
  target: string,
  body: ReadableStream<Uint8Array>,
): Promise<void> {
  await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
  const hasher = file.checksum === undefined ? undefined : checksumHasher(file.checksum);
  let size = 0;
  await Deno.writeFile(
    target,
    body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          hasher?.update(chunk);
          size += chunk.length;
          controller.enqueue(chunk);
        },
      }),
    ),
  );
  const checksum = hasher?.digest();
  if (size !== file.size || (checksum !== undefined && checksum !== file.checksum)) {
    await Deno.remove(target).catch(() => {});
    const locked = lockedVersion(store, file);
    throw new DataChangedError(locked, {
      ...locked,
      size,
      ...(checksum === undefined ? {} : { checksum }),
    }, "the crate copies the store's current bytes");
  }
}

function isAgent(value: unknown): value is CrateAgent {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { name, orcid, ...rest } = value as Record<string, unknown>;
  return typeof name === "string" && name.trim() !== "" && Object.keys(rest).length === 0 &&
    (orcid === undefined || (typeof orcid === "string" && normalizeOrcid(orcid) !== undefined));
}

/** The agent with its ORCID iD in canonical form (the schema checked it). */
function agentOf(agent: CrateAgent): CrateAgent {
  const name = agent.name.trim();
  return agent.orcid === undefined ? { name } : { name, orcid: normalizeOrcid(agent.orcid)! };
}

function isHttpUrl(value: unknown): value is string {
  return typeof value === "string" && /^https?:$/.test(URL.parse(value)?.protocol ?? "");
}
