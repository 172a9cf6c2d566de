import assert from "node:assert/strict";
import { BadRequestError, ProtocolError, search, SearchDisabledError } from "../../mod.ts";
import type { SearchQuery } from "../../lib/client/search_query.ts";
import { JUPYTER_DISPLAY } from "../../lib/display/bundle.ts";
import { serveRoot, usersFile, writeFile } from "../_store.ts";
import {
  ALICE,
  DEMO,
  fillFolder,
  MIXED_FILES,
  MIXED_FOLDERS,
  mixedTime,
  PAGED_FILES,
  PAGED_FOLDERS,
  PATHS,
  serve,
} from "./_store.ts";

/** Counts the search requests a store sends, and the size each asked for. */
function counting() {
  const sizes: (number | "scroll")[] = [];
  const fetcher: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.includes("/filesystem/search")) {
      const body = JSON.parse(String(init?.body ?? "{}"));
      sizes.push(body.scroll_id === undefined ? body.size : "scroll");
    }
    return await fetch(input, init);
  };
  return { sizes, fetch: fetcher };
}

const paths = (hits: { path: string }[]) => hits.map((hit) => hit.path).sort();
const under = (prefix: string) => ({ type: "path" as const, args: { prefix } });

Deno.test("search: every clause type, the builder and nesting find what they describe", async () => {
  await using served = await serve();
  const store = served.demo();
  const mixed = `${PATHS.mixed}/`;
  const found = async (query: SearchQuery | ReturnType<typeof search.under>) =>
    paths(await store.search(query).toArray());
  const mixedFile = (name: string) => `${PATHS.mixed}/${name}`;

  assert.deepEqual(await found(search.under(mixed).name("*.csv")), [
    mixedFile("a.csv"),
    mixedFile("e.csv"),
  ]);
  assert.deepEqual(await found(search.under(mixed).name("b.tsv", { exact: true })), [
    mixedFile("b.tsv"),
  ]);
  // Sizes: file i of mixed holds 10·(i+1) bytes.
  assert.deepEqual(await found(search.under(mixed).size({ from: 50, to: "60" })), [
    mixedFile("e.csv"),
    mixedFile("f.py"),
  ]);
  assert.deepEqual(
    await found(search.under(mixed).modified({ from: "2020-01-02", to: mixedTime(2) })),
    [mixedFile("b.tsv"), mixedFile("c.fasta")],
  );
  assert.deepEqual(await found(search.under(mixed).created({ to: mixedTime(0) })), [
    mixedFile("a.csv"),
  ]);
  assert.deepEqual(await found(search.metadata("description", "small table")), [PATHS.table]);
  assert.deepEqual(
    await found(search.metadata("title", "Public test data", { exact: true, types: ["cyverse"] })),
    [PATHS.public],
  );
  assert.deepEqual(await found(search.metadata("title", "Public", { types: ["irods"] })), []);
  // demo may read none of alice's entries, so finds none.
  assert.deepEqual(await found(search.owner("alice")), []);
  assert.ok((await found(search.owner("demo"))).includes(PATHS.notes));
  assert.deepEqual(await found(search.tag(crypto.randomUUID())), []);
  assert.deepEqual(
    await found({
      all: [
        under(mixed),
        { type: "permissions", args: { users: ["demo"], permission: "own" } },
      ],
    }),
    [],
  );
  assert.deepEqual(
    await found({
      all: [under(PATHS.home), {
        type: "permissions",
        args: { users: ["demo"], permission: "own" },
      }],
    }),
    await found(search.under(PATHS.home)),
  );
  // Nesting: all, any and none, with a nested group, through the DSL and the builder alike.
  const nested = {
    all: [under(mixed)],
    any: [{ type: "label", args: { label: "*.csv" } }, {
      all: [{ type: "label", args: { label: "sub" } }],
    }],
    none: [{ type: "label", args: { label: "e.csv", exact: true } }],
  } satisfies SearchQuery;
  const expected = [mixedFile("a.csv"), ...MIXED_FOLDERS.map(mixedFile)];
  assert.deepEqual(await found(nested), expected);
  assert.deepEqual(
    await found(
      search.under(mixed).anyOf(search.name("*.csv"), search.name("sub"))
        .not(search.name("e.csv", { exact: true })),
    ),
    expected,
  );
  assert.equal(MIXED_FILES.length, 6);
});

