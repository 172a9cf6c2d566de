/**
 * The store's accounts, read from `ROOT/.terrain/users.json` and re-read when the file changes,
 * so a running server picks up new users and tokens. A missing file means no accounts (every
 * request is anonymous).
 *
 * @module
 */

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { loadZodModule, type z as Z } from "../deps.ts";
import { ifPresent, parseStoreJson } from "./store_file.ts";
import { isJwtShaped } from "../registry/jwt_shape.ts";

const { z } = await loadZodModule();

/** Where users.json lives, relative to the store root (also how errors name it). */
const USERS_FILE = ".terrain/users.json";

/** Token lifetime when neither the options nor users.json set one (Keycloak's default). */
const DEFAULT_TOKEN_LIFETIME_SECONDS = 300;

const RESERVED_USERNAMES: ReadonlySet<string> = new Set(["anonymous", "shared", "public"]);

const userSchema = z.object({
  username: z.string().regex(
    /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/,
    "must be 1-64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit",
  ).refine((name) => !RESERVED_USERNAMES.has(name), "is reserved"),
  password: z.string().min(1, "must not be empty"),
  email: z.string().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  tokens: z.array(
    z.string().refine(isJwtShaped, "must be JWT-shaped (three base64url segments joined by '.')"),
  ).default([]),
}).transform((user) => ({
  ...user,
  email: user.email ?? `${user.username}@example.org`,
  firstName: user.firstName ?? user.username,
  lastName: user.lastName ?? "",
}));

const usersFileSchema = z.object({
  secret: z.string().min(1, "must not be empty").optional(),
  tokenLifetimeSeconds: z.int().positive().optional(),
  users: z.array(userSchema).optional(),
}).superRefine((file, context) => {
  const names = new Set<string>();
  const tokens = new Set<string>();
  (file.users ?? []).forEach((user, i) => {
    if (names.has(user.username)) {
      context.addIssue({ code: "custom", path: ["users", i, "username"], message: "is repeated" });
    }
    names.add(user.username);
    user.tokens.forEach((token, j) => {
      if (tokens.has(token)) {
        context.addIssue({
          code: "custom",
          path: ["users", i, "tokens", j],
          message: "is already given to another entry",
        });
      }
      tokens.add(token);
    });
  });
});

/**
 * One account: its username (also its home folder's name), password (for the token endpoint)
 * and long-lived static tokens (accepted verbatim). Optional profile fields get defaults
 * (`USER@example.org`, the username as first name, an empty last name) so minted tokens always
 * carry every claim Terrain requires.
 *
 * @example
 * ```ts
 * import type { StoreUser } from "./users.ts";
 * const user: StoreUser = {
 *   username: "demo", password: "pw", email: "demo@example.org",
 *   firstName: "Demo", lastName: "User", tokens: [],
 * };
 * ```
 */
export type StoreUser = Z.output<typeof userSchema>;

/**
 * The accounts as of the last read of users.json.
 *
 * @example
 * ```ts
 * import type { UserTable } from "./users.ts";
 * const table: UserTable = {
 *   users: new Map(), staticTokens: new Map(), secret: "s", tokenLifetimeSeconds: 300,
 * };
 * ```
 */
export interface UserTable {
  /** Accounts by username. */
  users: Map<string, StoreUser>;
  /** Static token → username. */
  staticTokens: Map<string, string>;
  /** HMAC key for minted tokens. */
  secret: string;
  /** Lifetime of minted tokens. */
  tokenLifetimeSeconds: number;
}

/** Stands in for unknown users so a wrong username costs as much as a wrong password. */
const NOBODY_PASSWORD = randomBytes(32).toString("hex");

/**
 * True when `password` is the user's password (compared in constant time). An unknown user
 * (`undefined`) is compared too, and never matches, so timing does not tell which usernames
 * exist.
 *
 * @example
 * ```ts
 * import { passwordMatches } from "./users.ts";
 * import assert from "node:assert/strict";
 *
 * const user = { username: "d", password: "pw", email: "", firstName: "", lastName: "", tokens: [] };
 * assert.ok(passwordMatches(user, "pw"));
 * assert.ok(!passwordMatches(user, "nope"));
 * assert.ok(!passwordMatches(undefined, "pw"));
 * ```
 */
export function passwordMatches(user: StoreUser | undefined, password: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  const matches = timingSafeEqual(digest(user?.password ?? NOBODY_PASSWORD), digest(password));
  return matches && user !== undefined;
}

/**
 * How {@linkcode UserDirectory.open} reads the accounts and times their tokens.
 *
 * @example
 * ```ts
 * import type { UserDirectoryOptions } from "./users.ts";
 * import assert from "node:assert/strict";
 *
 * let now = Date.now();
 * const options: UserDirectoryOptions = { tokenLifetimeSeconds: 60, clock: () => now };
 * now += 61_000;
 * assert.equal(options.clock?.(), now);
 * ```
 */
