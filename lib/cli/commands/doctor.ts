/**
 * `tern doctor`: checks what a first session needs and says what to fix — Deno on PATH (and
 * whether it lives in a temporary npx cache, which disappears), the Jupyter kernelspec (and
 * whether it runs a Deno in such a cache), Jupyter itself, the local cache folder, and the
 * configured server (reachable, a Terrain API, signed in or anonymous).
 *
 * @module
 */

import { delimiter, join } from "node:path";
import { homedir } from "node:os";
import { AuthError, NetworkError, ProtocolError, type Store, TernError } from "../../../mod.ts";
import type { Command, CommandContext } from "../command.ts";
import { type CliIo, environment, envVar } from "../io.ts";
import { humanSize, safeText } from "../format.ts";

/**
 * One check's outcome: `ok`, `warn` (works, but worth fixing) or `fail`, what was found, and
 * what to do about it.
 *
 * @example
 * ```ts
 * import type { Finding } from "./doctor.ts";
 *
 * const finding: Finding = { name: "Deno", status: "ok", detail: "/usr/bin/deno (deno 2.9.6)" };
 * ```
 */
export interface Finding {
  /** What was checked. */
  name: string;
  /** The verdict. */
  status: "ok" | "warn" | "fail";
  /** What was found. */
  detail: string;
  /** What to do, when something is wrong. */
  fix?: string;
}

const DURABLE_DENO = "install Deno durably: curl -fsSL https://deno.land/install.sh | sh, or " +
  "npm install -g deno (see docs/notebooks.md); a Deno run through npx lives in a temporary " +
  "cache that npm may delete at any time";

/**
 * `tern doctor`.
 *
 * @example
 * ```sh
 * tern doctor
 * tern doctor --url https://de.cyverse.org/terrain
 * ```
 */
export const doctor: Command = {
  name: "doctor",
  summary: "check Deno, Jupyter, the cache and the server, and say what to fix",
  usage: "[options]",
  description: [
    "Checks Deno on PATH (not in a temporary npx cache), the Deno Jupyter kernelspec and what",
    "it runs, Jupyter, the cache folder (writable, size), and the configured server (reachable,",
    "a Terrain API, signed in or anonymous). Exit status 1 when something must be fixed.",
  ].join("\n"),
  options: {},
  examples: ["tern doctor", "tern doctor --url https://de.cyverse.org/terrain --anonymous"],
  run,
};

async function run(context: CommandContext): Promise<number> {
  const out = context.io.stdout;
  const deno = await checkDeno(context.io);
  const jupyter = await checkJupyter(context.io);
  const findings = [deno, jupyter.finding, await checkKernelspec(jupyter.specs, context.io)];
  const store = await context.store({ progress: false }).catch((error) => {
    findings.push({
      name: "server",
      status: "fail",
      detail: error instanceof Error ? error.message : String(error),
      fix: "set TERRAIN_URL (or pass --url) to a Terrain base URL",
    });
    return undefined;
  });
  if (store !== undefined) findings.push(await checkCache(store), await checkServer(store));
  const width = Math.max(...findings.map((finding) => finding.name.length));
  const mark = { ok: out.style.dim("ok  "), warn: "warn", fail: "FAIL" } as const;
  for (const finding of findings) {
    out.line(`${mark[finding.status]}  ${finding.name.padEnd(width)}  ${safeText(finding.detail)}`);
    if (finding.fix !== undefined) {
      out.line(`      ${" ".repeat(width)}  fix: ${safeText(finding.fix)}`);
    }
  }
  await out.flush();
  return findings.some((finding) => finding.status === "fail") ? 1 : 0;
}

/** Whether a path is inside npm's temporary npx cache (`…/_npx/…`), which npm may clear. */
function inNpxCache(path: string): boolean {
  return /[\\/]_npx[\\/]/.test(path);
}

/** The first executable called `name` on the command's PATH. */
function onPath(name: string, io: CliIo): string | undefined {
  const names = Deno.build.os === "windows" ? [`${name}.exe`, `${name}.cmd`] : [name];
  for (const dir of (envVar(io, "PATH") ?? "").split(delimiter)) {
    for (const candidate of names) {
      const path = join(dir, candidate);
      try {
        if (Deno.statSync(path).isFile) return path;
      } catch {
        // Not here.
      }
    }
  }
  return undefined;
}

async function capture(command: string, args: string[], io: CliIo): Promise<string | undefined> {
  try {
    const { success, stdout } = await new Deno.Command(command, {
      args,
      env: environment(io),
      clearEnv: true,
      stdout: "piped",
      stderr: "null",
      stdin: "null",
    }).output();
    return success ? new TextDecoder().decode(stdout) : undefined;
  } catch {
    return undefined;
  }
}

