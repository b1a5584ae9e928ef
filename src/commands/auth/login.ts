// `cip auth login`: stores a profile's keys and enterprise id, checked with one request unless --no-verify.
// `--migrate` is a command of its own behind the same name (domain/profiles/migrate.ts); how a profile is
// written is domain/profiles/save.ts.
import { defineCommand } from '../define.js';
import { flag, option, type ValuesOf } from '../../cli/options.js';
import type { Context } from '../../context.js';
import { nonEmpty } from '../../env.js';
import { ApiError, CipError, NetworkError, UsageError, restated, withHint } from '../../errors.js';
import { allowHttp } from '../../config/credentials/settings.js';
import {
  KINDS,
  OWN_SECRET,
  actingAs,
  apiKeyCredentials,
  expiredError,
  expiryWarning,
  tokenCredentials,
  type CredentialKind,
  type Credentials,
  type Given,
  profileSource,
} from '../../config/credentials/credential.js';
import { readClaims } from '../../config/token.js';
import { inKeychain, profileKind, type Profile, type StoreData, getProfile } from '../../config/store.js';
import { KeychainError, profileEntry, type StoredKeys, credentialStore } from '../../config/store/keychain.js';
import {
  DEFAULT_BASE_URL,
  SECRETS_URL,
  checkBaseUrl,
  checkEnterpriseId,
  checkKey,
  checkProfileName,
  checkToken,
} from '../../config/validate.js';
import { ask, askHidden } from '../../terminal/prompt.js';
import { withSpinner } from '../../terminal/spinner.js';
import { printable } from '../../text/sanitize.js';
import { readInput } from '../io.js';
import { OUTPUT_FORMATS } from '../../output/format.js';
import { migrate } from '../../domain/profiles/migrate.js';
import { noKeychain, save, type ProfileFields, type Storage } from '../../domain/profiles/save.js';
import { keptSecrets, type Kept } from '../../domain/profiles/keep.js';
import { givenBaseUrl, givenEnterpriseId, namedProfile } from '../../config/credentials/candidates.js';

const OPTIONS = {
  apiKeyFile: option('--api-key-file <path>', "read the API key from a file ('-' for stdin)"),
  tokenFile: option('--token-file <path>', "read a token (a JWT) from a file ('-' for stdin), instead of an API key"),
  subscriptionKeyFile: option('--subscription-key-file <path>', "read the subscription key from a file ('-' for stdin)"),
  verify: flag('--no-verify', 'save without checking the keys against the API'),
  insecureStorage: flag('--insecure-storage', "keep the keys in plain text in the config file, not the system's keychain"),
  migrate: flag('--migrate', "move the profile's keys from the config file into the keychain; nothing else changes"),
  protect: flag('--protect', "mark the profile as production, as 'cip auth protect' does"),
};

export default defineCommand({
  name: 'login',
  description: 'store API keys and an enterprise id, or a token, as a profile',
  // Writes no data on stdout: any format.
  outputs: OUTPUT_FORMATS,
  options: OPTIONS,
  notes: `The profile is named by --profile (default: 'default'); the first one stored becomes active.
--base-url and --enterprise-id set the profile's values. Keys come from the files above, else from
CIP_API_KEY and CIP_SUBSCRIPTION_KEY, else from a hidden prompt at a terminal. They are never taken
as plain option values, so they stay out of shell history and process lists.
Logging in again to a profile replaces what is given and keeps the rest: its keys (for the same host),
base URL, enterprise id, where its keys are kept, and its protected mark. So a new token alone is
'--token-file -', in a pipe too. Given nothing, it asks for the keys again at a terminal.
With --token-file the profile holds a token (sent as Authorization: Bearer) and the subscription key,
and no enterprise id: the token acts for the enterprise it was issued for. A token that has expired is
refused (exit 3); its expiry is read from the token, never verified.
The keys go into the system's keychain (macOS Keychain, Windows Credential Manager, Secret Service on
Linux), unless the profile logged in again kept them in the config file. Where there is none (a server, a container), login stops (exit 2) unless --insecure-storage or
CIP_CREDENTIAL_STORE=file says to keep them in plain text in the config file.
Find your keys at ${SECRETS_URL}`,
  examples: [
    'cip auth login --enterprise-id 3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b',
    `cip auth login --profile staging --base-url https://staging.example.com/ms --api-key-file key.txt \\
    --subscription-key-file sub.txt --enterprise-id 3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b`,
    'cip auth login --profile ci --token-file token.jwt --subscription-key-file sub.txt',
    'cip auth login --profile prod --migrate',
    'cip auth login --profile prod --protect',
  ],
  run: login,
});

