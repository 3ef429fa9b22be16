/** "Did you mean …?": the names closest to a misspelt one, by edit distance. */

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/** Up to `max` names within a third of the word's length in edits (at least 2), closest first. */
export function nearest(word: string, names: string[], max = 3): string[] {
  const limit = Math.max(2, Math.floor(word.length / 3));
  return names
    .map((n) => ({ n, d: n.startsWith(word) || word.startsWith(n) ? 1 : editDistance(word, n) }))
    .filter((x) => x.d <= limit)
    .sort((a, b) => a.d - b.d)
    .slice(0, max)
    .map((x) => x.n);
}
