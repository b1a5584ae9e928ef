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

/**
 * Words a newcomer types for a command that lives elsewhere (`cip login` for `cip auth login`, as in other
 * CLIs), by the command path they were typed under. A typo's distance cannot find these: they are whole words.
 */
const ELSEWHERE: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  cip: {
    login: 'cip auth login',
    signin: 'cip auth login',
    init: 'cip auth login',
    configure: 'cip auth login',
    setup: 'cip auth login',
    logout: 'cip auth logout',
    signout: 'cip auth logout',
    status: 'cip auth status',
    whoami: 'cip auth status',
    profiles: 'cip auth status',
    switch: 'cip auth use',
    use: 'cip auth use',
    version: 'cip --version',
    list: 'cip env list',
    ls: 'cip env list',
    envs: 'cip env list',
    environment: 'cip env list',
    environments: 'cip env list',
    get: 'cip env get',
    show: 'cip env get',
    create: 'cip env create',
    update: 'cip env update',
    delete: 'cip env delete',
    rm: 'cip env delete',
    export: 'cip env export',
    diff: 'cip env diff',
    plan: 'cip env diff',
    apply: 'cip env apply',
  },
  'cip auth': {
    signin: 'cip auth login',
    logon: 'cip auth login',
    signout: 'cip auth logout',
    whoami: 'cip auth status',
    list: 'cip auth status',
    ls: 'cip auth status',
  },
  'cip env': {
    show: 'cip env get',
    new: 'cip env create',
    add: 'cip env create',
    edit: 'cip env update',
    set: 'cip env update',
    remove: 'cip env delete',
    del: 'cip env delete',
  },
};

/** "Did you mean 'cip auth login'?" for a word typed under `path` (['cip'] for the top) that names a command elsewhere. */
export function commandElsewhere(path: readonly string[], word: string): string | undefined {
  const meant = Object.hasOwn(ELSEWHERE, path.join(' ')) ? ELSEWHERE[path.join(' ')]! : {};
  return Object.hasOwn(meant, word) ? `Did you mean '${meant[word]!}'?` : undefined;
}

const SECRET_WORDS = new Set([
  'key',
  'keys',
  'apikey',
  'token',
  'jwt',
  'bearer',
  'password',
  'passwd',
  'pwd',
  'secret',
  'pat',
  'credential',
  'credentials',
]);
/** The words of an option that would take a token, not a key. */
const TOKEN_WORDS = new Set(['token', 'jwt', 'bearer']);

/** The flag as typed, without a value glued to it (`--api-key=...`, `-kVALUE`): that value may be a key. */
export function flagOnly(flag: string): string {
  if (flag.startsWith('--')) return flag.split('=', 1)[0]!;
  return flag.startsWith('-') ? flag.slice(0, 2) : flag;
}

/**
 * Why an option that looks like it takes a key (`--api-key`, `--token`, `--password`) does not exist, and
 * what to use instead; undefined for any other option. `login` is true where the command reads key files
 * (`auth login`).
 */
export function keyOptionHint(flag: string, login: boolean): string | undefined {
  if (!flag.startsWith('--')) return undefined;
  const words = flag.slice(2).toLowerCase().split(/[-_]/);
  if (!SECRET_WORDS.has(words.at(-1)!)) return undefined;
  const why = 'keys are not taken as options, so that shell history and process lists never show them';
  if (words.some((word) => TOKEN_WORDS.has(word))) {
    return login
      ? `${why}; use --token-file FILE (- for stdin)`
      : `${why}; 'cip auth login --token-file FILE' keeps a token in a profile, or set CIP_TOKEN and CIP_SUBSCRIPTION_KEY`;
  }
  if (!login) {
    return `${why}; 'cip auth login' keeps them in a profile, or set CIP_API_KEY, CIP_SUBSCRIPTION_KEY and CIP_ENTERPRISE_ID`;
  }
  const subscription = words.includes('subscription') || words.includes('sub') || words.includes('apim');
  const ways = subscription
    ? '--subscription-key-file FILE (- for stdin), the CIP_SUBSCRIPTION_KEY variable'
    : words.includes('api') || words.includes('apikey')
      ? '--api-key-file FILE (- for stdin), the CIP_API_KEY variable'
      : '--api-key-file and --subscription-key-file FILE (- for stdin), the CIP_API_KEY and CIP_SUBSCRIPTION_KEY variables';
  return `${why}; use ${ways}, or the hidden prompt at a terminal`;
}
