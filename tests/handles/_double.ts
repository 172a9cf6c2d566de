/**
 * A tiny Terrain test double on 127.0.0.1:0 for behaviour the embedded server cannot produce
 * (inconsistent totals, short pages, foreign name collations). Tests that use it say so in
 * their names.
 *
 * @module
 */

/** A running double. */
export interface Double extends AsyncDisposable {
  /** Base URL, e.g. `http://127.0.0.1:PORT/terrain`. */
  url: string;
  /** Every request received, in order. */
  requests: URL[];
  /** Stops the double. */
  close(): Promise<void>;
}

/** Serves `handler` on 127.0.0.1:0. */
export function serveDouble(handler: (url: URL) => Response | Promise<Response>): Double {
  const requests: URL[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => {
      const url = new URL(request.url);
      requests.push(url);
      return handler(url);
    },
  );
  const close = () => server.shutdown();
  return {
    url: `http://127.0.0.1:${server.addr.port}/terrain`,
    requests,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** A stable UUID for item number `index`. */
export function idFor(index: number): string {
  return `00000000-0000-4000-8000-${index.toString(16).padStart(12, "0")}`;
}

/** A paged-directory listing item. */
export function item(path: string, type: "file" | "folder", index: number) {
  return {
    id: idFor(index),
    path,
    label: path.slice(path.lastIndexOf("/") + 1),
    infoType: type === "folder" ? null : "unknown",
    isFavorite: false,
    badName: false,
    permission: "read",
    "date-created": 1_600_000_000_000,
    "date-modified": 1_600_000_000_000 + index,
    "file-size": type === "folder" ? 0 : index,
  };
}

/** A paged-directory answer for `folder` holding `items` (folders before files). */
export function pageAnswer(
  folder: string,
  items: ReturnType<typeof item>[],
  total: number | null,
  modified = 1_700_000_000_000,
): Response {
  return Response.json({
    ...item(folder, "folder", 0),
    id: idFor(999_999),
    "date-modified": modified,
    hasSubDirs: true,
    total,
    totalBad: 0,
    folders: items.filter((entry) => entry.infoType === null),
    files: items.filter((entry) => entry.infoType !== null),
  });
}

/**
 * A `filesystem/stat` answer for the files `items` (listing items), keyed by their paths, with
 * the checksum `md5` (`""`: not computed yet) for each.
 */
export function statAnswer(items: ReturnType<typeof item>[], md5 = ""): Response {
  const paths = Object.fromEntries(items.map((entry) => {
    const { label: _label, isFavorite: _favorite, badName: _bad, ...rest } = entry;
    return [entry.path, { ...rest, type: "file", md5 }];
  }));
  return Response.json({ paths, ids: {} });
}

/** The offset and limit of a paged-directory request. */
export function window(url: URL): { offset: number; limit: number } {
  return {
    offset: Number(url.searchParams.get("offset") ?? "0"),
    limit: Number(url.searchParams.get("limit")),
  };
}
