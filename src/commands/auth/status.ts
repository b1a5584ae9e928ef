import { platform } from 'node:os';
import { defineCommand } from '../define.js';
import { maskKey } from '../../secrets.js';
import type { Context } from '../../context.js';
import { DEFAULT_BASE_URL } from '../../config/validate.js';
import type { ResolvedSettings } from '../../config/credentials/settings.js';
import { expiredError, pieces, secretsIn, statusColumns, statusValues, tokenOf } from '../../config/credentials/credential.js';
import { KeychainError, describeEntry, profileEntry, type StoredKeys, credentialStore, loginAgain } from '../../config/store/keychain.js';
import { inKeychain, profileKind, type Profile } from '../../config/store.js';
import { writeList } from '../../output/writer.js';
import { hideCredentials, printable } from '../../text/sanitize.js';
import { utcSecond } from '../../text/time.js';
import { OUTPUT_FORMATS } from '../../output/format.js';
import { COLUMNS_OPTION } from '../options.js';
import { namedProfile, profileNamedBy } from '../../config/credentials/candidates.js';

/** The order of precedence (config/credentials/settings.ts), said under what is in use. */
const PRECEDENCE = 'Order: flags, then environment variables, then the project file (.cip.json), then the active profile.';

export default defineCommand({
  name: 'status',
  description: 'show every profile, where its keys are, and the keys masked',
  outputs: OUTPUT_FORMATS,
  options: { columns: COLUMNS_OPTION },
  notes: `KEYS says where a profile's keys are: 'keychain' (the system's keychain) or 'file' (plain text in the
config file, with a warning). Where a profile holds a token, KIND (api-key or token), TOKEN (masked) and EXPIRES
(what the token says, unverified; empty when it does not say) are shown too. PROTECTED (once a profile is
protected; always in JSON) says which profiles ask for their name before a destructive change ('cip auth
protect'). Then, on stderr, which credential and values a command run now would use, where each comes from (a
flag, a variable, the project file .cip.json found from the working folder upward, or the active profile, in
that order of precedence), and what it leaves unused. A token that has expired is exit 3. On a narrow terminal
the table keeps NAME, ACTIVE, PROTECTED, KIND, ENTERPRISE ID and EXPIRES (never cut) longest, and says on stderr
which columns it hid.`,
  run: status,
});

/** What a narrow terminal keeps longest, the most first; BASE URL, rarely other than the default, goes first. */
const PRIORITY = ['name', 'active', 'protected', 'kind', 'enterpriseId', 'expires', 'inUse', 'keys', 'apiKey', 'token', 'subscriptionKey'];
/** A cut GUID or time says nothing: shown whole or hidden. */
const WHOLE = ['enterpriseId', 'expires'];

/** Every profile, then (on stderr) what a command run now would use and where each value comes from. */
async function status(ctx: Context, { columns: chosen }: { columns: string[] | undefined }): Promise<void> {
  const store = await ctx.store();
  const data = store.read();
  const profiles = Object.entries(data.profiles);
  const { keys, unread } = await keysOf(ctx, profiles);
  let settings: ResolvedSettings | undefined;
  let problem: unknown;
  try {
    settings = await ctx.settings();
  } catch (error) {
    problem = error;
  }
  const overrides = settings
    ? [settings.sources.baseUrl, ...Object.values(settings.credentials.sources)].filter((source) => source.startsWith('CIP_'))
    : [];
  // KIND only where a profile holds another kind than an API key, and the columns of the kinds present: a list
  // of API key profiles reads as it always has.
  const kinds = new Set(profiles.map(([, profile]) => profileKind(profile)));
  const showKind = [...kinds].some((kind) => kind !== 'api-key');
  const columns = statusColumns(kinds);
  // PROTECTED once a profile is: until then the table reads as it always has (JSON always says it).
  const showProtected = profiles.some(([, profile]) => profile.protected === true);
  const rows = profiles.map(([name, profile]) => ({
    name,
    active: name === data.activeProfile,
    inUse: name === settings?.profile,
    protected: profile.protected === true,
    ...(showKind ? { kind: profileKind(profile) } : {}),
    keys: inKeychain(profile) ? 'keychain' : 'file',
    baseUrl: hideCredentials(profile.baseUrl ?? DEFAULT_BASE_URL),
    enterpriseId: 'enterpriseId' in profile ? profile.enterpriseId : null,
    // null where the keychain has no keys for the profile or could not be read (a warning says which).
    ...statusValues(columns, keys.get(name), maskKey),
    overriddenBy: name === settings?.profile ? overrides : [],
  }));
  // With no profile and nothing usable, the error alone says it (and how to log in): not a friendly line too.
  if (rows.length === 0 && !settings && ctx.io.outputFormat === 'table') throw problem;
  await writeList(ctx.io, rows, {
    tableColumns: [
      'name',
      'active',
      'inUse',
      ...(showProtected ? ['protected'] : []),
      ...(showKind ? ['kind'] : []),
      'keys',
      'baseUrl',
      'enterpriseId',
      ...columns,
    ],
    columns: chosen,
    priority: PRIORITY,
    whole: WHOLE,
    // "2026-11-26 14:08:03Z", as env history writes times: the seconds kept, the milliseconds a token never has left out.
    shownAs: { expires: (value) => (typeof value === 'string' ? utcSecond(value) : undefined) },
    emptyMessage: "No profiles. Run 'cip auth login' to create one.",
  });
  const plain = profiles.filter(([, profile]) => !inKeychain(profile));
  if (plain.length) ctx.io.warn(await plainTextWarning(ctx, plain, store.path, profiles.length > plain.length ? !unread : undefined));
  for (const [name, profile] of profiles) {
    if (inKeychain(profile) && keys.has(name) && keys.get(name) === undefined) {
      ctx.io.warn(
        `the keys of profile '${name}' are gone from the keychain (${describeEntry(profileEntry(name, profile))}); ${loginAgain(name)}`,
      );
    }
  }
  if (unread) ctx.io.warn(`cannot read the keys of ${unread.profiles} from the keychain: ${unread.reason}`);
  if (!settings) throw problem;
  ctx.io.info(describeInUse(ctx, settings));
  // A command run now would fail so: status says it the same way.
  const expired = expiredError(tokenOf(settings.credentials), settings.profile, Date.now());
  if (expired) throw expired;
}