/** How a file flag's value is named in messages: "--api-key-file key.txt", "--token-file (stdin)". */
const fileSource = (flag: string, path: string) => `${flag} ${path === '-' ? '(stdin)' : printable(path)}`;

async function readKey(ctx: Context, path: string, flag: string, what: string): Promise<string> {
  const key = (await readInput(ctx, path, flag)).trim();
  if (!key) throw new UsageError(`${fileSource(flag, path)} is empty`);
  return what === 'token' ? checkToken(key, fileSource(flag, path)) : checkKey(key, what, fileSource(flag, path));
}

/** Asks for a key without echoing it; a key that is not valid is said and asked again. */
async function askKey(ctx: Context, what: string): Promise<string | undefined> {
  const answer = nonEmpty(await askHidden(ctx.io, `${what.charAt(0).toUpperCase()}${what.slice(1)} (hidden): `));
  if (answer === undefined) return undefined;
  try {
    return checkKey(answer, what, 'the prompt');
  } catch (error) {
    if (!(error instanceof CipError)) throw error;
    ctx.io.stderr.write(`${error.message}\n`);
    return undefined;
  }
}

type Options = ValuesOf<typeof OPTIONS>;

/**
 * Where login keeps the keys: where it is told (--insecure-storage, CIP_CREDENTIAL_STORE), else where the profile
 * it replaces kept them, else the keychain; a file says why.
 */
function chooseStorage(ctx: Context, options: Options, name: string, existing: Profile | undefined): Storage {
  const variable = credentialStore(ctx.env);
  if (options.insecureStorage) return { where: 'file', because: '--insecure-storage' };
  if (variable === 'file') return { where: 'file', because: 'CIP_CREDENTIAL_STORE=file' };
  if (nonEmpty(ctx.env.CIP_CREDENTIAL_STORE) !== undefined || existing === undefined || inKeychain(existing)) return { where: 'keychain' };
  return {
    where: 'file',
    because: `where profile '${name}' had them; 'cip auth login --profile ${name} --migrate' moves them to the keychain`,
  };
}

/** The kind a login stores: what its file flag says, else what the profile it replaces holds, else an API key. */
function kindOf(options: Options, existing: Profile | undefined): CredentialKind {
  if (options.tokenFile !== undefined) return 'token';
  if (options.apiKeyFile !== undefined) return 'api-key';
  return existing ? profileKind(existing) : 'api-key';
}

/** The flags that read a file, refused where they cannot go together. */
function checkFileFlags(options: Options): void {
  if (options.tokenFile !== undefined && options.apiKeyFile !== undefined) {
    throw new UsageError('--token-file and --api-key-file cannot be used together: a profile holds a token or an API key');
  }
  const stdin = [
    options.apiKeyFile === '-' && '--api-key-file',
    options.tokenFile === '-' && '--token-file',
    options.subscriptionKeyFile === '-' && '--subscription-key-file',
  ].filter((flag): flag is string => typeof flag === 'string');
  if (stdin.length > 1) throw new UsageError(`only one of ${stdin.join(' and ')} can read stdin`);
}

/** A token names no enterprise; one given here would be refused on every later run of this profile. */
function enterpriseForToken(givenEnterprise: Given, name: string, options: Options): UsageError {
  const leave = givenEnterprise.source.startsWith('--') ? `leave out ${givenEnterprise.source}` : `unset ${givenEnterprise.source}`;
  return new UsageError(
    `${givenEnterprise.source} does not apply to a token: a token acts for the enterprise it was issued for`,
    options.tokenFile === undefined ? `${leave}, or give --api-key-file to make profile '${name}' hold an API key` : leave,
  );
}

