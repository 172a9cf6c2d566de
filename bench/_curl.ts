/**
 * HTTP transfers measured by curl: one curl process fetches a list of URLs in order (on one
 * connection when the server keeps it alive), discards the bodies and reports, per transfer,
 * curl's own status, size and time. Timing comes from curl's clock, so neither the harness's
 * event loop nor curl's process start-up is inside the figure.
 *
 * @module
 */

/**
 * What curl reported for one transfer.
 *
 * @example
 * ```ts
 * import type { Transfer } from "./_curl.ts";
 *
 * const t: Transfer = { status: 200, bytes: 1024, seconds: 0.002, connects: 1 };
 * ```
 */
export interface Transfer {
  /** HTTP status code (`%{http_code}`). */
  status: number;
  /** Body bytes received (`%{size_download}`). */
  bytes: number;
  /** Total time of the transfer including connect, seconds (`%{time_total}`). */
  seconds: number;
  /** New connections this transfer opened (`%{num_connects}`); 0 when one was reused. */
  connects: number;
}

// Tab-separated so no field can be confused with another.
const WRITE_OUT = "%{http_code}\\t%{size_download}\\t%{time_total}\\t%{num_connects}\\n";

/**
 * Fetches `urls` in order with a single curl process, bodies to /dev/null, and returns one
 * {@link Transfer} per URL. `-q` ignores any ~/.curlrc and `--noproxy '*'` ignores proxy
 * variables, so the run measures exactly the loopback server.
 *
 * @example
 * ```ts ignore
 * import { curl } from "./_curl.ts";
 *
 * const [t] = await curl(["http://127.0.0.1:8000/"]);
 * console.log(t.status, t.bytes / t.seconds);
 * ```
 */
export async function curl(urls: string[], timeoutSeconds = 300): Promise<Transfer[]> {
  if (urls.length === 0) throw new RangeError("curl: no URLs given");
  const args = ["-q", "-sS", "--noproxy", "*", "--max-time", String(timeoutSeconds)];
  args.push("-w", WRITE_OUT);
  for (const url of urls) args.push("-o", "/dev/null", url);
  const result = await new Deno.Command("curl", { args, stdin: "null" }).output();
  const decoder = new TextDecoder();
  if (!result.success) {
    const stderr = decoder.decode(result.stderr).trim();
    throw new Error(`curl exited with code ${result.code}: ${stderr.slice(-1000)}`);
  }
  const lines = decoder.decode(result.stdout).split("\n").filter((line) => line !== "");
  if (lines.length !== urls.length) {
    throw new Error(`curl reported ${lines.length} transfers for ${urls.length} URLs`);
  }
  return lines.map((line) => {
    const [status, bytes, seconds, connects] = line.split("\t").map(Number);
    if ([status, bytes, seconds, connects].some((n) => !Number.isFinite(n))) {
      throw new Error(`unexpected curl write-out line: ${JSON.stringify(line)}`);
    }
    return { status, bytes, seconds, connects };
  });
}

/**
 * Throws unless every transfer answered `status` with a body of the expected size, so a fast
 * error page can never pass for a fast listing or download.
 *
 * @example
 * ```ts
 * import { expectTransfers } from "./_curl.ts";
 *
 * expectTransfers("our server", [{ status: 200, bytes: 10, seconds: 0.1, connects: 1 }], [10]);
 * ```
 */
export function expectTransfers(
  label: string,
  transfers: Transfer[],
  expectedBytes: number[],
  status = 200,
): void {
  transfers.forEach((t, i) => {
    if (t.status !== status) {
      throw new Error(`${label}: transfer ${i + 1} answered HTTP ${t.status}, expected ${status}`);
    }
    if (t.bytes !== expectedBytes[i]) {
      throw new Error(
        `${label}: transfer ${i + 1} returned ${t.bytes} bytes, expected ${expectedBytes[i]}`,
      );
    }
  });
}
