/**
 * {@linkcode closest}: the "did you mean" of a misspelt name — a command, an option, a file in
 * the folder that was listed.
 *
 * @module
 */

/**
 * The candidate closest to `word` when it is a plausible misspelling (at most two typos —
 * a wrong, missing, extra or swapped letter — and fewer than half the word), for "did you
 * mean" hints. Ties go to the candidate sharing the longest start with `word`.
 *
 * @example
 * ```ts
 * import { closest } from "./closest.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(closest("lss", ["ls", "tree", "stat"]), "ls");
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
  return bestScore[0] <= 2 && bestScore[0] < Math.max(2, word.length / 2) ? best : undefined;
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
