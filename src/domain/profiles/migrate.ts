// `cip auth login --migrate`: moves the keys a profile keeps in the config file into the keychain.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { KeychainError, describeEntry, profileEntry, type StoredKeys } from '../../config/store/keychain.js';
import { secretsIn } from '../../config/credentials/credential.js';
import { inKeychain, profileKind, type Profile, getProfile, requireProfile } from '../../config/store.js';
import { checkProfileName } from '../../config/validate.js';
import { setProfile } from './save.js';
import { namedProfile } from '../../config/credentials/candidates.js';

/**
 * `--migrate`: the keys a profile keeps in the file go into the keychain. The file changes only after the
 * keychain holds them (written and read back), so a failure at any point leaves the profile as it was. `others`
 * are the options given beside --migrate, which it refuses: it changes nothing but where the keys are.
 */
export async function migrate(ctx: Context, others: readonly string[]): Promise<void> {
  if (others.length) {
    throw new UsageError(
      `--migrate moves the keys a profile has; it takes no ${others.join(', ')}`,
      'log in without --migrate to change them',
    );
  }
  const name = checkProfileName(namedProfile(ctx) ?? 'default');
  const store = await ctx.store();
  const profile = requireProfile(store.read(), name);
  if (inKeychain(profile)) {
    ctx.io.info(`The keys of profile '${name}' are already in the keychain.`);
    return;
  }
  const entry = profileEntry(name, profile);
  const kind = profileKind(profile);
  const keys: StoredKeys = secretsIn(kind, profile);
  try {
    await ctx.keychain().write(entry, keys);
  } catch (error) {
    if (!(error instanceof KeychainError)) throw error;
    throw new UsageError(
      `cannot move the keys of profile '${name}' into the keychain: nothing changed; they are still in ${store.path}`,
      `cause: ${error.reason}`,
    );
  }
  try {
    await store.update((data) => {
      const now = getProfile(data, name);
      if (
        !now ||
        inKeychain(now) ||
        profileKind(now) !== kind ||
        Object.entries(secretsIn(kind, now)).some(([field, value]) => keys[field] !== value) ||
        now.baseUrl !== profile.baseUrl
      ) {
        throw new UsageError(`profile '${name}' changed while its keys were being moved; nothing changed`, 'run the command again');
      }
      // Whatever else the profile holds stays as it is.
      const moved = Object.fromEntries(Object.entries({ ...now, keys: 'keychain' }).filter(([field]) => !Object.hasOwn(keys, field)));
      setProfile(data, name, moved as unknown as Profile);
    });
  } catch (error) {
    // The file still holds the keys and is what cip reads: the copy in the keychain goes.
    await ctx
      .keychain()
      .remove(entry)
      .catch(() => undefined);
    throw error;
  }
  ctx.io.info(`Moved the keys of profile '${name}' into the keychain (${describeEntry(entry)}); ${store.path} holds them no more.`);
}
