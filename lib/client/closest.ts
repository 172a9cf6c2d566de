/**
 * {@linkcode closest}: the "did you mean" of a misspelt name, shared by the public calls' options,
 * the command line (commands, flags) and reads of a missing file whose folder was listed.
 *
 * @module
 */

/**
 * The candidate closest to `word`, for "did you mean" hints: a plausible misspelling (at most two
 * typos — a wrong, missing, extra or swapped letter — and fewer than half the word, ties going to
 * the candidate sharing the longest start), else a candidate of three letters or more that holds
 * the word or is held in it (`separator` for `sep`, `depth` for `maxDepth`). Case is ignored.
 *
 * @example
 * ```ts
 * import { closest } from "./closest.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(closest("cachedir", ["cacheDir", "cacheMaxBytes"]), "cacheDir");
 * assert.equal(closest("seperator", ["sep", "format"]), "sep");
 * assert.equal(closest("zzz", ["ls"]), undefined);
 * ```
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const typed = word.toLowerCase();
  let best: string | undefined;
  let bestScore = [Infinity, 0];
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    const score = [typos(typed, lower), -sharedStart(typed, lower)];
    if (score[0] < bestScore[0] || (score[0] === bestScore[0] && score[1] < bestScore[1])) {
      best = candidate;
      bestScore = score;
    }
  }
  if (bestScore[0] <= 2 && bestScore[0] < Math.max(2, word.length / 2)) return best;
  // A longer or shorter name for the same thing: `separator` for `sep`, `depth` for `maxDepth`.
  const spellings = candidates.filter((candidate) => {
    const lower = candidate.toLowerCase();
    return Math.min(lower.length, typed.length) >= 3 &&
      (typed.includes(lower) || lower.includes(typed));
  });
  const gap = (candidate: string) => Math.abs(candidate.length - word.length);
  return spellings.sort((a, b) => gap(a) - gap(b))[0];
}

/** Edit distance counting a swap of two neighbouring letters as one typo. */
function typos(a: string, b: string): number {
  const rows = Array.from(
    { length: a.length + 1 },
    (_, i) => Array.from({ length: b.length + 1 }, (_, j) => i === 0 ? j : j === 0 ? i : 0),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
      }
    }
  }
  return rows[a.length][b.length];
}

function sharedStart(a: string, b: string): number {
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index++;
  return index;
}