async function checkDeno(io: CliIo): Promise<Finding> {
  const found = onPath("deno", io);
  if (found === undefined) {
    return { name: "Deno", status: "fail", detail: "no deno on PATH", fix: DURABLE_DENO };
  }
  const real = await Deno.realPath(found).catch(() => found);
  // "deno 2.9.6 (stable, release, x86_64-unknown-linux-gnu)": the version is enough.
  const version = (await capture(found, ["--version"], io))?.split("\n")[0]?.replace(/\s*\(.*$/, "")
    .trim() || "version unknown";
  const where = real === found ? found : `${found} → ${real}`;
  return inNpxCache(real)
    ? {
      name: "Deno",
      status: "fail",
      detail: `${where} is in a temporary npx cache`,
      fix: DURABLE_DENO,
    }
    : { name: "Deno", status: "ok", detail: `${where} (${version})` };
}

type KernelSpecs = Record<string, { resource_dir: string; spec: { argv?: string[] } }>;

async function checkJupyter(io: CliIo): Promise<{ finding: Finding; specs?: KernelSpecs }> {
  const found = onPath("jupyter", io);
  if (found === undefined) {
    return {
      finding: {
        name: "Jupyter",
        status: "warn",
        detail: "no jupyter on PATH (needed only for notebooks)",
        fix: "pip install jupyterlab (or on Debian/Ubuntu: apt-get install jupyter-notebook)",
      },
    };
  }
  const listed = await capture(found, ["kernelspec", "list", "--json"], io);
  // No listing, or not JSON: the kernelspec check looks in the default folders instead.
  const specs = await Promise.try((): KernelSpecs => JSON.parse(listed ?? "").kernelspecs)
    .catch(() => undefined);
  return { finding: { name: "Jupyter", status: "ok", detail: found }, specs };
}

/** Where `deno jupyter --install` writes when Jupyter itself cannot be asked. */
function defaultKernelDirs(io: CliIo): string[] {
  // The home folder from the command's own environment when it has one (see CliIo.env).
  const home = envVar(io, "HOME") ?? envVar(io, "USERPROFILE") ??
    (io.env === undefined ? homedir() : undefined);
  const data = envVar(io, "XDG_DATA_HOME") ??
    (home === undefined ? undefined : join(home, ".local", "share"));
  const appData = envVar(io, "APPDATA") ?? home;
  return [
    data === undefined ? undefined : join(data, "jupyter", "kernels", "deno"),
    home === undefined ? undefined : join(home, "Library", "Jupyter", "kernels", "deno"),
    appData === undefined ? undefined : join(appData, "jupyter", "kernels", "deno"),
  ].filter((dir) => dir !== undefined);
}

async function checkKernelspec(specs: KernelSpecs | undefined, io: CliIo): Promise<Finding> {
  const install = "deno jupyter --install --force (with a durably installed deno)";
  let dir: string | undefined;
  let argv: string[] | undefined;
  if (specs?.deno !== undefined) {
    dir = specs.deno.resource_dir;
    argv = specs.deno.spec.argv;
  } else {
    for (const candidate of defaultKernelDirs(io)) {
      try {
        argv = JSON.parse(await Deno.readTextFile(join(candidate, "kernel.json"))).argv;
        dir = candidate;
        break;
      } catch {
        // Not here.
      }
    }
  }
  if (dir === undefined) {
    return { name: "kernelspec", status: "warn", detail: "no Deno kernelspec found", fix: install };
  }
  const failed = (detail: string, fix = install): Finding => ({
    name: "kernelspec",
    status: "fail",
    detail,
    fix,
  });
  const program = argv?.[0];
  if (typeof program !== "string") return failed(`${dir} has no argv`);
  const resolved = program.includes("/") || program.includes("\\") ? program : onPath(program, io);
  if (resolved === undefined || !(await Deno.stat(resolved).then(() => true, () => false))) {
    return failed(`${dir} runs ${program}, which does not exist`);
  }
  if (inNpxCache(await Deno.realPath(resolved).catch(() => resolved))) {
    return failed(
      `${dir} runs ${program}, in a temporary npx cache`,
      `${DURABLE_DENO}; then ${install}`,
    );
  }
  return { name: "kernelspec", status: "ok", detail: `${dir} runs ${program}` };
}

async function folderBytes(dir: string, budget = { files: 100_000 }): Promise<number> {
  let total = 0;
  for await (const entry of Deno.readDir(dir)) {
    if (budget.files-- <= 0) break;
    const path = join(dir, entry.name);
    if (entry.isDirectory) total += await folderBytes(path, budget);
    else if (entry.isFile) total += (await Deno.stat(path)).size;
  }
  return total;
}

async function checkCache(store: Store): Promise<Finding> {
  const dir = store.cache.dir;
  if (dir === undefined) return { name: "cache", status: "ok", detail: "off (--no-cache)" };
  const fix =
    "set TERRAIN_CACHE_DIR (or pass --cache-dir) to a folder you can write, or --no-cache";
  try {
    await Deno.mkdir(dir, { recursive: true });
    const probe = join(dir, `.tern-doctor-${crypto.randomUUID()}`);
    await Deno.writeTextFile(probe, "");
    await Deno.remove(probe);
  } catch (error) {
    return {
      name: "cache",
      status: "fail",
      detail: `${dir} is not writable: ${(error as Error).message}`,
      fix,
    };
  }
  const bytes = await folderBytes(dir).catch(() => 0);
  return {
    name: "cache",
    status: "ok",
    detail: `${dir}, writable, ${humanSize(bytes)} used of ${humanSize(store.cache.maxBytes)}`,
  };
}

async function checkServer(store: Store): Promise<Finding> {
  const { url, auth, username } = store.options;
  const who = auth === "anonymous" ? "anonymous" : `signed in${username ? ` as ${username}` : ""}`;
  try {
    if (auth === "anonymous") {
      await store.folder("/iplant/home/shared").list({ pageSize: 1 }).total();
    } else {
      await store.root();
    }
    return { name: "server", status: "ok", detail: `${url}: a Terrain API, ${who}` };
  } catch (error) {
    if (!(error instanceof TernError)) throw error;
    const fix = SERVER_FIXES.find(([kind]) => error instanceof kind)?.[1];
    return { name: "server", status: "fail", detail: `${url}: ${error.message}`, fix };
  }
}

/** What to do when the server check fails, by the error's class (the first that matches). */
const SERVER_FIXES: readonly (readonly [typeof TernError, string])[] = [
  [NetworkError, "check the URL and your network"],
  [ProtocolError, "point --url or TERRAIN_URL at Terrain's base URL (it ends in /terrain)"],
  // A SignInRequiredError is an AuthError.
  [AuthError, "renew TERRAIN_TOKEN, or sign in with --username NAME"],
];
