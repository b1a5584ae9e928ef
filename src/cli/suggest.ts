// "Did you mean ...?" for a mistyped command. commander's own suggestion weighs every name and alias alike, so
// `cip env lst` offered both `list` and its alias `ls`: here a command is offered once, by its name, however
// close its aliases are.

/** What a suggestion can name: a command and the other words that call it. */
export interface Suggestible {
  name: string;
  aliases: readonly string[];
}

const MAX_DISTANCE = 2;
const MIN_SIMILARITY = 0.4;

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(a: string, b: string): number {
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

/** How far a word is from a candidate, or undefined when it is too far to be a typo of it. */
function distanceTo(word: string, candidate: string): number | undefined {
  if (candidate.length <= 1) return undefined;
  const distance = editDistance(word, candidate);
  const length = Math.max(word.length, candidate.length);
  return distance <= MAX_DISTANCE && (length - distance) / length > MIN_SIMILARITY ? distance : undefined;
}

/** The names of the commands nearest to a mistyped word (each command once), in help's order; none when none is near. */
export function similarCommands(word: string, commands: readonly Suggestible[]): string[] {
  let best = Infinity;
  let names: string[] = [];
  for (const command of commands) {
    const distances = [command.name, ...command.aliases]
      .map((candidate) => distanceTo(word, candidate))
      .filter((distance): distance is number => distance !== undefined);
    if (distances.length === 0) continue;
    const distance = Math.min(...distances);
    if (distance < best) {
      best = distance;
      names = [command.name];
    } else if (distance === best && !names.includes(command.name)) {
      names.push(command.name);
    }
  }
  return names;
}

/** 'Did you mean list?', 'Did you mean one of create, update?', or undefined when nothing is near. */
export function didYouMean(word: string, commands: readonly Suggestible[]): string | undefined {
  const names = similarCommands(word, commands);
  if (names.length === 0) return undefined;
  return names.length === 1 ? `Did you mean ${names[0]!}?` : `Did you mean one of ${names.join(', ')}?`;
}
