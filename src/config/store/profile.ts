// What the profile store holds: the profiles and which one is active, and the check that a file read has that
// shape. The types and their check live together, so a new kind of profile is added in one place.
import { ConfigError, UsageError } from '../../errors.js';
import { isRecord } from '../../json/record.js';

/**
 * The kinds of credential a profile holds (config/credentials/credential.ts), and what a profile of each keeps: its
 * secrets (in this file, or as one keychain entry), whether it names an enterprise, and what the kind is called
 * in messages. `kind` is absent from profiles stored before tokens: an API key.
 */
export const KINDS = {
  'api-key': { secrets: ['apiKey', 'subscriptionKey'], enterpriseId: true, called: 'an API key' },
  token: { secrets: ['token', 'subscriptionKey'], enterpriseId: false, called: 'a token' },
} as const;
export type CredentialKind = keyof typeof KINDS;

/** What a profile of each kind holds beside its keys: an API key acts in the enterprise the profile names; a token names none. */
interface ApiKeyFields extends CommonFields {
  kind?: 'api-key';
  enterpriseId: string;
}
interface TokenFields extends CommonFields {
  kind: 'token';
}
/** What a profile of any kind may hold. */
interface CommonFields {
  baseUrl?: string;
  /**
   * Production (`cip auth protect`): a destructive or wide change asks for the profile's name to be typed, or
   * --confirm NAME (domain/profiles/protect.ts). Absent in files written before it: not protected. A cip that
   * predates it reads the file all the same (an unknown field is kept, never refused), but does not ask.
   */
  protected?: boolean;
}

/** A profile whose keys are in this file, in plain text (every profile before the keychain; `keys` absent). */
export type FileProfile =
  | (ApiKeyFields & { keys?: 'file'; apiKey: string; subscriptionKey: string })
  | (TokenFields & { keys?: 'file'; token: string; subscriptionKey: string });

/** A profile whose keys are in the operating system's keychain (config/store/keychain.ts): none in this file. */
export type KeychainProfile = (ApiKeyFields | TokenFields) & { keys: 'keychain' };

export type Profile = FileProfile | KeychainProfile;

export function inKeychain(profile: Profile): profile is KeychainProfile {
  return profile.keys === 'keychain';
}

/** The kind of credential a profile holds. */
export function profileKind(profile: Profile): CredentialKind {
  return profile.kind ?? 'api-key';
}

export interface StoreData {
  activeProfile?: string;
  profiles: Record<string, Profile>;
}

/** Every secret field of any kind: a profile may hold only its own kind's. */
const SECRET_FIELDS = [...new Set(Object.values(KINDS).flatMap((kind) => kind.secrets))];

/**
 * The parsed config file as StoreData, or a ConfigError that names what is wrong. A file of another shape is
 * never reset or rewritten: the user fixes or removes it.
 */
export function checkShape(raw: unknown, path: string): StoreData {
  const broken = (what: string) =>
    new ConfigError(`the config file ${path} is not valid: ${what}`, 'fix or remove it by hand; cip will not overwrite it');
  if (!isRecord(raw)) throw broken('expected a JSON object');
  const data = raw;
  const profiles = data.profiles ?? {};
  if (!isRecord(profiles)) throw broken('"profiles" is not an object');
  for (const [name, profile] of Object.entries(profiles)) {
    if (typeof profile !== 'object' || profile === null) throw broken(`profile '${name}' is not an object`);
    const fields = profile as Record<string, unknown>;
    const kindName = fields.kind === undefined ? 'api-key' : fields.kind;
    if (typeof kindName !== 'string' || !Object.hasOwn(KINDS, kindName)) {
      throw broken(
        `profile '${name}' has a bad "kind" (expected ${Object.keys(KINDS)
          .map((kind) => `"${kind}"`)
          .join(' or ')})`,
      );
    }
    const kind = KINDS[kindName as CredentialKind];
    if (kind.enterpriseId && typeof fields.enterpriseId !== 'string') throw broken(`profile '${name}' has no enterpriseId`);
    // A token acts for whom it says: an enterprise id beside it would look as if it chose one.
    if (!kind.enterpriseId && fields.enterpriseId !== undefined)
      throw broken(`profile '${name}' holds ${kind.called} but has an enterpriseId`);
    if (fields.keys !== undefined && fields.keys !== 'file' && fields.keys !== 'keychain') {
      throw broken(`profile '${name}' has a bad "keys" (expected "keychain" or "file")`);
    }
    const own: readonly string[] = kind.secrets;
    for (const field of SECRET_FIELDS) {
      // Keys of another kind, or a keychain profile with keys in the file too, would leave the user unsure
      // which are used, and where.
      if (!own.includes(field) && fields[field] !== undefined) throw broken(`profile '${name}' holds ${kind.called} but has ${field}`);
      else if (fields.keys === 'keychain' && fields[field] !== undefined)
        throw broken(`profile '${name}' keeps its keys in the keychain but has ${field}`);
      else if (own.includes(field) && fields.keys !== 'keychain' && typeof fields[field] !== 'string')
        throw broken(`profile '${name}' has no ${field}`);
    }
    if (fields.baseUrl !== undefined && typeof fields.baseUrl !== 'string') throw broken(`profile '${name}' has a bad baseUrl`);
    // "false" or 1 would read as protected to one reader and not to another: only a boolean says it.
    if (fields.protected !== undefined && typeof fields.protected !== 'boolean')
      throw broken(`profile '${name}' has a bad "protected" (expected true or false)`);
  }
  if (data.activeProfile !== undefined && typeof data.activeProfile !== 'string') throw broken('"activeProfile" is not a string');
  return { ...(data as object), profiles: profiles as Record<string, Profile> };
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