/** What a login says once the profile is saved: where, whether it is active, what changed, and how its keys are kept. */
function reportSaved(
  ctx: Context,
  {
    name,
    verified,
    saved,
    credentials,
    baseUrl,
    changes,
    storage,
    path,
  }: {
    name: string;
    verified: boolean;
    saved: StoreData;
    credentials: Credentials;
    baseUrl: string;
    changes: string | undefined;
    storage: Storage;
    path: string;
  },
): void {
  const active = saved.activeProfile === name;
  const inactive = `make it active with 'cip auth use ${name}'.`;
  const what = `profile '${name}' (${actingAs(credentials).afterProfile}, ${baseUrl})`;
  ctx.io.info(
    verified
      ? `Logged in: ${what}${active ? ' is active.' : ` saved; ${inactive}`}`
      : `Saved (not checked): ${what}${active ? ' is active.' : `; ${inactive}`}`,
  );
  if (changes !== undefined) ctx.io.info(changes);
  if (getProfile(saved, name)?.protected === true) {
    ctx.io.info(`Profile '${name}' is protected: deletes and other wide changes in it ask for its name (--confirm ${name} in a script).`);
  }
  if (storage.where === 'file') {
    ctx.io.warn(`the keys of profile '${name}' are stored in plain text in ${path} (${storage.because})`);
  }
}

/** The options that say what to log in with: --migrate moves the keys a profile has, and takes none of them. */
function migrateFlags(ctx: Context, options: Options): string[] {
  return [
    options.apiKeyFile !== undefined && '--api-key-file',
    options.tokenFile !== undefined && '--token-file',
    options.subscriptionKeyFile !== undefined && '--subscription-key-file',
    !options.verify && '--no-verify',
    options.insecureStorage && '--insecure-storage',
    ctx.globals.baseUrl !== undefined && '--base-url',
    ctx.globals.enterpriseId !== undefined && '--enterprise-id',
    options.protect && '--protect',
  ].filter((flag): flag is string => typeof flag === 'string');
}

/** What the login still lacks, asked for at a terminal; refused (exit 2) where cip cannot ask. */
async function askMissing(
  ctx: Context,
  kind: CredentialKind,
  have: { enterpriseId: string | undefined; apiKey: string | undefined; subscriptionKey: string | undefined },
): Promise<{ enterpriseId: string | undefined; apiKey: string | undefined; subscriptionKey: string | undefined }> {
  let { enterpriseId, apiKey, subscriptionKey } = have;
  const missing = [
    kind === 'token' || enterpriseId ? undefined : 'enterprise id (--enterprise-id or CIP_ENTERPRISE_ID)',
    kind === 'token' || apiKey ? undefined : 'API key (--api-key-file or CIP_API_KEY)',
    subscriptionKey ? undefined : 'subscription key (--subscription-key-file or CIP_SUBSCRIPTION_KEY)',
  ].filter((item): item is string => item !== undefined);
  if (missing.length) {
    if (!ctx.io.canPrompt) {
      throw new UsageError(`missing ${missing.join(', ')}`, `${ctx.io.noPromptReason}; find your keys at ${SECRETS_URL}`);
    }
    ctx.io.stderr.write(`Find your ${kind === 'token' ? 'subscription key' : 'API key and subscription key'} at ${SECRETS_URL}\n`);
    while (kind === 'api-key' && !enterpriseId) {
      const answer = await ask(ctx.io, 'Enterprise id (GUID): ');
      try {
        enterpriseId = checkEnterpriseId(answer, 'the enterprise id');
      } catch (error) {
        if (!(error instanceof CipError)) throw error;
        ctx.io.stderr.write(`${error.message}\n`);
      }
    }
    while (kind === 'api-key' && !apiKey) apiKey = await askKey(ctx, 'API key');
    while (!subscriptionKey) subscriptionKey = await askKey(ctx, 'subscription key');
  }
  return { enterpriseId, apiKey, subscriptionKey };
}

