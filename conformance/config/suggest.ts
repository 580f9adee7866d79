// "Did you mean …?" for a mistyped flag or config key: the closest known name by edit distance,
// when it is close enough to be the likely intent (otherwise none: a wrong guess misleads).

/** Levenshtein distance, with a swap of two neighbours counted as one edit (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The known name closest to `given`, if within a third of its length (at least 1, at most 3 edits). */
export function closest(given: string, known: readonly string[]): string | undefined {
  const word = given.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(word, name.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  if (best) return best.name;
  // A cut-off name (`--base`): the one known name it begins.
  const started = word.length >= 3 ? known.filter((name) => name.toLowerCase().startsWith(word)) : [];
  return started.length === 1 ? started[0] : undefined;
}

/** ` (did you mean X?)`, or nothing when no known name is close. */
export function didYouMean(given: string, known: readonly string[], show = (name: string) => name): string {
  const match = closest(given, known);
  return match === undefined ? '' : ` (did you mean ${show(match)}?)`;
}
