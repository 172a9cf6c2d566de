/**
 * Every relative link of README.md, bench/README.md and docs/*.md leads to a file that exists and,
 * when it names a heading (`#anchor`), to a heading of that file, slugged as GitHub slugs them.
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url)).replace(/\/$/, "");

/** The Markdown files whose links are checked, from the repository root. */
function documents(): string[] {
  const docs = [...Deno.readDirSync(join(ROOT, "docs"))]
    .filter((entry) => entry.isFile && entry.name.endsWith(".md"))
    .map((entry) => `docs/${entry.name}`);
  return ["README.md", "bench/README.md", ...docs.sort()];
}

/** Text outside fenced code blocks, fences blanked so line numbers stay. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line;
  });
}

/** GitHub's anchor for a heading: lowercased, punctuation dropped, spaces as `-`, repeats `-1`…. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const line of prose(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const plain = heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(
      /[`*_]/g,
      (c) => c === "_" ? "_" : "",
    );
    const slug = plain.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return found;
}

/** Each relative link of a document: its line and its target. */
function links(text: string): { line: number; target: string }[] {
  const found = [];
  for (const [i, line] of prose(text).entries()) {
    const code = line.replace(/`[^`]*`/g, "");
    for (const match of code.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
      found.push({ line: i + 1, target });
    }
  }
  return found;
}

Deno.test("every relative link of README.md and docs/*.md resolves to a file and a heading", () => {
  const broken: string[] = [];
  let checked = 0;
  for (const doc of documents()) {
    const text = Deno.readTextFileSync(join(ROOT, doc));
    for (const { line, target } of links(text)) {
      checked++;
      const [path, anchor] = target.split("#", 2);
      const file = path === "" ? join(ROOT, doc) : join(ROOT, dirname(doc), decodeURI(path));
      const where = `${doc}:${line}: ${target}`;
      if (relative(ROOT, file).startsWith("..")) {
        broken.push(`${where} (outside the repository)`);
        continue;
      }
      let isFile = false;
      try {
        isFile = Deno.statSync(file).isFile;
      } catch {
        broken.push(`${where} (no such file)`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!isFile || !file.endsWith(".md")) {
        broken.push(`${where} (an anchor into something that is not Markdown)`);
      } else if (!anchors(Deno.readTextFileSync(file)).has(anchor)) {
        broken.push(`${where} (no such heading)`);
      }
    }
  }
  assert.ok(checked > 50, `the checker found the links (${checked})`);
  assert.deepEqual(broken, [], "links that lead nowhere");
});

Deno.test("the anchors are GitHub's", () => {
  const text =
    "# A `code` title\n## Finding data: store.search()\n## Twice\n## Twice\n```\n# no\n```";
  assert.deepEqual([...anchors(text)], [
    "a-code-title",
    "finding-data-storesearch",
    "twice",
    "twice-1",
  ]);
});