/** The keys tried on the API before they are saved: a list they may not read (403) is said, any other failure stops the login. */
async function verifyKeys(ctx: Context, name: string, baseUrl: string, credentials: Credentials, kind: CredentialKind): Promise<void> {
  const stored = profileSource(name);
  const api = await ctx.apiFor({ profile: name, baseUrl, credentials, sources: { baseUrl: stored }, unused: [] });
  try {
    await withSpinner(ctx.io, 'Checking the keys', () => api.list());
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      ctx.io.warn('the keys were accepted, but they may not list environments (HTTP 403)');
    } else if (error instanceof CipError) {
      throw withHint(error, `nothing was saved; ${whatToCheck(error, baseUrl, kind)}, or pass --no-verify to save them unchecked`);
    } else {
      throw error;
    }
  }
}

async function login(ctx: Context, options: Options): Promise<void> {
  if (options.migrate) {
    return migrate(ctx, migrateFlags(ctx, options));
  }
  const { env } = ctx;
  const name = checkProfileName(namedProfile(ctx) ?? 'default');
  checkFileFlags(options);
  const store = await ctx.store();
  // Read first: a broken config file stops us before we ask for anything.
  const existing = getProfile(store.read(), name);
  const kind = kindOf(options, existing);
  const givenEnterprise = givenEnterpriseId(ctx, true);
  if (kind === 'token' && givenEnterprise) throw enterpriseForToken(givenEnterprise, name, options);
  const storage = chooseStorage(ctx, options, name, existing);

  // The variables are inputs for the profile being stored, whichever profile that is.
  const givenUrl = givenBaseUrl(ctx, true);
  const baseUrl = checkBaseUrl(
    givenUrl?.value ?? existing?.baseUrl ?? DEFAULT_BASE_URL,
    givenUrl?.source ?? 'the base URL',
    allowHttp(ctx),
  );
  const entry = profileEntry(name, { baseUrl });
  // Before anything is asked or checked: a machine without a keychain is told so at once.
  if (storage.where === 'keychain') {
    await ctx
      .keychain()
      .check(entry)
      .catch((error: unknown) => {
        throw error instanceof KeychainError ? noKeychain(error, store.path) : error;
      });
  }
  let enterpriseId = givenEnterprise
    ? checkEnterpriseId(givenEnterprise.value, givenEnterprise.source)
    : existing?.kind === 'token'
      ? undefined
      : existing?.enterpriseId;
  const fromEnv = (variable: string, what: string) => {
    const value = nonEmpty(env[variable]);
    return value === undefined ? undefined : checkKey(value, what, variable);
  };
  let token = options.tokenFile === undefined ? undefined : await readKey(ctx, options.tokenFile, '--token-file', 'token');
  let apiKey =
    kind === 'token'
      ? undefined
      : options.apiKeyFile !== undefined
        ? await readKey(ctx, options.apiKeyFile, '--api-key-file', 'API key')
        : fromEnv('CIP_API_KEY', 'API key');
  if (kind === 'token' && options.tokenFile === undefined && nonEmpty(env.CIP_API_KEY) !== undefined) {
    ctx.io.warn(`ignoring CIP_API_KEY: profile '${name}' holds a token (give --api-key-file to make it hold an API key)`);
  }
  let subscriptionKey =
    options.subscriptionKeyFile !== undefined
      ? await readKey(ctx, options.subscriptionKeyFile, '--subscription-key-file', 'subscription key')
      : fromEnv('CIP_SUBSCRIPTION_KEY', 'subscription key');
  // An expired token is refused before anything is asked or sent.
  if (token !== undefined) checkTokenExpiry(ctx, token, fileSource('--token-file', options.tokenFile!));

  // Logging in again keeps what the profile has and this login does not give (domain/profiles/keep.ts). Given
  // nothing at all, it is a fresh login of the keys: asked for at a terminal, as the first one was.
  const own = kind === 'token' ? token : apiKey;
  const givenAnything =
    own !== undefined || subscriptionKey !== undefined || givenEnterprise !== undefined || givenUrl !== undefined || options.protect;
  if (existing !== undefined && !givenAnything && kind === 'token') {
    throw new UsageError(
      `profile '${name}' holds a token: give the new one`,
      `cip auth login --profile ${name} --token-file PATH ('-' for stdin)`,
    );
  }
  const kept =
    existing !== undefined && givenAnything ? await keptSecrets(ctx, name, existing, { kind, baseUrl }, { own, subscriptionKey }) : {};
  if (kind === 'token' && token === undefined && kept.own !== undefined) {
    token = kept.own;
    checkTokenExpiry(ctx, token, profileSource(name));
  }
  if (kind === 'api-key') apiKey ??= kept.own;
  subscriptionKey ??= kept.subscriptionKey;

  ({ enterpriseId, apiKey, subscriptionKey } = await askMissing(ctx, kind, { enterpriseId, apiKey, subscriptionKey }));
  const stored = profileSource(name);
  const given = (value: string) => ({ value, source: stored });
  const credentials =
    kind === 'token'
      ? tokenCredentials(given(token!), given(subscriptionKey!))
      : apiKeyCredentials(given(apiKey!), given(subscriptionKey!), given(enterpriseId!));

  if (options.verify) await verifyKeys(ctx, name, baseUrl, credentials, kind);

  const fields: ProfileFields = kind === 'token' ? { kind: 'token', baseUrl } : { baseUrl, enterpriseId: enterpriseId! };
  if (options.protect) fields.protected = true;
  const keys: StoredKeys =
    kind === 'token' ? { token: token!, subscriptionKey: subscriptionKey! } : { apiKey: apiKey!, subscriptionKey: subscriptionKey! };
  const saved = await save(ctx, store, name, storage, fields, keys);
  const changes = existing === undefined ? undefined : whatChanged(name, existing, kind, kept);
  reportSaved(ctx, { name, verified: options.verify, saved, credentials, baseUrl, changes, storage, path: store.path });
}

