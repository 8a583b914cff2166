// The nearest names to a misspelt one: for unknown options, commands and environment variables.

/** Optimal string alignment distance (Levenshtein plus the swap of two neighbours). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The names closest to `word`: within 2 edits (1 for a word of 3 letters or fewer), else those it is a prefix of
 * (or that are a prefix of it); the nearest only, at most 3.
 */
export function closest(word: string, names: readonly string[]): string[] {
  const w = word.toLowerCase();
  const max = w.length <= 3 ? 1 : 2;
  const scored = names
    .map((name) => {
      const d = editDistance(w, name);
      const prefix = (w.length >= 2 && name.startsWith(w)) || (name.length >= 3 && w.startsWith(name));
      return { name, score: d <= max ? d : prefix ? max + 0.5 : Infinity };
    })
    .filter((s) => s.score !== Infinity);
  const best = Math.min(...scored.map((s) => s.score));
  return scored
    .filter((s) => s.score === best)
    .slice(0, 3)
    .map((s) => s.name);
}
