/**
 * Access to the real public data files of the `vega-datasets` npm package, the raw material
 * of the sample store, plus the provenance its `datapackage.json` records for each file.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { vegaDatasetsEntryUrl } from "../deps.ts";

/**
 * Where a vega-datasets file came from, as its `datapackage.json` records it.
 *
 * @example
 * ```ts
 * import { VegaDatasets, type VegaResource } from "./vega.ts";
 * import assert from "node:assert/strict";
 *
 * const vega = await VegaDatasets.open();
 * const r: VegaResource | undefined = vega.resource("barley.json");
 * assert.equal(r?.name, "barley");
 * ```
 */
export interface VegaResource {
  /** Resource name, e.g. `penguins`. */
  name: string;
  /** File name inside `data/`, e.g. `penguins.json`. */
  path: string;
  /** Original sources. */
  sources?: { title?: string; path?: string }[];
  /** Licences as recorded by vega-datasets (may be vague or absent). */
  licenses?: { name?: string; title?: string; path?: string }[];
}

/**
 * Raised when the vega-datasets package or one of its files cannot be read.
 *
 * @example
 * ```ts
 * import { VegaDatasets, VegaDatasetsError } from "./vega.ts";
 * import assert from "node:assert/strict";
 *
 * const empty = await Deno.makeTempDir();
 * await assert.rejects(VegaDatasets.open(empty), VegaDatasetsError);
 * await Deno.remove(empty);
 * ```
 */
export class VegaDatasetsError extends Error {
  /** `VegaDatasetsError`; the message says what was missing and where it was looked for. */
  override readonly name = "VegaDatasetsError";
}

/**
 * Finds the installed `vega-datasets` package directory. Works with a local `node_modules`
 * (`nodeModulesDir: "auto"`) and with Deno's global npm cache.
 *
 * @example
 * ```ts
 * import { locateVegaDatasets } from "./vega.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok((await Deno.stat(`${await locateVegaDatasets()}/data/penguins.json`)).isFile);
 * ```
 */
export async function locateVegaDatasets(): Promise<string> {
  const entry = await vegaDatasetsEntryUrl().then(fileURLToPath).catch((cause) => {
    throw new VegaDatasetsError(
      `Cannot find the npm package "vega-datasets" (${
        cause instanceof Error ? cause.message : String(cause)
      }); Deno installs it on first use when the npm registry is reachable.`,
      { cause },
    );
  });
  // The package's exports hide package.json, so resolve its entry point and walk up.
  return dirname(dirname(entry));
}

/**
 * Read access to the vega-datasets files, with provenance.
 *
 * @example Read a table and its source
 * ```ts
 * import { VegaDatasets } from "./vega.ts";
 * import assert from "node:assert/strict";
 *
 * const vega = await VegaDatasets.open();
 * const penguins = await vega.json<unknown[]>("penguins.json");
 * assert.equal(penguins.length, 344);
 * assert.ok(vega.resource("penguins.json")?.sources?.length);
 * ```
 */
export class VegaDatasets {
  #resources: Map<string, VegaResource>;
  #cache = new Map<string, Promise<Uint8Array>>();

  private constructor(
    /** The package's `data/` directory. */
    readonly dataDir: string,
    /** Installed package version, e.g. `3.2.1`. */
    readonly version: string,
    resources: VegaResource[],
  ) {
    this.#resources = new Map(resources.map((r) => [r.path, r]));
  }

  /** Opens the package found by {@linkcode locateVegaDatasets}, or the one in `packageDir`. */
  static async open(packageDir?: string): Promise<VegaDatasets> {
    const dir = packageDir ?? await locateVegaDatasets();
    const readJson = (name: string) =>
      Deno.readTextFile(join(dir, name)).then(JSON.parse).catch((cause) => {
        throw new VegaDatasetsError(`Cannot read ${name} of vega-datasets in ${dir}`, { cause });
      });
    const pkg = await readJson("package.json");
    const datapackage = await readJson("datapackage.json");
    return new VegaDatasets(
      join(dir, "data"),
      String(pkg.version),
      Array.isArray(datapackage.resources) ? datapackage.resources : [],
    );
  }

  /** Bytes of `data/<file>` (read once, then cached). */
  bytes(file: string): Promise<Uint8Array> {
    const read = (file: string) =>
      Deno.readFile(join(this.dataDir, file)).catch((cause) => {
        throw new VegaDatasetsError(`Cannot read ${file} from ${this.dataDir}`, { cause });
      });
    return this.#cache.getOrInsertComputed(file, read);
  }

  /** `data/<file>` decoded as UTF-8. */
  async text(file: string): Promise<string> {
    return new TextDecoder().decode(await this.bytes(file));
  }

  /** `data/<file>` parsed as JSON. */
  async json<T>(file: string): Promise<T> {
    return JSON.parse(await this.text(file)) as T;
  }

  /** Provenance of `data/<file>` from `datapackage.json`, if recorded. */
  resource(file: string): VegaResource | undefined {
    return this.#resources.get(file);
  }
}
