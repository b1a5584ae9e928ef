// Logging in again to a profile that exists keeps what the login does not give: its secrets (read from the file
// or the keychain), its base URL and enterprise id, where its keys are kept, and its protected mark (save.ts).
// So the hint for an expired token, `cip auth login --profile P --token-file -`, works as printed in a pipe:
// nothing is asked for that the profile already has.
import type { Context } from '../../context.js';
import { AuthError } from '../../errors.js';
import { OWN_SECRET, secretsIn, type CredentialKind } from '../../config/credentials/credential.js';
import { inKeychain, profileKind, type Profile } from '../../config/store.js';
import { DEFAULT_BASE_URL } from '../../config/validate.js';
import { keychainKeys } from '../../config/store/keychain.js';

/** What a login gives: each value undefined where it gives none. */
export interface LoginGiven {
  own: string | undefined;
  subscriptionKey: string | undefined;
}

/** The secrets a login takes from the profile it replaces: what it was not given, and is of the same kind and host. */
export interface Kept {
  own?: string;
  subscriptionKey?: string;
}

/** The secrets a profile keeps, from the file or its keychain entry; undefined (said as a warning) when they cannot be read. */
async function storedSecrets(
  ctx: Context,
  name: string,
  profile: Profile,
): Promise<Readonly<Record<string, string | undefined>> | undefined> {
  if (!inKeychain(profile)) return secretsIn(profileKind(profile), profile);
  try {
    return await keychainKeys(ctx.keychain(), name, profile);
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    ctx.io.warn(`${error.message}: what this login does not give must be given again`);
    return undefined;
  }
}

/**
 * The secrets to keep from `existing`, a profile of `name` that a login of `kind` at `baseUrl` replaces. Keys go
 * only to the host they were stored for: a base URL on another host keeps none (said as a warning).
 */
export async function keptSecrets(
  ctx: Context,
  name: string,
  existing: Profile,
  { kind, baseUrl }: { kind: CredentialKind; baseUrl: string },
  given: LoginGiven,
): Promise<Kept> {
  const keepOwn = given.own === undefined && profileKind(existing) === kind;
  const keepSubscription = given.subscriptionKey === undefined;
  if (!keepOwn && !keepSubscription) return {};
  const before = new URL(existing.baseUrl ?? DEFAULT_BASE_URL).origin;
  if (before !== new URL(baseUrl).origin) {
    ctx.io.warn(`the keys of profile '${name}' are for ${before}: they are not kept for ${new URL(baseUrl).origin}`);
    return {};
  }
  const stored = await storedSecrets(ctx, name, existing);
  const own = keepOwn ? stored?.[OWN_SECRET[kind].field] : undefined;
  const subscriptionKey = keepSubscription ? stored?.subscriptionKey : undefined;
  return { ...(own === undefined ? {} : { own }), ...(subscriptionKey === undefined ? {} : { subscriptionKey }) };
}
