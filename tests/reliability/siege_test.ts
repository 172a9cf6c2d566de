/**
 * Siege: the embedded server, run as its own process, against clients that cost it without
 * helping it: 1,100 clients that ask for the 20,000-file listing (5.7 MB of JSON) and never read
 * it, and 1,100 slowloris sockets that trickle request heads to hold every connection slot.
 * Its memory is read from `/proc/<pid>/status`; fairness is counted in answers, not timed.
 *
 * @module
 */

import assert from "node:assert/strict";
import { COMMUNITY_PATH, ensureSampleStore, MANY_FILES_PATH } from "../../lib/sample/mod.ts";
import { report, tally, withDeadline } from "./_fixtures.ts";

const encoder = new TextEncoder();
const MB = 1024 * 1024;
const CLIENTS = 1_100;
/** Peak RSS the server may reach under the non-reading clients (it starts near 100 MB). */
const PEAK_LIMIT = 300 * MB;
/** Memory is read from /proc and the descriptor limit raised by bash: Linux only. */
const ignore = Deno.build.os !== "linux";

/** The server as a child process, with a descriptor limit large enough for the siege. */
interface ServerProcess extends AsyncDisposable {
  pid: number;
  host: string;
  port: number;
}

async function startServerProcess(root: string, descriptors: number): Promise<ServerProcess> {
  const main = new URL("../../lib/server/main.ts", import.meta.url).pathname;
  // Deno cannot raise its own descriptor limit; the shell does it before exec'ing the server,
  // so the pid is the server's.
  const child = new Deno.Command("bash", {
    args: [
      "-c",
      `ulimit -n ${descriptors} && exec "$0" run -A "$1" --root "$2" --quiet`,
      Deno.execPath(),
      main,
      root,
    ],
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the server exited before saying where it listens: ${text}`);
    text += value;
  }
  // Keep draining stdout so the child never blocks on a full pipe.
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })().catch(() => {});
  const url = new URL(text.trim());
  return {
    pid: child.pid,
    host: url.hostname,
    port: Number(url.port),
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGTERM");
      } catch {
        // Gone already.
      }
      await child.status;
    },
  };
}

/** Resident and peak resident memory of a process, bytes. */
async function memoryOf(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const field = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)![1]) * 1024;
  return { rss: field("VmRSS"), peak: field("VmHWM") };
}

/** CPU time a process has used, clock ticks. */
async function cpuTicks(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/** Waits until the process has used no CPU over three samples in a row: its work is done. */
async function settled(pid: number): Promise<void> {
  let last = await cpuTicks(pid);
  let quiet = 0;
  while (quiet < 3) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await cpuTicks(pid);
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
}

/**
 * Sends one request on a new connection and reads the whole answer: its status (0: none) and
 * body.
 */
async function ask(
  host: string,
  port: number,
  path: string,
): Promise<{ status: number; body: string }> {
  let conn: Deno.TcpConn;
  try {
    conn = await Deno.connect({ hostname: host, port });
  } catch {
    return { status: 0, body: "" };
  }
  try {
    await conn.write(
      encoder.encode(`GET ${path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`),
    );
    const text = new TextDecoder().decode(await new Response(conn.readable).bytes());
    const end = text.indexOf("\r\n\r\n");
    return {
      status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0),
      body: end < 0 ? "" : text.slice(end + 4),
    };
  } catch {
    return { status: 0, body: "" };
  } finally {
    try {
      conn.close();
    } catch {
      // Closed by reading to the end.
    }
  }
}

/**
 * A siege test against the sample store served by its own process, with 4,096 descriptors
 * (so its default connection cap is 1,024).
 */
function siege(name: string, body: (server: ServerProcess) => Promise<void>): void {
  Deno.test({
    name: `siege: ${name}`,
    ignore,
    // The child process and the sockets are closed by the test; their ops outlive its body.
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      await using server = await startServerProcess(await ensureSampleStore(), 4096);
      await body(server);
    },
  });
}

siege(
  "1,100 clients that never read a 5.7 MB listing: 100 of 100 ordinary requests answered, peak RSS under 300 MB (issue 29)",
  async (server) => {
    const { host, port } = server;
    const target = `/terrain/filesystem/paged-directory?path=${MANY_FILES_PATH}&limit=100000`;
    // A small listing: an ordinary request whose answer is the same each time.
    const ordinary = `/terrain/filesystem/paged-directory?path=${COMMUNITY_PATH}&limit=10`;
    // One full read first: the answer is the big one it should be.
    const whole = await fetch(`http://${host}:${port}${target}`);
    const body = await whole.bytes();
    assert.equal(whole.status, 200);
    const listing = JSON.parse(new TextDecoder().decode(body));
    assert.equal(listing.folders.length + listing.files.length, listing.total);
    assert.ok(listing.total > 20_000);
    const expected = await ask(host, port, ordinary);
    assert.equal(expected.status, 200);
    // Memory once the folder has been read and listed, before the clients come.
    const before = await memoryOf(server.pid);
    const sockets: Deno.TcpConn[] = [];
    try {
      await withDeadline(120_000, "opening 1,100 clients that never read", async () => {
        for (let i = 0; i < CLIENTS; i++) {
          const conn = await Deno.connect({ hostname: host, port });
          sockets.push(conn);
          await conn.write(encoder.encode(`GET ${target} HTTP/1.1\r\nhost: x\r\n\r\n`));
        }
      });
      // Ordinary requests while every listing is still asked for and none read.
      const answers: { status: number; body: string }[] = [];
      await withDeadline(180_000, "100 ordinary requests beside the unread listings", async () => {
        for (let round = 0; round < 10; round++) {
          answers.push(
            ...await Promise.all(Array.from({ length: 10 }, () => ask(host, port, ordinary))),
          );
        }
      });
      const held = await memoryOf(server.pid);
      // The peak is read once the server has also dealt with the clients going away.
      for (const conn of sockets.splice(0)) conn.close();
      await withDeadline(
        120_000,
        "the server settling after the clients closed",
        () => settled(server.pid),
      );
      const after = await memoryOf(server.pid);
      const answered = answers.filter((a) => a.status === 200 && a.body === expected.body).length;
      report("siege unread listings", {
        clients: CLIENTS,
        "listing bytes": body.byteLength,
        answered: `${answered}/100`,
        statuses: tally(answers.map((a) => String(a.status))),
        "rss before": `${(before.rss / MB).toFixed(0)} MB`,
        "rss while held": `${(held.rss / MB).toFixed(0)} MB`,
        "peak rss": `${(after.peak / MB).toFixed(0)} MB`,
        "rss after close": `${(after.rss / MB).toFixed(0)} MB`,
      });
      assert.equal(answered, 100, `${answered} of 100 ordinary requests answered in full`);
      assert.ok(after.peak < PEAK_LIMIT, `peak RSS ${(after.peak / MB).toFixed(0)} MB`);
    } finally {
      for (const conn of sockets) conn.close();
    }
  },
);

siege(
  "with 1,100 slowloris sockets open, 90 of 100 ordinary requests are answered",
  async (server) => {
    const { host, port } = server;
    let stop = false;
    let opened = 0;
    /** One slowloris socket: a request head that never ends, a header line every second. */
    const loris = async () => {
      while (!stop) {
        let conn: Deno.TcpConn;
        try {
          conn = await Deno.connect({ hostname: host, port });
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 200));
          continue;
        }
        opened++;
        try {
          await conn.write(encoder.encode("GET / HTTP/1.1\r\nhost: x\r\n"));
          for (let i = 0; !stop; i++) {
            await new Promise((resolve) => setTimeout(resolve, 1000));
            await conn.write(encoder.encode(`x-${i}: y\r\n`));
          }
        } catch {
          // Shed or timed out by the server: open another, as an attacker would.
        } finally {
          try {
            conn.close();
          } catch {
            // Closed already.
          }
        }
      }
    };
    const attackers = Array.from({ length: 1_100 }, loris);
    try {
      // Let the sockets fill the connection cap before asking.
      while (opened < 1_100) await new Promise((resolve) => setTimeout(resolve, 100));
      const statuses: number[] = [];
      await withDeadline(180_000, "100 ordinary requests under siege", async () => {
        for (let round = 0; round < 10; round++) {
          statuses.push(
            ...await Promise.all(
              Array.from(
                { length: 10 },
                async () =>
                  (await ask(host, port, "/terrain/filesystem/search-documentation")).status,
              ),
            ),
          );
        }
      });
      const answered = statuses.filter((status) => status === 200).length;
      report("siege slowloris", {
        sockets: 1_100,
        "sockets opened": opened,
        answered: `${answered}/100`,
        statuses: tally(statuses.map(String)),
      });
      assert.ok(answered >= 90, `${answered} of 100 ordinary requests answered`);
    } finally {
      stop = true;
      await Promise.all(attackers);
    }
  },
);
