/**
 * Hostile content in a real store served by the real server: HTML and script payloads in file
 * and folder names, dataset metadata (DataCite AVUs, nested ones and raw iRODS AVUs), comments,
 * saved searches and table cells. Every notebook view, obtained through the display symbol, is
 * parsed with linkedom: no script, no `on*` handler, no `javascript:` URL — and the payloads
 * are shown as text, not dropped. No view, text or error shows the token or the password.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { connect, NotFoundError, type Store } from "../../mod.ts";
import type { MediaBundle } from "../../lib/display/bundle.ts";
import { renderSavedSearches } from "../../lib/display/saved_searches.ts";
import { startServer } from "../../server.ts";
import { assertNoSecret, errorSurfaces, report, withDeadline } from "./_fixtures.ts";
import { assertSafeHtml, NAME_PAYLOADS, PAYLOADS, viewOf } from "./_html.ts";

const TOKEN = "reliability-static.hostile-content.Tok3n_never-shown";
const PASSWORD = "hostile-content-Passw0rd!never-shown";
const SECRETS = [TOKEN, PASSWORD];
const DEADLINE_MS = 30_000;

const SHARED = "/iplant/home/shared";
/** A dataset folder whose own name is a payload. */
const DATASET = `${SHARED}/Doe_"><svg onload=alert('tern-xss-folder')>_2024`;
const TABLE = `${DATASET}/data.csv`;
const SUBFOLDER = `${DATASET}/"><b onmouseover=alert('tern-xss-dir')>x<b>`;

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

const DATASET_AVUS = [
  { attr: "title", value: PAYLOADS.script },
  {
    attr: "creator",
    value: PAYLOADS.img,
    avus: [
      { attr: "affiliation", value: PAYLOADS.attribute },
      {
        attr: "nameIdentifier",
        value: PAYLOADS.url,
        avus: [{ attr: "nameIdentifierScheme", value: "ORCID" }],
      },
    ],
  },
  { attr: "creator", value: "Doe, Jane" },
  { attr: "publisher", value: PAYLOADS.svg },
  { attr: "publicationYear", value: "2024" },
  { attr: "description", value: PAYLOADS.style },
  { attr: "subject", value: PAYLOADS.link },
  { attr: "identifier", value: PAYLOADS.url, avus: [{ attr: "identifierType", value: "DOI" }] },
  {
    attr: "alternateIdentifier",
    value: `ark:/${PAYLOADS.iframe}`,
    avus: [{ attr: "alternateIdentifierType", value: "ARK" }],
  },
  { attr: "rights", value: PAYLOADS.link, avus: [{ attr: "rightsURI", value: PAYLOADS.url }] },
  {
    attr: "relatedIdentifier",
    value: PAYLOADS.url,
    avus: [
      { attr: "relatedIdentifierType", value: "URL" },
      { attr: "relationType", value: "IsDocumentedBy" },
    ],
  },
  { attr: PAYLOADS.iframe, value: PAYLOADS.script, unit: PAYLOADS.svg },
];

const FILE_AVUS = {
  avus: [
    {
      attr: "description",
      value: PAYLOADS.img,
      avus: [{ attr: PAYLOADS.svg, value: PAYLOADS.url }],
    },
  ],
  "irods-avus": [{ attr: PAYLOADS.script, value: PAYLOADS.url, unit: PAYLOADS.attribute }],
};

const comments = (base: number) => [
  {
    id: uuid(base),
    comment: PAYLOADS.script,
    commenter: `"><img src=x onerror=alert('tern-xss-commenter')>`,
    post_time: 1_700_000_000_000,
    retracted: false,
  },
  {
    id: uuid(base + 1),
    comment: PAYLOADS.iframe,
    commenter: "demo",
    post_time: 1_700_000_100_000,
    retracted: true,
  },
];

const SAVED_SEARCHES = [
  {
    label: PAYLOADS.script,
    fileQuery: PAYLOADS.img,
    pathPrefix: PAYLOADS.url,
    metadataAttributeQuery: PAYLOADS.link,
    files: [],
    folders: [],
  },
  { label: "plain", fileQuery: "*.csv", [PAYLOADS.svg]: PAYLOADS.style, files: [], folders: [] },
];

/** A cell of the table file: what a preview or a DataFrame view would show. */
const TABLE_CSV = `name,note\n"${PAYLOADS.script.replaceAll('"', '""')}",${PAYLOADS.url}\n`;

async function write(path: string, content: string): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, content);
}

