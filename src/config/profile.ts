// What the profile store holds: the profiles and which one is active, and the check that a file read has that
// shape. The types and their check live together, so a new kind of profile is added in one place.
import { ConfigError } from '../errors.js';
import { isRecord } from '../json/record.js';

/** A profile whose keys are in this file, in plain text (every profile before the keychain; `keys` absent). */
export interface FileProfile {
  baseUrl?: string;
  enterpriseId: string;
  keys?: 'file';
  apiKey: string;
  subscriptionKey: string;
}

/** A profile whose keys are in the operating system's keychain (config/keychain.ts): none in this file. */
export interface KeychainProfile {
  baseUrl?: string;
  enterpriseId: string;
  keys: 'keychain';
}

export type Profile = FileProfile | KeychainProfile;

export function inKeychain(profile: Profile): profile is KeychainProfile {
  return profile.keys === 'keychain';
}

export interface StoreData {
  activeProfile?: string;
  profiles: Record<string, Profile>;
}

const KEY_FIELDS = ['apiKey', 'subscriptionKey'] as const;

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
    if (typeof fields.enterpriseId !== 'string') throw broken(`profile '${name}' has no enterpriseId`);
    if (fields.keys !== undefined && fields.keys !== 'file' && fields.keys !== 'keychain') {
      throw broken(`profile '${name}' has a bad "keys" (expected "keychain" or "file")`);
    }
    for (const field of KEY_FIELDS) {
      // A keychain profile with keys in the file too would leave the user unsure which are used, and where.
      if (fields.keys === 'keychain' && fields[field] !== undefined)
        throw broken(`profile '${name}' keeps its keys in the keychain but has ${field}`);
      if (fields.keys !== 'keychain' && typeof fields[field] !== 'string') throw broken(`profile '${name}' has no ${field}`);
    }
    if (fields.baseUrl !== undefined && typeof fields.baseUrl !== 'string') throw broken(`profile '${name}' has a bad baseUrl`);
  }
  if (data.activeProfile !== undefined && typeof data.activeProfile !== 'string') throw broken('"activeProfile" is not a string');
  return { ...(data as object), profiles: profiles as Record<string, Profile> };
}
