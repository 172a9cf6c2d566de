import assert from "node:assert/strict";
import { renderComments } from "../../lib/display/comments.ts";
import { checkView, HOSTILE, LONG } from "./_safety.ts";

const posted = new Date(Date.UTC(2023, 6, 21, 16));

Deno.test("comments read oldest first; retracted ones are collapsed and marked", () => {
  const bundle = renderComments({
    path: "/iplant/home/shared/a.csv",
    comments: [
      { author: "demo", posted, retracted: false, text: "Values are in metres." },
      { author: "alice", posted, retracted: true, text: "Wrong link, ignore." },
    ],
  });
  const { root, text } = checkView(bundle);
  assert.equal(root.querySelector(".t-title")!.textContent, "1 comment");
  assert.equal(root.querySelector("details summary")!.textContent, "1 retracted comment");
  assert.equal(root.querySelector("details .t-strike")!.textContent, "Wrong link, ignore.");
  assert.match(text, /demo 2023-07-21 16:00 UTC/);
  assert.equal(
    bundle["text/plain"],
    "Comments on /iplant/home/shared/a.csv — 2 comments\n  demo, 2023-07-21 16:00 UTC:\n    Values are in metres.\n  alice, 2023-07-21 16:00 UTC (retracted):\n    Wrong link, ignore.",
  );
});

Deno.test("no comments, and only retracted ones, each say so", () => {
  assert.match(checkView(renderComments({ comments: [] })).text, /No comments/);
  const { text } = checkView(renderComments({
    comments: [{ author: "a", posted, retracted: true, text: "x" }],
  }));
  assert.match(text, /Every comment here was retracted by its author\./);
});

Deno.test("hostile comments and authors are text, and a huge comment is cut", () => {
  const bundle = renderComments({
    path: HOSTILE[0],
    comments: [
      ...HOSTILE.map((text) => ({ author: text, posted, retracted: false, text })),
      { author: "x", posted, retracted: false, text: LONG },
    ],
  });
  const { text } = checkView(bundle);
  for (const value of HOSTILE) assert.ok(text.includes(value), value);
  assert.ok(bundle["text/html"].length < 40_000);
  assert.ok(!bundle["text/plain"].includes("\u001b"));
});
