// "Did you mean ...?" for a mistyped command. commander's own suggestion weighs every name and alias alike, so
// `cip env lst` offered both `list` and its alias `ls`: here a command is offered once, by its name, however
// close its aliases are.
import { shellQuote } from '../text/shell.js';
import { distanceTo, nearest } from '../text/similar.js';

/** What a suggestion can name: a command and the other words that call it. */
export interface Suggestible {
  name: string;
  aliases: readonly string[];
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

/** What a command takes, as the hints for a mistaken option need it. */
export interface OptionsTaken {
  /** How the command is named in a hint: 'cip env delete'. */
  command: string;
  /** Every flag the command and the commands above it take, long and short: '--yes', '-y', ... */
  flags: readonly string[];
  /** Whether the command builds a JSON object from fields given with -f and -F (create, update, api). */
  fields: boolean;
}

/** Options other tools have, and the one cip takes for the same job where a command lacks them. */
const INSTEAD: Readonly<Record<string, { flag: string; does: string }>> = {
  '--force': { flag: '--yes', does: 'skips the question' },
  '-f': { flag: '--yes', does: 'skips the question' },
  '--assume-yes': { flag: '--yes', does: 'skips the question' },
  '--no-confirm': { flag: '--yes', does: 'skips the question' },
  '--noconfirm': { flag: '--yes', does: 'skips the question' },
  '--non-interactive': { flag: '--yes', does: 'skips the question' },
  '--format': { flag: '--output', does: 'chooses the format' },
};

/** A field whose value may be a secret: its value is never repeated in a hint. */
const SECRET_FIELD = /key|token|secret|pass|pwd|credential|connection|auth|jwt|bearer/i;
/** The longest value a hint repeats; a longer one is written VALUE. */
const MAX_SHOWN_VALUE = 64;
// eslint-disable-next-line no-control-regex
const UNSAFE_VALUE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
/** What -F sends typed, not as a string: true, false, null, a number, a JSON array or object. */
const TYPED = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|[[{].*)$/s;
/** Options of other tools that are no field anyone means to set: `env update X --yes` gets commander's own message. */
const NOT_FIELDS = new Set(['yes', 'force', 'all', 'debug', 'silent', 'recursive', 'interactive', 'no-prompt', 'wait', 'watch', 'follow']);
/** A word that could be a field's name: what `--name` or `name=x` was meant to set. */
const FIELD_NAME = /^[A-Za-z_$@][\w$@.-]*$/;

/**
 * `-f name=foo` (quoted for a shell), or `-F isActive=false` for a value -F would type; the value is written VALUE
 * when it is missing, long, unprintable or the field's name says it may be a secret.
 */
export function fieldOption(name: string, value: string | undefined): string {
  const shown =
    value === undefined || value.length > MAX_SHOWN_VALUE || UNSAFE_VALUE.test(value) || SECRET_FIELD.test(name) ? undefined : value;
  if (shown === undefined) return `-f ${shellQuote(`${name}=`)}VALUE`;
  return `${TYPED.test(shown) ? '-F' : '-f'} ${shellQuote(`${name}=${shown}`)}`;
}

/**
 * Why an unknown option fails, when a newcomer's habit explains it (the hint, without parentheses); undefined
 * where commander's own message (with its "Did you mean") says it best. `typed` is the option as typed, with a
 * value glued to it (`--name=foo`); `next` the word after it, its value when it takes one.
 *   - an option other tools have, for one cip takes: `--force` on delete is --yes;
 *   - `--name foo` on a command that takes fields: `-f name=foo`, unless it is a typo of an option (`--dryrun`).
 */
export function optionMistake(typed: string, next: string | undefined, taken: OptionsTaken): string | undefined {
  const flag = flagOnly(typed);
  const instead = Object.hasOwn(INSTEAD, flag) ? INSTEAD[flag]! : undefined;
  if (instead && !taken.flags.includes(flag) && taken.flags.includes(instead.flag)) {
    return `'${taken.command}' has no ${flag}: ${instead.flag} ${instead.does}`;
  }
  const name = flag.slice(2);
  if (!taken.fields || !flag.startsWith('--') || !FIELD_NAME.test(name) || NOT_FIELDS.has(name)) return undefined;
  const longs = taken.flags.filter((candidate) => candidate.startsWith('--')).map((candidate) => candidate.slice(2));
  const near = nearest(name, longs);
  // A typo of an option (--dryrun, --fiel) is that option; further off, both are offered.
  if (near.distance <= 1) return undefined;
  const glued = typed.length > flag.length ? typed.slice(flag.length + 1) : undefined;
  const value = glued ?? (next !== undefined && (next === '-' || !next.startsWith('-')) ? next : undefined);
  const also = near.words.length ? `; or did you mean ${near.words.map((word) => `--${word}`).join(', ')}?` : '';
  return `to set the field '${name}', use ${fieldOption(name, value)}${also}`;
}

/**
 * Why a command got more arguments than it takes, when the extra ones are fields (`description=foo`): the -f
 * options that set them. Undefined when they are not, or the command takes no fields.
 */
export function fieldArguments(extra: readonly string[], fields: boolean): string | undefined {
  const assignments = extra.flatMap((word) => {
    const at = word.indexOf('=');
    const name = word.slice(0, at);
    return at > 0 && FIELD_NAME.test(name) ? [fieldOption(name, word.slice(at + 1))] : [];
  });
  if (!fields || assignments.length === 0) return undefined;
  return `fields are set with -f: ${assignments.join(' ')}`;
}