/**
 * One warning for every profile whose keys are in the config file, with advice that fits this machine: move
 * them into the keychain where one answers (`keychainAnswered`, when the profiles read already showed it; else
 * one visit asks), and otherwise what keeps them safe where they are.
 */
async function plainTextWarning(
  ctx: Context,
  plain: [string, Profile][],
  path: string,
  keychainAnswered: boolean | undefined,
): Promise<string> {
  const names = plain.map(([name]) => `'${printable(name)}'`).join(', ');
  const fact =
    plain.length === 1
      ? `profile ${names} keeps its keys in plain text in ${path}`
      : `profiles ${names} keep their keys in plain text in ${path}`;
  if (chosenFileStore(ctx)) return `${fact}, readable only by you (mode 0600), as CIP_CREDENTIAL_STORE=file asks`;
  const [first] = plain[0]!;
  if (await keychainUsable(ctx, plain[0]!, keychainAnswered)) {
    return plain.length === 1
      ? `${fact}; move them into the keychain with 'cip auth login --profile ${printable(first)} --migrate'`
      : `${fact}; move each into the keychain with 'cip auth login --profile NAME --migrate'`;
  }
  return `${fact}, readable only by you (mode 0600): no keychain answers here, so keep that file out of backups and shared images`;
}

/** CIP_CREDENTIAL_STORE=file: the user chose the file. A value cip does not know is for login to refuse. */
function chosenFileStore(ctx: Context): boolean {
  try {
    return credentialStore(ctx.env) === 'file';
  } catch {
    return false;
  }
}

/**
 * Whether --migrate could work here. Known when keychain profiles were read; else there is none without the
 * helper, nor on Linux and the BSDs without a D-Bus session (the Secret Service is reached over it), which is
 * the headless case, known without starting anything; else one visit asks.
 */
async function keychainUsable(ctx: Context, [name, profile]: [string, Profile], answered: boolean | undefined): Promise<boolean> {
  if (answered !== undefined) return answered;
  if (ctx.host.keychainHelper === undefined) return false;
  if (!['darwin', 'win32'].includes(platform()) && !ctx.env.DBUS_SESSION_BUS_ADDRESS?.trim()) return false;
  try {
    await ctx.keychain().check(profileEntry(name, profile));
    return true;
  } catch (error) {
    if (error instanceof KeychainError) return false;
    throw error;
  }
}

interface ProfileKeys {
  /** Each profile's keys; undefined for a profile the keychain holds none for. */
  keys: Map<string, StoredKeys | undefined>;
  /** The keychain profiles whose keys could not be read (absent from `keys`), and why. */
  unread?: { profiles: string; reason: string };
}

/** Each profile's keys: from the file, or from the keychain in one visit for all. */
async function keysOf(ctx: Context, profiles: [string, Profile][]): Promise<ProfileKeys> {
  const keys = new Map<string, StoredKeys | undefined>();
  const stored: [string, Profile][] = [];
  for (const [name, profile] of profiles) {
    if (inKeychain(profile)) stored.push([name, profile]);
    else keys.set(name, secretsIn(profileKind(profile), profile));
  }
  if (!stored.length) return { keys };
  try {
    const found = await ctx.keychain().read(stored.map(([name, profile]) => profileEntry(name, profile)));
    stored.forEach(([name], index) => keys.set(name, found[index]));
    return { keys };
  } catch (error) {
    if (!(error instanceof KeychainError)) throw error;
    return { keys, unread: { profiles: stored.map(([name]) => `'${name}'`).join(', '), reason: error.reason } };
  }
}

function describeInUse(ctx: Context, settings: ResolvedSettings): string {
  const { profile, sources, credentials } = settings;
  const from = settings.profileFrom;
  const which =
    profile === undefined
      ? 'no profile (every credential from the environment)'
      : from === '--profile' || from === 'CIP_PROFILE' || (from === undefined && namedProfile(ctx) !== undefined)
        ? `profile '${profile}' (named by ${from ?? profileNamedBy(ctx)})`
        : from !== undefined && from === settings.project
          ? `profile '${profile}' (from ${from})`
          : `profile '${profile}' (the active profile)`;
  const line = (label: string, value: string, source?: string) =>
    `  ${label.padEnd(17)}${value}${source === undefined ? '' : `  (from ${source})`}`;
  return [
    `A command run now would use ${which}:`,
    line('kind', credentials.kind),
    line('base URL', settings.baseUrl, sources.baseUrl),
    ...pieces(credentials, Date.now()).map((piece) => line(piece.label, piece.secret ? maskKey(piece.value) : piece.value, piece.source)),
    ...(settings.project === undefined ? [] : [line('project file', settings.project)]),
    ...(settings.unused.length ? [line('not used', settings.unused.join('; '))] : []),
    PRECEDENCE,
  ].join('\n');
}
