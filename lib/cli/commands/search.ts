/**
 * `tern search`: the store's data search (Terrain's `filesystem/search`) from the command line,
 * printed page by page as hits arrive — one path per line for pipes, a table on a terminal.
 *
 * @module
 */

import {
  SEARCH_SORT_FIELDS,
  SearchBuilder,
  type SearchEntry,
  type SearchListing,
  type SearchPage,
  type SearchQuery,
  type SearchSort,
  type Store,
} from "../../../mod.ts";
import { quoteInput } from "../../client/errors.ts";
import { asUsage, exclusive, intOption, listOption, stringOption, UsageError } from "../args.ts";
import { checkRef, type Command, type CommandContext } from "../command.ts";
import { entryJson, isoDate, jsonLine, longLine, plural, safeText } from "../format.ts";
import { type Output, printPages } from "../io.ts";
import { csvCell } from "../../sample/conversions.ts";

/** The sort fields by the names `tern ls` uses, besides the search service's own names. */
const SORT_NAMES: Readonly<Record<string, SearchSort["field"]>> = {
  name: "label",
  size: "fileSize",
  modified: "dateModified",
  created: "dateCreated",
  ...Object.fromEntries(SEARCH_SORT_FIELDS.map((field) => [field, field])),
};

/** The columns of `--csv`, in order. */
const CSV_COLUMNS = ["path", "name", "type", "size", "modified", "created", "creator"] as const;

/**
 * `tern search QUERY-OPTIONS... [--sort FIELD[:asc|desc]] [--limit N] [--json | --csv]`.
 *
 * @example
 * ```sh
 * tern search --meta subject=penguins --under /iplant/home/shared/commons_repo/curated
 * tern search --name '*.parquet' --sort size:desc --limit 5 --csv
 * tern search --saved 'Penguin tables'
 * ```
 */
export const search: Command = {
  name: "search",
  summary: "find files and folders by name, path, owner or metadata",
  usage: "(--query JSON | --meta ATTR[=VALUE] | --under PATH | --name TEXT | --owner USER)... " +
    "| --saved NAME [--sort FIELD[:asc|desc]] [--limit N] [--json | --csv]",
  description: [
    "Searches the store. Each of --query, --meta, --under, --name and --owner may be given",
    "several times, and a hit must match all of them. --name and --meta match each word",
    "anywhere, with * and ? as wildcards. --saved runs one of your saved searches instead.",
    "Prints one path per line (a table on a terminal), page by page as hits arrive.",
    "Sort fields: name, path, size, created, modified, creator, id.",
  ].join("\n"),
  options: {
    query: {
      type: "string",
      value: "JSON",
      multiple: true,
      help: 'the query DSL, e.g. \'{"all":[{"type":"owner","args":{"owner":"demo"}}]}\'',
    },
    meta: {
      type: "string",
      value: "ATTR[=VALUE]",
      multiple: true,
      help: "carries this metadata attribute (with this value)",
    },
    under: { type: "string", value: "PATH", multiple: true, help: "is under the folder PATH" },
    name: { type: "string", value: "TEXT", multiple: true, help: "has a name matching TEXT" },
    owner: { type: "string", value: "USER", multiple: true, help: "is owned by USER" },
    saved: { type: "string", value: "NAME", help: "run your saved search NAME" },
    sort: {
      type: "string",
      value: "FIELD[:asc|desc]",
      multiple: true,
      help: "sort by FIELD (repeat for ties); default: the service's order",
    },
    limit: { type: "string", value: "N", help: "stop after N hits" },
    json: { type: "boolean", help: "one JSON object per hit and line (with creator, metadata)" },
    csv: { type: "boolean", help: `CSV with a header line: ${CSV_COLUMNS.join(", ")}` },
  },
  examples: [
    "tern search --meta subject=penguins --under /iplant/home/shared/commons_repo/curated",
    "tern search --name '*.parquet' --sort size:desc --limit 5 --csv",
    "tern search --saved 'Penguin tables'",
  ],
  run,
};

type Plan = ReturnType<typeof planOf>;

/**
 * The option a bare argument was likely meant as: `subject=maize` (or pandas' `subject ==
 * 'maize'`) a metadata pair, a path a folder, anything else a name.
 */
