/**
 * The DataFrame view: shape, column types, the first and last rows with "N more rows" between
 * them, numbers right-aligned and rounded (the exact value in a tooltip), text left-aligned and
 * cut with an ellipsis (the whole text in a tooltip), nulls set apart, and a table that scrolls
 * sideways inside its card instead of widening the page. The plain-text side fits a given width.
 *
 * The view takes plain, already formatted cells ({@linkcode FrameView}); turning a Polars frame
 * into one is `lib/frames/view.ts`'s job.
 *
 * @module
 */

import { bundle, type MediaBundle } from "./bundle.ts";
import { clip, clipCell, formatCount, oneLine, plural } from "./format.ts";
import { type Html, link, markup } from "./html.ts";
import { bounded, card, facts, moreNote } from "./parts.ts";
import { type TextColumn, textTable } from "./text.ts";

/**
 * How a column's values are shown: numbers and integers align right, everything else left.
 *
 * @example
 * ```ts
 * import type { ColumnKind } from "./frame.ts";
 *
 * const kind: ColumnKind = "integer";
 * ```
 */
export type ColumnKind = "integer" | "number" | "text" | "date" | "datetime" | "boolean" | "other";

/**
 * One column of a {@linkcode FrameView}.
 *
 * @example
 * ```ts
 * import type { FrameColumn } from "./frame.ts";
 *
 * const column: FrameColumn = { name: "Body Mass (g)", type: "f64", kind: "number" };
 * ```
 */
export interface FrameColumn {
  /** Column name. */
  name: string;
  /** Short type label (`f64`, `str`, `datetime[ms]`); empty for a table of no declared types. */
  type: string;
  /** How values align. */
  kind: ColumnKind;
}

/**
 * One formatted cell: what is shown, and the exact value when the shown text is rounded.
 *
 * @example
 * ```ts
 * import type { FrameCell } from "./frame.ts";
 *
 * const cell: FrameCell = { text: "3733.09", exact: "3733.0882352941176" };
 * const missing: FrameCell = { text: "null", null: true };
 * ```
 */
export interface FrameCell {
  /** The cell as shown (rounded numbers, dates as dates); long text is cut by the view. */
  text: string;
  /** The exact value, when `text` rounds it; shown on hover. */
  exact?: string;
  /** The value is null (shown muted and italic, never confused with the text "null"). */
  null?: boolean;
  /** A link the cell opens (an http(s) URL; anything else is shown as plain text). */
  href?: string;
}

/**
 * Everything the DataFrame view shows.
 *
 * @example
 * ```ts
 * import type { FrameView } from "./frame.ts";
 *
 * const view: FrameView = {
 *   height: 1, width: 1,
 *   columns: [{ name: "year", type: "i64", kind: "integer" }],
 *   head: [[{ text: "2020" }]], tail: [],
 * };
 * ```
 */
export interface FrameView {
  /** A title above the table (the file it came from, say); the shape when absent. */
  title?: string;
  /** Short notes under the title (which columns were parsed as dates, say). */
  notes?: readonly string[];
  /** Rows in the whole frame. */
  height: number;
  /** Columns in the whole frame. */
  width: number;
  /** The columns shown (the first ones; the rest are counted). */
  columns: readonly FrameColumn[];
  /** The first rows, one cell per shown column. */
  head: readonly (readonly FrameCell[])[];
  /** The last rows, when the frame has more rows than `head` and `tail` together. */
  tail: readonly (readonly FrameCell[])[];
}

/** Longest text shown in an HTML cell, in characters (the rest is in the tooltip). */
const MAX_CELL = 48;

/**
 * Longest tooltip, in characters: the whole value of any ordinary cell, while a frame of
 * megabyte-long strings still makes a notebook output of bounded size.
 */
const MAX_TITLE = 2000;

/** Longest text in a plain-text cell before the table is fitted to its width. */
const MAX_TEXT_CELL = 32;

/** Narrowest a text column is squeezed to when fitting a width. */
const MIN_TEXT_CELL = 6;