Deno.test("search: sort orders the hits; each hit becomes a handle", async () => {
  await using served = await serve();
  const store = served.demo();
  const query = search.under(`${PATHS.mixed}/`).name("*.*");
  const bySize = await store.search(query, { sort: [{ field: "fileSize", order: "descending" }] })
    .toArray();
  assert.deepEqual(bySize.map((hit) => hit.name), [...MIXED_FILES].reverse());
  const byName = await store.search(query, { sort: [{ field: "label" }] }).toArray();
  assert.deepEqual(byName.map((hit) => hit.name), [...MIXED_FILES]);
  const [csv] = byName;
  assert.equal(await store.file(csv).text(), "x".repeat(10));
  assert.equal(csv.creator, "curator"); // the zone is dropped
  const [folder] = await store.search(search.under(PATHS.public).name("empty", { exact: true }))
    .toArray();
  assert.equal(folder.type, "folder");
  assert.equal(await store.folder(folder).list().count(), 0);
});

Deno.test("search: pages return every hit once, count() is the total, no page beyond what is asked", async () => {
  await using served = await serve();
  const { sizes, fetch } = counting();
  const store = served.demo({ fetch });
  const hits = store.search(search.under(`${PATHS.paged}/`), { pageSize: 1000 });
  const total = PAGED_FILES + PAGED_FOLDERS;

  assert.equal(await hits.count(), total);
  assert.deepEqual(sizes.splice(0), [1]);

  const seen = await hits.toArray();
  assert.equal(seen.length, total);
  assert.equal(new Set(seen.map((hit) => hit.id)).size, total);
  assert.deepEqual(sizes.splice(0), [1000, 1000, total - 2000]);

  assert.equal((await hits.take(5)).length, 5);
  assert.deepEqual(sizes.splice(0), [5]);
  assert.equal((await hits.take(1500)).length, 1500);
  assert.deepEqual(sizes.splice(0), [1000, 500]);

  let read = 0;
  for await (const _ of hits) if (++read === 1000) break;
  assert.deepEqual(sizes.splice(0), [1000]);

  // The notebook view: one request for its first rows, and the server's total.
  const view = await hits[JUPYTER_DISPLAY]();
  assert.match(
    view["text/plain"].split("\n")[0],
    new RegExp(`of ${total.toLocaleString("en")} entries$`),
  );
  assert.deepEqual(sizes.splice(0), [26]);
});

Deno.test("search: past 10,000 hits a scroll delivers each hit once", async () => {
  const root = await Deno.makeTempDir({ prefix: "tern-search-scroll-" });
  await writeFile(`${root}/.terrain/users.json`, usersFile(DEMO, ALICE, 300));
  const many = 10_050;
  await fillFolder(root, `${root}/iplant/home/shared/many`, many);
  await using served = await serveRoot(root, {}, () => Deno.remove(root, { recursive: true }));
  const { sizes, fetch } = counting();
  const { connect } = await import("../../mod.ts");
  const store = connect({ token: DEMO.token, url: served.url, fetch });
  const hits = store.search(search.under("/iplant/home/shared/many/"), { pageSize: 5000 });
  const ids = new Set<string>();
  for await (const hit of hits) ids.add(hit.id);
  assert.equal(ids.size, many);
  // The first page, the scroll's first page (which repeats it), then two scroll pages.
  assert.deepEqual(sizes.splice(0), [5000, 5000, "scroll", "scroll"]);
  assert.equal(await hits.count(), many);
  sizes.splice(0);

  // The first hits of a query past 10,000 hits: one request, no scroll opened.
  assert.equal((await hits.take(10)).length, 10);
  assert.deepEqual(sizes.splice(0), [10]);

  // A scroll page whose answer is lost after the server moved its cursor: asked again, the
  // server would answer with the page after it. The listing fails instead of skipping hits.
  let lost = 0;
  const losing: typeof globalThis.fetch = async (input, init) => {
    const answer = await fetch(input, init);
    if (!String(init?.body ?? "").includes("scroll_id") || lost++ > 0) return answer;
    await answer.body?.cancel();
    return new Response("busy", { status: 503 });
  };
  const flaky = connect({ token: DEMO.token, url: served.url, fetch: losing, retryBaseMs: 1 });
  const seen = new Set<string>();
  await assert.rejects(async () => {
    for await (
      const hit of flaky.search(search.under("/iplant/home/shared/many/"), {
        pageSize: 5000,
      })
    ) seen.add(hit.id);
  });
  assert.equal(lost, 1);
  assert.equal(seen.size, 5000);
});

