/**
 * Facts about the sample store that tests, the demo and notebooks rely on: users and their
 * credentials, well-known paths and counts.
 *
 * This module has no heavy dependencies, so importing it never loads Polars or reads the disk.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { createHmac } from "node:crypto";

/**
 * Version of the store layout and content. Bump it whenever the builder's output changes, so
 * `ensureSampleStore` rebuilds stores made by an older builder.
 *
 * @example
 * ```ts
 * import { SAMPLE_STORE_VERSION } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(Number.isInteger(SAMPLE_STORE_VERSION));
 * ```
 */
export const SAMPLE_STORE_VERSION = 3;

/**
 * The iRODS zone of the sample store; data-store paths start with `/${SAMPLE_ZONE}/`.
 *
 * @example
 * ```ts
 * import { SAMPLE_ZONE } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(SAMPLE_ZONE, "iplant");
 * ```
 */
export const SAMPLE_ZONE = "iplant";

/**
 * Root of the users' homes ("Shared With Me").
 *
 * @example
 * ```ts
 * import { HOME_PATH } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(HOME_PATH, "/iplant/home");
 * ```
 */
export const HOME_PATH = `/${SAMPLE_ZONE}/home`;

/**
 * Community Data: readable by every user and anonymously.
 *
 * @example
 * ```ts
 * import { COMMUNITY_PATH } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(COMMUNITY_PATH, "/iplant/home/shared");
 * ```
 */
export const COMMUNITY_PATH = `${HOME_PATH}/shared`;

/**
 * The CyVerse Data Commons repository folder (holds `curated/` and `staging/`).
 *
 * @example
 * ```ts
 * import { COMMONS_REPO_PATH } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(COMMONS_REPO_PATH.endsWith("/commons_repo"));
 * ```
 */
export const COMMONS_REPO_PATH = `${COMMUNITY_PATH}/commons_repo`;

/**
 * Published (curated) datasets, one folder each, named `Creator_subject_date`.
 *
 * @example
 * ```ts
 * import { CURATED_PATH } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(CURATED_PATH, "/iplant/home/shared/commons_repo/curated");
 * ```
 */
export const CURATED_PATH = `${COMMONS_REPO_PATH}/curated`;

/**
 * Datasets still being prepared for publication (partial metadata, no identifier).
 *
 * @example
 * ```ts
 * import { STAGING_PATH } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(STAGING_PATH, "/iplant/home/shared/commons_repo/staging");
 * ```
 */
export const STAGING_PATH = `${COMMONS_REPO_PATH}/staging`;

/**
 * A Community Data folder that is not part of the Data Commons: fixtures for tern itself.
 *
 * @example
 * ```ts
 * import { TERN_SAMPLES_PATH } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(TERN_SAMPLES_PATH, "/iplant/home/shared/tern_samples");
 * ```
 */
export const TERN_SAMPLES_PATH = `${COMMUNITY_PATH}/tern_samples`;

/**
 * A folder with {@linkcode MANY_FILES_COUNT} small CSV files (`part-00001.csv` …) plus
 * {@linkcode MANY_FILES_SUBFOLDERS}, for paging through large listings.
 *
 * @example
 * ```ts
 * import { MANY_FILES_PATH } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(MANY_FILES_PATH, "/iplant/home/shared/tern_samples/many_files");
 * ```
 */
export const MANY_FILES_PATH = `${TERN_SAMPLES_PATH}/many_files`;

/**
 * Number of files directly inside {@linkcode MANY_FILES_PATH} (subfolders not included).
 *
 * @example
 * ```ts
 * import { MANY_FILES_COUNT } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(MANY_FILES_COUNT, 20_000);
 * ```
 */
export const MANY_FILES_COUNT = 20_000;

/**
 * Names of the subfolders of {@linkcode MANY_FILES_PATH}, sorted; a listing's first page
 * therefore holds folders followed by files.
 *
 * @example
 * ```ts
 * import { MANY_FILES_SUBFOLDERS } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(MANY_FILES_SUBFOLDERS, ["_logs", "archive", "schema"]);
 * ```
 */