/**
 * Renders a DataFrame view as a MIME bundle; `width` is the plain-text side's width in characters.
 *
 * @example
 * ```ts
 * import { renderFrame } from "./frame.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderFrame({
 *   height: 2, width: 2,
 *   columns: [{ name: "species", type: "str", kind: "text" }, { name: "mass", type: "f64", kind: "number" }],
 *   head: [[{ text: "Adelie" }, { text: "3733.09", exact: "3733.0882352941176" }], [{ text: "Gentoo" }, { text: "null", null: true }]],
 *   tail: [],
 * });
 * assert.ok(out["text/html"].includes('title="3733.0882352941176"'));
 * assert.equal(out["text/plain"].split("\n")[0], "DataFrame 2 rows × 2 columns");
 * ```
 */
export function renderFrame(view: FrameView, width = 100): MediaBundle {
  return bundle(frameHtml(view), frameText(view, width));
}

function shape(view: FrameView): string {
  return `${plural(view.height, "row")} × ${plural(view.width, "column")}`;
}

function hiddenRows(view: FrameView): number {
  return view.height - view.head.length - view.tail.length;
}

function numeric(kind: ColumnKind): boolean {
  return kind === "integer" || kind === "number";
}

function cellHtml(cell: FrameCell | undefined, kind: ColumnKind): Html {
  if (cell === undefined || cell.null === true) {
    // Aligned with the column's values, so a null reads as a gap in that column.
    return numeric(kind)
      ? markup`<td class="t-null t-num">null</td>`
      : markup`<td class="t-null">null</td>`;
  }
  const { text, cut } = clipCell(oneLine(cell.text), MAX_CELL);
  const full = cell.exact ?? (cut > 0 ? cell.text : undefined);
  const title = full === undefined ? undefined : clip(full, MAX_TITLE).text;
  const align = numeric(kind) ? "t-num" : kind === "text" || kind === "other" ? "" : "t-nowrap";
  const classAttr = align === "" ? "" : markup` class="${align}"`;
  const titleAttr = title === undefined ? "" : markup` title="${title}"`;
  const shown = markup`<bdi>${text}</bdi>`;
  return markup`<td${classAttr}${titleAttr}>${
    cell.href === undefined ? shown : link(cell.href, shown)
  }</td>`;
}

/**
 * The table of a DataFrame view without its card: header with types, head rows, "N more rows",
 * tail rows, inside a box that scrolls sideways; also used by the file view's preview.
 *
 * @example
 * ```ts
 * import { frameTable } from "./frame.ts";
 * import assert from "node:assert/strict";
 *
 * const table = frameTable({ height: 1, width: 1, columns: [{ name: "n", type: "i64", kind: "integer" }], head: [[{ text: "7" }]], tail: [] });
 * assert.ok(table.toString().includes('<td class="t-num"><bdi>7</bdi></td>'));
 * ```
 */
export function frameTable(view: FrameView): Html {
  const columns = view.columns;
  const head = columns.map((column) =>
    markup`<th class="t-data${numeric(column.kind) ? " t-num" : ""}" title="${column.name}">${
      bounded(column.name, 60)
    }${
      column.type === "" ? "" : markup`<div class="t-coltype">${bounded(column.type, 30)}</div>`
    }</th>`
  );
  const row = (cells: readonly FrameCell[]) =>
    markup`<tr>${columns.map((column, index) => cellHtml(cells[index], column.kind))}</tr>`;
  const hidden = hiddenRows(view);
  const gap = hidden > 0 && view.tail.length > 0
    ? markup`<tr class="t-gap"><td colspan="${columns.length}">… ${
      plural(hidden, "more row")
    }</td></tr>`
    : "";
  const after = hidden > 0 && view.tail.length === 0 ? moreNote(plural(hidden, "more row")) : "";
  const moreColumns = view.width - columns.length;
  const table = columns.length === 0
    ? markup`<div class="t-note">No columns.</div>`
    : markup`<div class="t-scroll"><table class="t-table t-frame"><thead><tr>${head}</tr></thead><tbody>${
      view.head.map(row)
    }${gap}${view.tail.map(row)}</tbody></table></div>`;
  return markup`${table}${after}${
    moreColumns > 0 ? facts([`${plural(moreColumns, "more column")} not shown`]) : ""
  }`;
}

function frameHtml(view: FrameView): Html {
  const aside = view.title === undefined
    ? undefined
    : markup`<span class="t-muted">${shape(view)}</span>`;
  return card(
    { kind: "DataFrame", title: view.title ?? shape(view), aside },
    markup`${facts(view.notes?.map((note) => bounded(note, 300)) ?? [])}${frameTable(view)}`,
  );
}