export interface UserDirectoryOptions {
  /**
   * Lifetime of minted tokens, overriding users.json's.
   * @default {users.json's, else 300}
   */
  tokenLifetimeSeconds?: number;
  /**
   * The clock that mints and checks tokens, ms since the epoch.
   * @default {Date.now}
   */
  clock?: () => number;
  /**
   * Where a warning about a malformed users.json edit goes.
   * @default {nowhere}
   */
  warn?: (message: string) => void;
}

/**
 * Loads users.json and keeps it current. The first read must succeed (a malformed file stops
 * the server from starting); later malformed edits keep the previous table and produce one
 * warning per edit.
 *
 * @example
 * ```ts
 * import { UserDirectory } from "./users.ts";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const directory = await UserDirectory.open(root, {});
 * assert.equal((await directory.current()).users.size, 0);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export class UserDirectory {
  /** users.json, or `undefined` for a store without accounts. */
  readonly #file: string | undefined;
  readonly #lifetimeOverride: number | undefined;
  readonly #warn: (message: string) => void;
  /**
   * The clock that decides whether a token is valid, ms since the epoch: the token endpoint
   * mints with it and every request's token is checked against it.
   *
   * @example
   * ```ts
   * import { UserDirectory } from "./users.ts";
   * import assert from "node:assert/strict";
   *
   * const directory = await UserDirectory.open(undefined, { clock: () => 1_000 });
   * assert.equal(directory.clock(), 1_000);
   * ```
   */
  readonly clock: () => number;
  readonly #randomSecret = randomBytes(32).toString("hex");
  #table!: UserTable;
  #version = "";
  #pending: Promise<UserTable> | undefined;

  private constructor(
    root: string | undefined,
    options: UserDirectoryOptions,
  ) {
    this.#file = root === undefined ? undefined : `${root}/${USERS_FILE}`;
    this.#lifetimeOverride = options.tokenLifetimeSeconds;
    this.#warn = options.warn ?? (() => {});
    this.clock = options.clock ?? Date.now;
  }

  /**
   * Reads users.json under `root` (a real path). Without a root, a directory without accounts
   * that reads no file: every request is anonymous (a plain folder served as is, whose files
   * are all data, `.terrain/` included).
   *
   * @throws {StoreFileError} when the file exists but is malformed.
   *
   * @example
   * ```ts
   * import { UserDirectory } from "./users.ts";
   * const root = await Deno.makeTempDir();
   * const directory = await UserDirectory.open(root, { tokenLifetimeSeconds: 2 });
   * await Deno.remove(root, { recursive: true });
   * ```
   *
   * @example A plain folder: no accounts
   * ```ts
   * import { UserDirectory } from "./users.ts";
   * import assert from "node:assert/strict";
   *
   * const table = await (await UserDirectory.open(undefined, {})).current();
   * assert.equal(table.users.size, 0);
   * ```
   */
  static async open(
    root: string | undefined,
    options: UserDirectoryOptions,
  ): Promise<UserDirectory> {
    const directory = new UserDirectory(root, options);
    const version = await directory.#fileVersion();
    directory.#table = await directory.#read(version);
    directory.#version = version;
    return directory;
  }

  /**
   * The current accounts, re-reading users.json if it changed since the last call.
   *
   * @example
   * ```ts
   * import { UserDirectory } from "./users.ts";
   * const root = await Deno.makeTempDir();
   * const table = await (await UserDirectory.open(root, {})).current();
   * await Deno.remove(root, { recursive: true });
   * ```
   */
  current(): Promise<UserTable> {
    this.#pending ??= this.#refresh().finally(() => this.#pending = undefined);
    return this.#pending;
  }

  async #refresh(): Promise<UserTable> {
    const version = this.#fileVersion();
    if (version === this.#version) return this.#table;
    try {
      this.#table = await this.#read(version);
    } catch (error) {
      this.#warn(`${(error as Error).message}; keeping the previous accounts`);
    }
    this.#version = version;
    return this.#table;
  }

  #fileVersion(): string {
    if (this.#file === undefined) return "absent";
    try {
      // Checked on every request, so synchronous: microseconds on a local disk.
      const info = Deno.statSync(this.#file);
      return `${info.mtime?.getTime()}:${info.size}:${info.ino}`;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return "absent";
      throw error;
    }
  }

  async #read(version: string): Promise<UserTable> {
    const bytes = version === "absent" ? undefined : await ifPresent(Deno.readFile(this.#file!));
    const parsed = bytes === undefined ? {} : parseStoreJson(bytes, usersFileSchema, USERS_FILE);
    const users = new Map<string, StoreUser>();
    const staticTokens = new Map<string, string>();
    for (const user of parsed.users ?? []) {
      users.set(user.username, user);
      for (const token of user.tokens) staticTokens.set(token, user.username);
    }
    return {
      users,
      staticTokens,
      secret: parsed.secret ?? this.#randomSecret,
      tokenLifetimeSeconds: this.#lifetimeOverride ?? parsed.tokenLifetimeSeconds ??
        DEFAULT_TOKEN_LIFETIME_SECONDS,
    };
  }
}