Deno.test("search: toDataFrame has the entry columns, creator and one column per attribute", async () => {
  await using served = await serve();
  const store = served.demo();
  const frame = await store.search(
    search.under(PATHS.public).anyOf(
      search.metadata("description"),
      search.metadata("title"),
    ),
    { sort: [{ field: "path" }] },
  ).toDataFrame();
  assert.deepEqual(frame.columns, [
    "path",
    "name",
    "type",
    "size",
    "created",
    "modified",
    "infoType",
    "id",
    "permission",
    "creator",
    "title",
    "identifier",
    "description",
  ]);
  assert.deepEqual(frame.getColumn("path").toArray(), [PATHS.public, PATHS.table]);
  assert.deepEqual(frame.getColumn("description").toArray(), [null, "A small table"]);
  assert.deepEqual(frame.getColumn("title").toArray(), ["Public test data", null]);
  const files = await store.search(search.under(PATHS.public).name("table.csv", { exact: true }))
    .dataframes();
  assert.deepEqual(files.columns, ["source", "id", "name", "value"]);
});

Deno.test("search: bad queries and options are typed errors before any request", async () => {
  await using served = await serve();
  const { sizes, fetch } = counting();
  const store = served.demo({ fetch });
  const refused: [() => unknown, RegExp][] = [
    [
      () => store.search({ all: [{ type: "path", args: {} }] } as never),
      /query\.all\[0\]\.args\.prefix is missing/,
    ],
    [
      () => store.search({ all: [{ type: "colour", args: {} }] } as never),
      /query\.all\[0\]\.type "colour" is not a clause type/,
    ],
    [
      () => store.search({ any: [{ none: [{ type: "size", args: { from: "huge" } }] }] } as never),
      /query\.any\[0\]\.none\[0\]\.args\.from must be bytes/,
    ],
    [() => store.search({ some: [] } as never), /query has "some"/],
    [
      () => store.search(search.under("/x"), { sort: [{ field: "size" }] } as never),
      /store\.search\(\): sort must be/,
    ],
    [
      () => store.search(search.under("/x"), { pageSize: 20_000 }),
      /pageSize must be at most 10000/,
    ],
    [() => store.search(search.under("/x"), { limit: 5 } as never), /unknown option "limit"/],
    // A pandas user's first query (a df.query string, a dict of attributes): the builder's calls.
    ...["subject == 'maize'", { subject: "maize" }].map((query): [() => unknown, RegExp] => [
      () => store.search(query as never),
      /^Bad search query: query (must be an object with all, any or none, got "subject == 'maize'"|has "subject"; a query holds only all, any and none); the builder writes one: search\.metadata\("subject", "maize"\), search\.name\("\*\.csv"\)\.under\("\/iplant\/home\/shared"\) \(import \{ search \} from tern\)\.$/,
    ]),
  ];
  for (const [call, message] of refused) {
    assert.throws(call, (error: unknown) => {
      assert.ok(error instanceof BadRequestError);
      assert.match(error.message, message);
      return true;
    });
  }
  assert.deepEqual(sizes, []);
  // What only the server can refuse comes back as a BadRequestError naming its message.
  await assert.rejects(
    store.search(search.created({ from: "2024-99-99" })).toArray(),
    (error: unknown) =>
      error instanceof BadRequestError && /describe a date|2024-99-99/.test(error.message),
  );
});

Deno.test("search: a store without search says so with a typed error", async () => {
  await using served = await serve({ search: false });
  const store = served.demo();
  await assert.rejects(store.search(search.under(PATHS.home)).toArray(), (error: unknown) => {
    assert.ok(error instanceof SearchDisabledError);
    assert.match(error.message, /Search is not enabled on this store/);
    assert.equal(error.status, 403);
    return true;
  });
});

Deno.test("search: an answer with a malformed hit is a ProtocolError naming the field", async () => {
  await using served = await serve();
  // The real server's answer, with the second hit's size turned into text on its way.
  const altering: typeof fetch = async (input, init) => {
    const answer = await fetch(input, init);
    const url = input instanceof Request ? input.url : String(input);
    if (!url.includes("/filesystem/search")) return answer;
    const body = await answer.json();
    body.hits[1]._source.fileSize = "12";
    return Response.json(body, { status: answer.status });
  };
  const store = served.demo({ fetch: altering });
  await assert.rejects(store.search(search.under(`${PATHS.paged}/`)).take(3), (error: unknown) => {
    assert.ok(error instanceof ProtocolError);
    assert.equal(
      error.message,
      'filesystem/search answered an unexpected body: at "hits[1]._source.fileSize": ' +
        'expected number, got "12".',
    );
    return true;
  });
});