export const MANY_FILES_SUBFOLDERS: readonly string[] = ["_logs", "archive", "schema"];

/**
 * Column names shared by every `part-NNNNN.csv` in {@linkcode MANY_FILES_PATH}.
 *
 * @example
 * ```ts
 * import { MANY_FILES_COLUMNS } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(MANY_FILES_COLUMNS[0], "timestamp");
 * ```
 */
export const MANY_FILES_COLUMNS: readonly string[] = [
  "timestamp",
  "station",
  "soil_temp_c",
  "soil_moisture_pct",
  "battery_v",
];

/**
 * Folder holding the Palmer penguins table in every supported format, side by side.
 *
 * @example
 * ```ts
 * import { FORMATS_PATH } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(FORMATS_PATH, "/iplant/home/shared/tern_samples/formats");
 * ```
 */
export const FORMATS_PATH = `${TERN_SAMPLES_PATH}/formats`;

/**
 * Rows in every table of {@linkcode FORMATS_PATH} (the Palmer penguins, one row per bird).
 *
 * @example
 * ```ts
 * import { PENGUIN_ROWS } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(PENGUIN_ROWS, 344);
 * ```
 */
export const PENGUIN_ROWS = 344;

/**
 * One small file per format, all holding the same {@linkcode PENGUIN_ROWS}-row table (except
 * `png`, an image, and `text`, a README). Handy for reader tests.
 *
 * @example
 * ```ts
 * import { SAMPLE_FILES } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(SAMPLE_FILES.parquet.endsWith("/penguins.parquet"));
 * ```
 */
export const SAMPLE_FILES = {
  csv: `${FORMATS_PATH}/penguins.csv`,
  tsv: `${FORMATS_PATH}/penguins.tsv`,
  json: `${FORMATS_PATH}/penguins.json`,
  ndjson: `${FORMATS_PATH}/penguins.ndjson`,
  parquet: `${FORMATS_PATH}/penguins.parquet`,
  arrow: `${FORMATS_PATH}/penguins.arrow`,
  csvGz: `${FORMATS_PATH}/penguins.csv.gz`,
  png: `${FORMATS_PATH}/penguin_body_mass.png`,
  text: `${FORMATS_PATH}/README.txt`,
} as const;

/**
 * A user of the sample store, with the credentials the embedded server accepts.
 *
 * @example
 * ```ts
 * import { DEMO_USER, type SampleUser } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * const user: SampleUser = DEMO_USER;
 * const headers = { Authorization: `Bearer ${user.token}` };
 * assert.ok(headers.Authorization.startsWith("Bearer "));
 * ```
 */
export interface SampleUser {
  /** Short username (`preferred_username`). */
  readonly username: string;
  /** Password for `GET /terrain/token/keycloak` (HTTP Basic). */
  readonly password: string;
  /** E-mail address. */
  readonly email: string;
  /** Given name. */
  readonly firstName: string;
  /** Family name. */
  readonly lastName: string;
  /** A long-lived static bearer token (JWT-shaped) accepted verbatim by the server. */
  readonly token: string;
  /** The user's home folder. */
  readonly home: string;
}

/**
 * Secret the sample store's `users.json` gives the server for signing minted tokens. It only
 * protects a local demo store; never reuse it anywhere else.
 *
 * @example
 * ```ts
 * import { SAMPLE_TOKEN_SECRET } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(SAMPLE_TOKEN_SECRET.length >= 32);
 * ```
 */
export const SAMPLE_TOKEN_SECRET = "tern-sample-store/hs256/demo-only/9f1c2a7e5b3d4c6f";

/** Issue time of the static tokens: fixed so the store is identical on every build. */
const TOKEN_ISSUED_AT = Date.UTC(2024, 0, 15) / 1000;
/** Expiry of the static tokens (2100-01-01): long-lived by design. */
const TOKEN_EXPIRES_AT = Date.UTC(2100, 0, 1) / 1000;

