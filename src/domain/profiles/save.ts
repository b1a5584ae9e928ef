// How login writes a profile: its keys into the keychain first, then the file (which then names the keychain
// entry), so that the file never points at keys that are not there. Also used by --migrate (migrate.ts beside it).
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { KeychainError, describeEntry, profileEntry, type KeychainEntry, type StoredKeys } from '../../config/store/keychain.js';
import { inKeychain, type Profile, type ProfileStore, type StoreData, getProfile } from '../../config/store.js';

/** Where login keeps the keys: the keychain unless told otherwise, and then it says why. */
/** A profile's fields beside its keys, by kind (config/store.ts). */
export type ProfileFields = ({ baseUrl: string; enterpriseId: string } | { kind: 'token'; baseUrl: string }) & { protected?: true };

export type Storage = { where: 'keychain' } | { where: 'file'; because: string };

/**
 * Login's answer to a keychain that cannot be used: exit 2. What happened and the ways on come first; the
 * keychain's own words (often a D-Bus message on a server) come last, for whoever has to fix the keychain.
 */
export function noKeychain(error: KeychainError, path: string): UsageError {
  return new UsageError(
    `no usable keychain here: nothing was saved; use --insecure-storage or CIP_CREDENTIAL_STORE=file to keep the keys in plain text in ${path}, or in CI set CIP_API_KEY, CIP_SUBSCRIPTION_KEY and CIP_ENTERPRISE_ID instead of logging in`,
    `cause: ${error.reason}`,
  );
}

/** Sets a profile as the file's own entry: a name like '__proto__' must not reach Object's prototype. */
export function setProfile(data: StoreData, name: string, profile: Profile): void {
  Object.defineProperty(data.profiles, name, { value: profile, enumerable: true, writable: true, configurable: true });
}

/**
 * Writes the profile: into the keychain first, then the file (which then names the keychain), so that the
 * file never points at keys that are not there. Keys the profile had in the keychain under another entry, or
 * that now go to the file, are removed from the keychain afterwards.
 */
export async function save(
  ctx: Context,
  store: ProfileStore,
  name: string,
  storage: Storage,
  fields: ProfileFields,
  keys: StoredKeys,
): Promise<StoreData> {
  const entry = profileEntry(name, fields);
  if (storage.where === 'keychain') {
    try {
      await ctx.keychain().write(entry, keys);
    } catch (error) {
      throw error instanceof KeychainError ? noKeychain(error, store.path) : error;
    }
  }
  let previous: Profile | undefined;
  let saved: StoreData;
  try {
    saved = await store.update((data) => {
      previous = getProfile(data, name);
      // Logging in again keeps a protected profile protected: only 'auth unprotect', which asks, takes it off.
      const kept = previous?.protected === true ? { ...fields, protected: true } : fields;
      setProfile(
        data,
        name,
        (storage.where === 'keychain' ? { ...kept, keys: 'keychain' } : { ...kept, keys: 'file', ...keys }) as Profile,
      );
      if (data.activeProfile === undefined || !getProfile(data, data.activeProfile)) data.activeProfile = name;
    });
  } catch (error) {
    // The file still names the keys it named before; the new entry is taken back unless it was theirs.
    if (storage.where === 'keychain' && !(previous && inKeychain(previous) && sameEntry(profileEntry(name, previous), entry))) {
      await ctx
        .keychain()
        .remove(entry)
        .catch(() => undefined);
    }
    throw error;
  }
  if (previous && inKeychain(previous)) {
    const old = profileEntry(name, previous);
    if (storage.where === 'file' || !sameEntry(old, entry)) await removeOldEntry(ctx, old);
  }
  return saved;
}

function sameEntry(a: KeychainEntry, b: KeychainEntry): boolean {
  return a.service === b.service && a.account === b.account;
}

async function removeOldEntry(ctx: Context, entry: KeychainEntry): Promise<void> {
  try {
    await ctx.keychain().remove(entry);
  } catch (error) {
    if (!(error instanceof KeychainError)) throw error;
    ctx.io.warn(`the profile's old keys are still in the keychain (${describeEntry(entry)}): ${error.reason}`);
  }
}
