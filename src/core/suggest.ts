/** "Did you mean …?": the known name closest to a mistyped one, for errors that say what to write instead. */

/** Edit distance (insertions, deletions, substitutions), case-insensitive; stops counting past `limit`. */
function distance(a: string, b: string, limit: number): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (Math.abs(x.length - y.length) > limit) return limit + 1;
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[y.length] ?? limit + 1;
}

/**
 * The known name a mistyped one most likely meant (within two edits, or one for short names, or
 * differing only in a plural `s` or case), or undefined.
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const limit = name.length <= 4 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of known) {
    const d = distance(name, candidate, limit);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** `"x is not a known field"` plus `"; did you mean y?"` when a known name is close. */
export function unknownName(name: string, known: Iterable<string>, what = "field"): string {
  const meant = closestName(name, known);
  return `${name} is not a known ${what}${meant === undefined ? "" : `; did you mean ${meant}?`}`;
}