/**
 * The plain-text side: a header line, then the table fitted to `width` characters (text columns
 * narrowed first, then columns beyond the width counted instead of shown), with the type of each
 * column under its name and the hidden rows counted between the head and the tail.
 *
 * @example
 * ```ts
 * import { frameText } from "./frame.ts";
 * import assert from "node:assert/strict";
 *
 * const text = frameText({
 *   height: 1, width: 2,
 *   columns: [{ name: "year", type: "f64", kind: "number" }, { name: "title", type: "str", kind: "text" }],
 *   head: [[{ text: "2020" }, { text: "Palmer Archipelago (Antarctica) penguin size measurements" }]],
 *   tail: [],
 * }, 30);
 * assert.ok(text.split("\n").every((line) => line.length <= 30));
 * assert.match(text, /2020  Palmer/);
 * ```
 */
export function frameText(view: FrameView, width = 100): string {
  return [
    `DataFrame ${shape(view)}${view.title === undefined ? "" : ` — ${oneLine(view.title)}`}`,
    ...(view.notes ?? []).map((note) => `  ${clip(oneLine(note), Math.max(20, width - 2)).text}`),
    ...frameTextTable(view, width),
  ].join("\n");
}

/**
 * The plain-text table of {@linkcode frameText} without its header line, as lines indented by
 * two spaces and at most `width` characters long.
 *
 * @example
 * ```ts
 * import { frameTextTable } from "./frame.ts";
 * import assert from "node:assert/strict";
 *
 * const lines = frameTextTable({ height: 1, width: 1, columns: [{ name: "n", type: "i64", kind: "integer" }], head: [[{ text: "7" }]], tail: [] }, 40);
 * assert.deepEqual(lines, ["    n", "  i64", "    7"]);
 * ```
 */
export function frameTextTable(view: FrameView, width = 100): string[] {
  const lines: string[] = [];
  const rows = [...view.head, ...view.tail].map((cells) =>
    view.columns.map((_, index) => cells[index]?.text ?? "null")
  );
  const natural = view.columns.map((column, index) => {
    const cells = [column.name, column.type, ...rows.map((row) => row[index])];
    const widest = Math.max(...cells.map((cell) => Array.from(oneLine(cell)).length));
    return numeric(column.kind) ? widest : Math.min(widest, MAX_TEXT_CELL);
  });
  const fitted = fit(view.columns, natural, width - 2);
  const shown = view.columns.slice(0, fitted.length);
  if (shown.length > 0) {
    const columns: TextColumn[] = shown.map((column, index) => ({
      heading: clip(oneLine(column.name), fitted[index]).text,
      right: numeric(column.kind),
      max: fitted[index],
    }));
    const table = textTable(columns, [
      shown.map((column) => column.type),
      ...rows.map((row) => row.slice(0, shown.length)),
    ]).split("\n");
    const hidden = hiddenRows(view);
    const headEnd = 2 + view.head.length;
    const gap = hidden > 0 ? [`  … ${plural(hidden, "more row")}`] : [];
    lines.push(...table.slice(0, headEnd), ...gap, ...table.slice(headEnd));
  }
  const moreColumns = view.width - shown.length;
  if (moreColumns > 0) lines.push(`  … ${formatCount(moreColumns)} more columns not shown`);
  return lines;
}

/**
 * Column widths that fit `room` characters (two spaces between columns): the widest text column
 * is narrowed first, down to a minimum; then columns that still do not fit are left out.
 */
function fit(columns: readonly FrameColumn[], natural: readonly number[], room: number): number[] {
  const widths = [...natural];
  const total = () => widths.reduce((sum, value) => sum + value, 0) + 2 * (widths.length - 1);
  while (total() > room) {
    let widest = -1;
    for (let index = 0; index < widths.length; index++) {
      if (numeric(columns[index].kind) || widths[index] <= MIN_TEXT_CELL) continue;
      if (widest < 0 || widths[index] > widths[widest]) widest = index;
    }
    if (widest < 0) break;
    widths[widest]--;
  }
  while (widths.length > 1 && total() > room) widths.pop();
  return widths;
}
