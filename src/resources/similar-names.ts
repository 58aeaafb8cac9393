// The existing names most like a name that was not found: `prod-checkout-logs` for
// `stg-checkout-logs`, so that a warning says what was probably meant.

/** Edits (insert, delete, replace one character) from a to b. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length];
}

const words = (name: string): Set<string> => new Set(name.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1));

/**
 * Up to `limit` names like `name`, most alike first: within half of the longer name's
 * length in edits, or sharing most of its words (an environment prefix swapped).
 */
export function similarNames(name: string, existing: readonly string[], limit = 3): string[] {
  const mine = words(name);
  const scored = existing
    .filter((other) => other !== name)
    .map((other) => {
      const distance = editDistance(name.toLowerCase(), other.toLowerCase());
      const theirs = words(other);
      const shared = [...mine].filter((w) => theirs.has(w)).length;
      const wordsAlike = mine.size > 1 && shared >= mine.size - 1 && shared > 0;
      return { other, distance, close: distance <= Math.max(name.length, other.length) / 2 || wordsAlike };
    })
    .filter((s) => s.close)
    .sort((x, y) => x.distance - y.distance || x.other.localeCompare(y.other));
  return scored.slice(0, limit).map((s) => s.other);
}