/** A token read for the profile: refused (exit 3, nothing saved) if it has expired, a warning if it soon will. */
function checkTokenExpiry(ctx: Context, token: string, source: string): void {
  const read = { claims: readClaims(token), source };
  const expired = expiredError(read, undefined, Date.now());
  if (expired) throw restated(expired, `${expired.message}; nothing was saved`);
  const warning = expiryWarning(read, undefined, Date.now());
  if (warning !== undefined) ctx.io.warn(warning);
}

/**
 * What logging in again did to the profile it replaced: what it kept, and what a change of kind dropped (an API
 * key's enterprise id goes with it: a token names none).
 */
function whatChanged(name: string, existing: Profile, kind: CredentialKind, kept: Kept): string | undefined {
  const before = profileKind(existing);
  const keptWords = [
    kept.own !== undefined && `its ${OWN_SECRET[kind].what}`,
    kept.subscriptionKey !== undefined && 'its subscription key',
  ].filter((item): item is string => typeof item === 'string');
  const keptText = keptWords.length ? `; kept ${keptWords.join(' and ')}` : '';
  if (before === kind) return keptWords.length ? `Profile '${name}': kept ${keptWords.join(' and ')}.` : undefined;
  const dropped =
    'enterpriseId' in existing && kind === 'token'
      ? `its ${OWN_SECRET[before].what} and enterprise id ${existing.enterpriseId}`
      : `its ${OWN_SECRET[before].what}`;
  return `Profile '${name}' now holds ${KINDS[kind].called} instead of ${KINDS[before].called}: dropped ${dropped}${keptText}.`;
}

/** What a failed check points at: only a 401 says anything about the keys (a 403 accepted them). */
function whatToCheck(error: CipError, baseUrl: string, kind: CredentialKind): string {
  if (error instanceof ApiError && error.status === 401) {
    return kind === 'token' ? `check the token, and the subscription key at ${SECRETS_URL}` : `check the keys at ${SECRETS_URL}`;
  }
  if (error instanceof NetworkError) return `check the base URL (${baseUrl}) and the network`;
  if (error instanceof ApiError && (error.status >= 500 || error.status === 429)) return 'try again later';
  // A 404, another 4xx, or an answer that is not the API's: most likely the wrong address or enterprise.
  return kind === 'token' ? `check the base URL (${baseUrl})` : `check the base URL (${baseUrl}) and the enterprise id`;
}
