/**
 * The comments view: who said what, when, oldest first; retracted comments are kept out of the
 * way (collapsed and struck through) but never hidden without saying so.
 *
 * @module
 */

import { bundle, type MediaBundle } from "./bundle.ts";
import { formatCount, formatDateTime, oneLine, plainText, plural } from "./format.ts";
import { type Html, markup } from "./html.ts";
import { bounded, card, collapsible, LIMITS, moreNote } from "./parts.ts";

/**
 * One comment, as `handle.comments()` gives it.
 *
 * @example
 * ```ts
 * import type { CommentRow } from "./comments.ts";
 *
 * const row: CommentRow = { author: "demo", posted: new Date(0), retracted: false, text: "Values are in metres." };
 * ```
 */
export interface CommentRow {
  /** Short username of the author. */
  author: string;
  /** When it was posted. */
  posted: Date;
  /** Whether the author withdrew it. */
  retracted: boolean;
  /** The comment. */
  text: string;
}

/**
 * What the comments view shows.
 *
 * @example
 * ```ts
 * import type { CommentsView } from "./comments.ts";
 *
 * const view: CommentsView = { path: "/iplant/home/shared/a.csv", comments: [] };
 * ```
 */
export interface CommentsView {
  /** The item commented on, when known. */
  path?: string;
  /** The comments, oldest first. */
  comments: readonly CommentRow[];
}

/** Most comments shown in each group. */
const MAX_COMMENTS = 100;

/**
 * Renders comments as a MIME bundle.
 *
 * @example
 * ```ts
 * import { renderComments } from "./comments.ts";
 * import assert from "node:assert/strict";
 *
 * const out = renderComments({
 *   path: "/iplant/home/shared/a.csv",
 *   comments: [{ author: "demo", posted: new Date(Date.UTC(2023, 6, 21)), retracted: false, text: "Metres." }],
 * });
 * assert.equal(
 *   out["text/plain"].split("\n")[0],
 *   "Comments on /iplant/home/shared/a.csv — 1 comment",
 * );
 * ```
 */
export function renderComments(view: CommentsView): MediaBundle {
  return bundle(commentsHtml(view), commentsText(view));
}

function commentHtml(comment: CommentRow): Html {
  const text = markup`<div class="t-desc${comment.retracted ? " t-strike" : ""}">${
    bounded(comment.text, LIMITS.long)
  }</div>`;
  const author = bounded(comment.author, 80);
  return markup`<div class="t-section"><div><b><bdi>${author}</bdi></b> <span class="t-muted">${
    formatDateTime(comment.posted)
  } UTC${comment.retracted ? " · retracted" : ""}</span></div>${text}</div>`;
}

function listHtml(comments: readonly CommentRow[]): Html {
  return markup`${comments.slice(0, MAX_COMMENTS).map(commentHtml)}${
    comments.length > MAX_COMMENTS
      ? moreNote(plural(comments.length - MAX_COMMENTS, "more comment"), "see the array itself")
      : ""
  }`;
}

function commentsHtml(view: CommentsView): Html {
  const current = view.comments.filter((comment) => !comment.retracted);
  const retracted = view.comments.filter((comment) => comment.retracted);
  const title = view.comments.length === 0 ? "No comments" : plural(current.length, "comment");
  const body = markup`${
    current.length === 0 && view.comments.length > 0
      ? markup`<div class="t-note">Every comment here was retracted by its author.</div>`
      : listHtml(current)
  }${
    retracted.length === 0
      ? ""
      : collapsible(`${plural(retracted.length, "retracted comment")}`, listHtml(retracted))
  }`;
  return card({ kind: "Comments", title, sub: view.path }, body);
}

function commentsText(view: CommentsView): string {
  const lines = [
    `Comments${view.path === undefined ? "" : ` on ${oneLine(view.path)}`} — ${
      plural(view.comments.length, "comment")
    }`,
  ];
  for (const comment of view.comments.slice(0, MAX_COMMENTS)) {
    lines.push(
      `  ${oneLine(comment.author)}, ${formatDateTime(comment.posted)} UTC${
        comment.retracted ? " (retracted)" : ""
      }:`,
    );
    lines.push(...plainText(comment.text).split("\n").slice(0, 40).map((line) => `    ${line}`));
  }
  if (view.comments.length > MAX_COMMENTS) {
    lines.push(`  … ${formatCount(view.comments.length - MAX_COMMENTS)} more`);
  }
  return lines.join("\n");
}
