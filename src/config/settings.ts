// Which profile, base URL, enterprise and keys a command uses, and where each came from. The rule (README,
// `cip --help`):
//   - a profile named with --profile or CIP_PROFILE is used as it is: the credential variables
//     (CIP_API_KEY, CIP_SUBSCRIPTION_KEY, CIP_ENTERPRISE_ID, CIP_BASE_URL) are ignored, with a warning;
//   - with no profile named and CIP_API_KEY, CIP_SUBSCRIPTION_KEY and an enterprise id (CIP_ENTERPRISE_ID or
//     the flag) all given, no profile is read;
//   - with no profile named and only some of them, they override the active profile, with a warning;
//   - --base-url and --enterprise-id override whatever the rule chose.
// An explicit choice must win: a script that names a profile must never act with other credentials.
import { isTruthyEnv, nonEmpty, type Env } from '../env.js';
import { AuthError, UsageError } from '../errors.js';
import { printable } from '../text/sanitize.js';
import { KeychainError, describeEntry, profileEntry, type Keychain, type StoredKeys } from './keychain.js';
import { inKeychain, type KeychainProfile, type Profile, type ProfileStore, type StoreData } from './store.js';
import { DEFAULT_BASE_URL, checkBaseUrl, checkEnterpriseId, checkKey } from './validate.js';

/** Where a value came from, said in messages: a flag, a variable, a profile or the default. */
export type Source = string;

export interface ResolvedSettings {
  /** The profile the values came from, if one was used. */
  profile: string | undefined;
  baseUrl: string;
  enterpriseId: string;
  apiKey: string;
  subscriptionKey: string;
  sources: { baseUrl: Source; enterpriseId: Source; apiKey: Source; subscriptionKey: Source };
}

/** What decides the credentials: the environment and the global options that name a profile or values. */
export interface CredentialInputs {
  env: Env;
  globals: { profile?: string | undefined; baseUrl?: string | undefined; enterpriseId?: string | undefined };
}

export interface SettingsInputs extends CredentialInputs {
  store(): Promise<ProfileStore>;
  /** Asked only for a profile whose keys are in the keychain, and only when the keys are needed. */
  keychain(): Keychain;
  warn(message: string): void;
}

export interface Given {
  value: string;
  /** Where it came from, for error messages: the flag or the variable. */
  source: Source;
}

/** The credential variables a named profile makes cip ignore, in the order they are named. */
const CREDENTIAL_VARIABLES = ['CIP_API_KEY', 'CIP_SUBSCRIPTION_KEY', 'CIP_ENTERPRISE_ID', 'CIP_BASE_URL'] as const;

export function profileSource(name: string): Source {
  return `profile '${name}'`;
}

function fromEnv({ env }: CredentialInputs, variable: string): Given | undefined {
  const value = nonEmpty(env[variable]);
  return value === undefined ? undefined : { value, source: variable };
}

/** The base URL and enterprise id given on the command line (an empty flag was refused before any command ran). */
function fromFlag(value: string | undefined, flag: string): Given | undefined {
  return value === undefined ? undefined : { value, source: flag };
}

/**
 * The base URL a command line or environment gives. The variable counts only when no profile is named: a
 * named profile brings its own.
 */
export function givenBaseUrl(ctx: CredentialInputs, useEnv = namedProfile(ctx) === undefined): Given | undefined {
  return fromFlag(ctx.globals.baseUrl, '--base-url') ?? (useEnv ? fromEnv(ctx, 'CIP_BASE_URL') : undefined);
}

export function givenEnterpriseId(ctx: CredentialInputs, useEnv = namedProfile(ctx) === undefined): Given | undefined {
  return fromFlag(ctx.globals.enterpriseId, '--enterprise-id') ?? (useEnv ? fromEnv(ctx, 'CIP_ENTERPRISE_ID') : undefined);
}

/** The profile a command names (flag, else CIP_PROFILE), if any. */
export function namedProfile(ctx: CredentialInputs): string | undefined {
  return ctx.globals.profile ?? nonEmpty(ctx.env.CIP_PROFILE)?.trim();
}

/** How the profile was named, for messages. */
export function profileNamedBy(ctx: CredentialInputs): string {
  return ctx.globals.profile !== undefined ? '--profile' : 'CIP_PROFILE';
}

/** A profile by name, as the file's own entry only: 'constructor' or 'toString' are names, not Object members. */
export function getProfile(data: StoreData, name: string): Profile | undefined {
  return Object.hasOwn(data.profiles, name) ? data.profiles[name] : undefined;
}

/** The named profile, or a usage error that lists the known ones. */
export function requireProfile(data: StoreData, name: string): Profile {
  const profile = getProfile(data, name);
  if (profile) return profile;
  const known = Object.keys(data.profiles);
  throw new UsageError(
    `unknown profile '${name}'`,
    known.length ? `known profiles: ${known.join(', ')}` : `run 'cip auth login --profile ${name}' to create it`,
  );
}

/** The profile used when none is named: the active one, else one called 'default'. */
export function activeProfile(data: StoreData): string | undefined {
  if (data.activeProfile !== undefined && getProfile(data, data.activeProfile)) return data.activeProfile;
  return getProfile(data, 'default') ? 'default' : undefined;
}

/** Where `cip auth login` keeps keys, from CIP_CREDENTIAL_STORE: the keychain unless it says 'file'. */
export function credentialStore(env: Env): 'keychain' | 'file' {
  const value = nonEmpty(env.CIP_CREDENTIAL_STORE)?.trim();
  if (value === undefined || value === 'keychain') return 'keychain';
  if (value === 'file') return 'file';
  throw new UsageError(`CIP_CREDENTIAL_STORE is '${printable(value)}'`, "use 'keychain' (the default) or 'file'");
}