function staticToken(user: Omit<SampleUser, "token" | "home">): string {
  const base64url = (bytes: string | Uint8Array) => Buffer.from(bytes).toString("base64url");
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = base64url(JSON.stringify({
    iss: "tern-sample-store",
    sub: user.username,
    preferred_username: user.username,
    email: user.email,
    given_name: user.firstName,
    family_name: user.lastName,
    name: `${user.firstName} ${user.lastName}`,
    entitlement: ["de-users"],
    iat: TOKEN_ISSUED_AT,
    exp: TOKEN_EXPIRES_AT,
  }));
  const signature = createHmac("sha256", SAMPLE_TOKEN_SECRET).update(`${header}.${payload}`)
    .digest();
  return `${header}.${payload}.${base64url(signature)}`;
}

function sampleUser(u: Omit<SampleUser, "token" | "home">): SampleUser {
  return Object.freeze({ ...u, token: staticToken(u), home: `${HOME_PATH}/${u.username}` });
}

/**
 * The demo user: owns `/iplant/home/demo` (a few files, an empty folder and a dataset of
 * their own) and has saved searches.
 *
 * @example Sign in with the demo user
 * ```ts
 * import { DEMO_USER } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * const basic = btoa(`${DEMO_USER.username}:${DEMO_USER.password}`);
 * assert.equal(DEMO_USER.home, "/iplant/home/demo");
 * assert.equal(DEMO_USER.token.split(".").length, 3);
 * assert.ok(basic.length > 0);
 * ```
 */
export const DEMO_USER: SampleUser = sampleUser({
  username: "demo",
  password: "tern-demo-password",
  email: "demo@tern.example.org",
  firstName: "Dana",
  lastName: "Moreno",
});

/**
 * A second user whose home the demo user cannot read (for permission tests).
 *
 * @example
 * ```ts
 * import { ALICE_USER, DEMO_USER } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.notEqual(ALICE_USER.home, DEMO_USER.home);
 * ```
 */
export const ALICE_USER: SampleUser = sampleUser({
  username: "alice",
  password: "alice-private-password",
  email: "alice@tern.example.org",
  firstName: "Alice",
  lastName: "Okonkwo",
});

/**
 * All users of the sample store, in `users.json` order.
 *
 * @example
 * ```ts
 * import { SAMPLE_USERS } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(SAMPLE_USERS.map((u) => u.username), ["demo", "alice"]);
 * ```
 */
export const SAMPLE_USERS: readonly SampleUser[] = [DEMO_USER, ALICE_USER];

/**
 * The demo user's own (unpublished) dataset folder.
 *
 * @example
 * ```ts
 * import { DEMO_DATASET_PATH, DEMO_USER } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(DEMO_DATASET_PATH.startsWith(DEMO_USER.home + "/"));
 * ```
 */
export const DEMO_DATASET_PATH = `${DEMO_USER.home}/Moreno_MarketIndices_2024`;

/**
 * An empty folder in the demo home (listing it gives an empty page).
 *
 * @example
 * ```ts
 * import { DEMO_EMPTY_FOLDER } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(DEMO_EMPTY_FOLDER.endsWith("/scratch"));
 * ```
 */
export const DEMO_EMPTY_FOLDER = `${DEMO_USER.home}/scratch`;

/**
 * A private file in alice's home: the demo user must get "not readable" for it.
 *
 * @example
 * ```ts
 * import { ALICE_PRIVATE_FILE, ALICE_USER } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(ALICE_PRIVATE_FILE.startsWith(ALICE_USER.home + "/"));
 * ```
 */
export const ALICE_PRIVATE_FILE = `${ALICE_USER.home}/unpublished/transect_counts_draft.csv`;

/**
 * Name and location of the stamp file that marks a directory as a complete sample store.
 *
 * @example
 * ```ts
 * import { STAMP_FILE } from "./constants.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(STAMP_FILE, ".terrain/sample-store.json");
 * ```
 */
export const STAMP_FILE = ".terrain/sample-store.json";