async function hostileStore(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "tern-reliability-content-" });
  const disk = (path: string) => join(root, ...path.split("/").filter(Boolean));
  await write(
    join(root, ".terrain/users.json"),
    JSON.stringify({
      users: [{ username: "demo", password: PASSWORD, tokens: [TOKEN] }],
    }),
  );
  await write(join(root, ".terrain/saved-searches/demo.json"), JSON.stringify(SAVED_SEARCHES));
  await write(join(disk(DATASET), ".avus.json"), JSON.stringify(DATASET_AVUS));
  await write(join(disk(DATASET), ".comments.json"), JSON.stringify(comments(1)));
  await write(disk(TABLE), TABLE_CSV);
  await write(join(disk(DATASET), ".data.csv.avus.json"), JSON.stringify(FILE_AVUS));
  await write(join(disk(DATASET), ".data.csv.comments.json"), JSON.stringify(comments(10)));
  for (const name of NAME_PAYLOADS) await write(join(disk(DATASET), name), "a,b\n1,2\n");
  await Deno.mkdir(disk(SUBFOLDER), { recursive: true });
  await Deno.mkdir(join(root, "iplant/home/demo"), { recursive: true });
  return root;
}

Deno.test("hostile content: script payloads in names, metadata, comments and saved searches render as inert text in every view, without credentials", async () => {
  const root = await hostileStore();
  try {
    await using server = await startServer({ root, port: 0, quiet: true });
    await withDeadline(DEADLINE_MS, "the hostile content test", async (signal) => {
      const store: Store = connect({ url: server.url, token: TOKEN, cacheDir: false, signal });
      const dataset = store.dataset(DATASET);
      const table = store.file(TABLE);
      const metadata = await dataset.metadata({ signal });
      const notFound = await store.file(`${DATASET}/${NAME_PAYLOADS[0]}.missing`).bytes({ signal })
        .then(() => undefined, (error: unknown) => error);
      assert.ok(notFound instanceof NotFoundError, `missing file gave ${notFound}`);
      const savedSearches = await store.savedSearches({ signal });
      assert.deepEqual(savedSearches, SAVED_SEARCHES, "saved searches come back verbatim");

      // Views that exist today must render; `needs` is a marker their text must show.
      const required: [string, unknown, string][] = [
        ["folder", store.folder(DATASET), "tern-xss-name1"],
        ["dataset card", dataset, "tern-xss-script"],
        ["normalised metadata", metadata, "tern-xss-script"],
        ["raw metadata", await table.metadata({ signal }), "tern-xss-url"],
        ["file comments", await table.comments({ signal }), "tern-xss-commenter"],
        ["folder comments", await dataset.comments({ signal }), "tern-xss-script"],
        ["datasets listing", store.folder(SHARED).datasets(), "tern-xss-script"],
        ["error", notFound, "tern-xss-name1"],
      ];
      // Views other work may add (files, listings, the store, roots, manifests, citations,
      // saved searches): checked the same way whenever they exist.
      const optional: [string, unknown, string?][] = [
        ["file", table],
        ["listing", store.folder(DATASET).list(), "tern-xss-name1"],
        ["store", store],
        ["roots", await store.root({ signal })],
        ["manifest", await table.manifest({ signal })],
        ["citation", await metadata.citation("apa")],
        ["saved searches", savedSearches, "tern-xss-script"],
        ["sub-folder", store.folder(SUBFOLDER)],
      ];

      let rendered = 0;
      let elements = 0;
      let links = 0;
      const check = (name: string, view: MediaBundle, needs?: string) => {
        assert.equal(typeof view["text/plain"], "string", `${name}: text/plain`);
        const html = assertSafeHtml(view["text/html"], name);
        if (needs !== undefined) {
          assert.ok(html.text.includes(needs), `${name}: "${needs}" is not shown as text`);
        }
        assertNoSecret([view["text/plain"], view["text/html"]], SECRETS, name);
        rendered++;
        elements += html.elements;
        links += html.links;
      };
      for (const [name, value, needs] of required) {
        const view = await viewOf(value);
        assert.ok(view !== undefined, `${name} has no notebook view`);
        check(name, view, needs);
      }
      const absent: string[] = [];
      for (const [name, value, needs] of optional) {
        const view = await viewOf(value);
        if (view === undefined) absent.push(name);
        else check(name, view, needs);
      }
      // Saved searches are opaque JSON; without a view of their own, the renderer notebooks
      // use for them must be safe too.
      if (absent.includes("saved searches")) {
        check("saved searches (renderer)", renderSavedSearches(savedSearches), "tern-xss-script");
      }

      // The table round-trips its hostile cells as data.
      const frame = await table.dataframe({ signal, cache: false });
      assert.equal(frame.getColumn("name").get(0), PAYLOADS.script);

      const texts = [
        String(store),
        Deno.inspect(store, { depth: 6 }),
        JSON.stringify(store),
        JSON.stringify(store.options),
        ...errorSurfaces(notFound),
      ];
      assertNoSecret(texts, SECRETS, "the store's and errors' text forms");
      report("hostile content", {
        payloads: Object.keys(PAYLOADS).length + NAME_PAYLOADS.length,
        viewsRendered: rendered,
        viewsNotYetAvailable: absent.length === 0 ? "none" : absent.join(" "),
        elementsChecked: elements,
        linksChecked: links,
        unsafeMarkup: 0,
        credentialLeaks: 0,
        requests: server.stats().requests,
      });
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