export function allowHttp(ctx: CredentialInputs): boolean {
  return isTruthyEnv(ctx.env.CIP_ALLOW_HTTP);
}

function list(names: readonly string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

export async function resolveSettings(ctx: SettingsInputs): Promise<ResolvedSettings> {
  const named = namedProfile(ctx);
  const setVariables = CREDENTIAL_VARIABLES.filter((variable) => nonEmpty(ctx.env[variable]) !== undefined);
  let profileName: string | undefined;
  let profile: Profile | undefined;
  let apiKey: Given | undefined;
  let subscriptionKey: Given | undefined;
  let enterpriseId = givenEnterpriseId(ctx, named === undefined);

  if (named !== undefined) {
    profile = requireProfile((await ctx.store()).read(), named);
    profileName = named;
    if (setVariables.length) {
      ctx.warn(`using profile '${named}' (named by ${profileNamedBy(ctx)}): ignoring ${list(setVariables)} from the environment`);
    }
  } else {
    apiKey = fromEnv(ctx, 'CIP_API_KEY');
    subscriptionKey = fromEnv(ctx, 'CIP_SUBSCRIPTION_KEY');
    // With all three credentials at hand (the CI case), the profile store is not even opened.
    if (!(apiKey && subscriptionKey && enterpriseId)) {
      const data = (await ctx.store()).read();
      profileName = activeProfile(data);
      profile = profileName === undefined ? undefined : getProfile(data, profileName);
      const known = Object.keys(data.profiles);
      if (profileName === undefined && known.length) {
        throw new AuthError(
          'no profile is active',
          `choose one with 'cip auth switch <name>' or --profile (known profiles: ${known.join(', ')})`,
        );
      }
      if (profileName !== undefined && setVariables.length) {
        ctx.warn(`${list(setVariables)} from the environment override${setVariables.length === 1 ? 's' : ''} profile '${profileName}'`);
      }
    }
  }

  const ofProfile = (value: string | undefined): Given | undefined =>
    nonEmpty(value) === undefined || profileName === undefined ? undefined : { value: value!, source: profileSource(profileName) };
  // The keychain is visited only when the profile's keys are used: variables that give both keys skip it.
  const keys: Partial<StoredKeys> | undefined =
    profile && inKeychain(profile)
      ? apiKey && subscriptionKey
        ? undefined
        : await keychainKeys(ctx.keychain(), profileName!, profile)
      : profile;
  apiKey ??= ofProfile(keys?.apiKey);
  subscriptionKey ??= ofProfile(keys?.subscriptionKey);
  enterpriseId ??= ofProfile(profile?.enterpriseId);
  const missing = [
    apiKey ? undefined : 'API key (CIP_API_KEY)',
    subscriptionKey ? undefined : 'subscription key (CIP_SUBSCRIPTION_KEY)',
    enterpriseId ? undefined : 'enterprise id (CIP_ENTERPRISE_ID)',
  ].filter((item): item is string => item !== undefined);
  if (missing.length === 3 && !profileName) throw new AuthError('not logged in: no profile and no credentials in the environment');
  if (missing.length) {
    throw new AuthError(`missing ${missing.join(', ')}${profileName ? ` in profile '${profileName}'` : ''}`);
  }

  const baseUrl = givenBaseUrl(ctx, named === undefined) ??
    ofProfile(profile?.baseUrl) ?? { value: DEFAULT_BASE_URL, source: 'the default' };
  return {
    profile: profileName,
    baseUrl: checkBaseUrl(baseUrl.value, describeSource(baseUrl.source, 'base URL'), allowHttp(ctx)),
    enterpriseId: checkEnterpriseId(enterpriseId!.value, describeSource(enterpriseId!.source, 'enterprise id')),
    apiKey: checkKey(apiKey!.value, 'API key', apiKey!.source),
    subscriptionKey: checkKey(subscriptionKey!.value, 'subscription key', subscriptionKey!.source),
    sources: {
      baseUrl: baseUrl.source,
      enterpriseId: enterpriseId!.source,
      apiKey: apiKey!.source,
      subscriptionKey: subscriptionKey!.source,
    },
  };
}

/** "the enterprise id of profile 'prod'" for a profile's value; the flag or variable name otherwise. */
function describeSource(source: Source, what: string): string {
  return source.startsWith('profile ') ? `the ${what} of ${source}` : source;
}

/** How to store a profile's keys again, for messages. */
export function loginAgain(name: string): string {
  return `log in again: cip auth login --profile ${name}`;
}

/** A keychain profile's keys; exit 3 when its entry is gone or the keychain cannot be read. */
export async function keychainKeys(keychain: Keychain, name: string, profile: KeychainProfile): Promise<StoredKeys> {
  const entry = profileEntry(name, profile);
  let keys: StoredKeys | undefined;
  try {
    [keys] = await keychain.read([entry]);
  } catch (error) {
    if (!(error instanceof KeychainError)) throw error;
    // What to do first; the keychain's own words (a D-Bus message on a server) last.
    throw new AuthError(
      `cannot read the keys of profile '${name}' from the keychain: unlock it and try again; where there is none, give CIP_API_KEY and CIP_SUBSCRIPTION_KEY, or log in with --insecure-storage`,
      `cause: ${error.reason}`,
    );
  }
  if (!keys) {
    throw new AuthError(`the keys of profile '${name}' are gone from the keychain (${describeEntry(entry)})`, loginAgain(name));
  }
  return keys;
}