function meantOption(argument: string): string {
  const pair = /^\s*([^\s=<>!]+)\s*==?\s*(["']?)(.*)\2\s*$/.exec(argument);
  if (pair !== null) return `--meta ${pair[1]}=${pair[3]}`;
  return argument.startsWith("/") ? `--under ${argument}` : `--name ${argument}`;
}

async function run(context: CommandContext): Promise<number> {
  const { values, positionals } = context.args;
  if (positionals.length > 0) {
    throw new UsageError(
      `unexpected argument ${quoteInput(positionals[0])}: search takes options only; did you ` +
        `mean ${meantOption(positionals[0])}?`,
    );
  }
  const out = context.io.stdout;
  const plan = planOf(values, out.isTerminal);
  const store = await context.store();
  const hits = listing(store, plan);
  await print(hits.pages(), plan, out);
  return 0;
}

function planOf(values: CommandContext["args"]["values"], terminal: boolean) {
  exclusive(values, ["json", "csv"]);
  const limit = intOption(values, "limit", 1);
  const saved = stringOption(values, "saved");
  // A --query is one group among the clauses, so each flag narrows the search further.
  let query = new SearchBuilder(listOption(values, "query").map(queryOf));
  for (const pair of listOption(values, "meta")) {
    const at = pair.indexOf("=");
    const attribute = at < 0 ? pair : pair.slice(0, at);
    if (attribute.trim() === "") {
      throw new UsageError(`--meta needs ATTR or ATTR=VALUE, got ${quoteInput(pair)}`);
    }
    query = at < 0 ? query.metadata(attribute) : query.metadata(attribute, pair.slice(at + 1));
  }
  for (const path of listOption(values, "under")) query = query.under(checkRef(path));
  for (const text of listOption(values, "name")) query = query.name(text);
  for (const user of listOption(values, "owner")) query = query.owner(user);
  const parts = query.toJSON().all?.length ?? 0;
  if (saved !== undefined && parts > 0) {
    throw new UsageError("--saved runs a saved search as it is: give no other query option");
  }
  if (saved === undefined && parts === 0) {
    throw new UsageError(
      "nothing to search for: give --query, --meta, --under, --name, --owner or --saved",
    );
  }
  const format: "paths" | "table" | "json" | "csv" =
    (["json", "csv"] as const).find((flag) => values[flag] === true) ??
      (terminal ? "table" : "paths");
  const sort = listOption(values, "sort").map(sortOf);
  return { query: parts === 0 ? undefined : query, saved, sort, limit, format };
}

function queryOf(text: string): SearchQuery {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--query is not JSON: ${(error as Error).message}`);
  }
}

function sortOf(text: string): SearchSort {
  const [name, order = "asc", ...rest] = text.split(":");
  const field = Object.hasOwn(SORT_NAMES, name) ? SORT_NAMES[name] : undefined;
  if (field === undefined || rest.length > 0 || (order !== "asc" && order !== "desc")) {
    throw new UsageError(
      `--sort must be FIELD[:asc|desc] with FIELD one of name, path, size, created, modified, ` +
        `creator, id; got ${quoteInput(text)}`,
    );
  }
  return { field, order: order === "asc" ? "ascending" : "descending" };
}

function listing(store: Store, plan: Plan): SearchListing {
  // A small limit needs only a small first page.
  const options = {
    sort: plan.sort,
    ...(plan.limit === undefined ? {} : { pageSize: Math.min(plan.limit, 1000) }),
  };
  if (plan.saved !== undefined) return store.runSavedSearch(plan.saved, options);
  // A bad query is the command line's fault: store.search() checks it before any request.
  return asUsage(() => store.search(plan.query!, options));
}

async function print(pages: AsyncIterable<SearchPage>, plan: Plan, out: Output): Promise<void> {
  if (plan.format === "csv") out.line(CSV_COLUMNS.join(","));
  const line = (hit: SearchEntry) => lineOf(hit, plan.format, out);
  const { printed, last } = await printPages(pages, out, line, plan.limit);
  if (plan.format === "table") {
    const of = last === undefined ? 0 : last.total;
    out.line(
      out.style.dim(`${plural(printed, "hit")} of ${of}${last?.exact === false ? "+" : ""}`),
    );
    await out.flush();
  }
}

function lineOf(hit: SearchEntry, format: Plan["format"], out: Output): string {
  switch (format) {
    case "json":
      return jsonLine(entryJson(hit, { creator: hit.creator, metadata: hit.metadata }));
    case "csv": {
      const row = { ...hit, modified: isoDate(hit.modified), created: isoDate(hit.created) };
      return CSV_COLUMNS.map((column) => csvCell(row[column])).join(",");
    }
    case "table":
      return longLine(hit, out.style, { bytes: false, fullPath: true });
    case "paths":
      // One a line for `xargs` and `while read`, exact unless a control character would break
      // the line or reach a terminal (`| head`, `| less`): escaped then, as `ls` does; `--json`
      // keeps every path exact.
      return safeText(hit.path);
  }
}
