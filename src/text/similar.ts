// How near a mistyped word is to the words meant: the suggestions of a mistyped command or option (cli/suggest.ts)
// and of a format or choice given in another spelling (output/format.ts, program.ts).

const MAX_DISTANCE = 2;
const MIN_SIMILARITY = 0.4;

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, before[j - 2]! + 1);
      current.push(distance);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** How far a word is from a candidate, or undefined when it is too far (than `most` edits) to be a typo of it. */
export function distanceTo(word: string, candidate: string, most = MAX_DISTANCE): number | undefined {
  if (candidate.length <= 1) return undefined;
  const distance = editDistance(word, candidate);
  const length = Math.max(word.length, candidate.length);
  return distance <= most && (length - distance) / length > MIN_SIMILARITY ? distance : undefined;
}

/** The candidates nearest to a word, in their own order, with their distance; none when none is near. */
export function nearest(word: string, candidates: readonly string[], most = MAX_DISTANCE): { words: string[]; distance: number } {
  let distance = Infinity;
  let words: string[] = [];
  for (const candidate of candidates) {
    const to = distanceTo(word, candidate, most);
    if (to === undefined || to > distance) continue;
    if (to < distance) words = [];
    distance = to;
    if (!words.includes(candidate)) words.push(candidate);
  }
  return { words, distance };
}

/**
 * "Did you mean json?", "Did you mean one of a, b?", or undefined when no candidate is one edit away: a choice's
 * words are short, and two edits turn xml into yaml.
 */
export function meant(word: string, candidates: readonly string[]): string | undefined {
  const { words } = nearest(word, candidates, 1);
  if (words.length === 0) return undefined;
  return words.length === 1 ? `Did you mean ${words[0]!}?` : `Did you mean one of ${words.join(', ')}?`;
}
