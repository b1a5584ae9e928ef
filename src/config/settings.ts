// Which profile, base URL, enterprise and keys a command uses. Per value: flag > environment > profile > default.
// With all three credentials in the environment and no profile named, the profile store is not even opened.
import type { Context } from '../context.js';
import { isTruthyEnv } from '../context.js';
import { AuthError, UsageError } from '../errors.js';
import type { Profile, StoreData } from './store.js';
import { DEFAULT_BASE_URL, checkBaseUrl, checkEnterpriseId } from './validate.js';

export interface ResolvedSettings {
  /** The profile the values came from, if one was used. */
  profile: string | undefined;
  baseUrl: string;
  enterpriseId: string;
  apiKey: string;
  subscriptionKey: string;
}

export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

export interface Given {
  value: string;
  /** Where it came from, for error messages: the flag or the variable. */
  source: string;
}

/** The base URL and enterprise id given on the command line or, failing that, in the environment. */
export function givenBaseUrl(ctx: Context): Given | undefined {
  return given(ctx.globals.baseUrl, '--base-url', ctx.env, 'CIP_BASE_URL');
}

export function givenEnterpriseId(ctx: Context): Given | undefined {
  return given(ctx.globals.enterpriseId, '--enterprise-id', ctx.env, 'CIP_ENTERPRISE_ID');
}

function given(flag: string | undefined, flagName: string, env: Context['env'], variable: string): Given | undefined {
  if (nonEmpty(flag)) return { value: flag!, source: flagName };
  if (nonEmpty(env[variable])) return { value: env[variable]!, source: variable };
  return undefined;
}

/** The profile a command names (flag or CIP_PROFILE), if any. */
export function namedProfile(ctx: Context): string | undefined {
  return nonEmpty(ctx.globals.profile) ?? nonEmpty(ctx.env.CIP_PROFILE);
}

/** The profile to use: the named one, else the active one, else one called 'default'. */
export function pickProfile(data: StoreData, named: string | undefined): string | undefined {
  if (named) {
    if (!data.profiles[named]) {
      const known = Object.keys(data.profiles);
      throw new UsageError(
        `unknown profile '${named}'`,
        known.length ? `known profiles: ${known.join(', ')}` : `run 'cip auth login --profile ${named}' to create it`,
      );
    }
    return named;
  }
  if (data.activeProfile && data.profiles[data.activeProfile]) return data.activeProfile;
  return data.profiles.default ? 'default' : undefined;
}

export function allowHttp(ctx: Context): boolean {
  return isTruthyEnv(ctx.env.CIP_ALLOW_HTTP);
}

export async function resolveSettings(ctx: Context): Promise<ResolvedSettings> {
  const { env } = ctx;
  const named = namedProfile(ctx);
  const givenEnterprise = givenEnterpriseId(ctx);
  const fromEnv = {
    apiKey: nonEmpty(env.CIP_API_KEY),
    subscriptionKey: nonEmpty(env.CIP_SUBSCRIPTION_KEY),
    enterpriseId: givenEnterprise?.value,
  };
  let profileName: string | undefined;
  let profile: Profile | undefined;
  if (named || !(fromEnv.apiKey && fromEnv.subscriptionKey && fromEnv.enterpriseId)) {
    const data = (await ctx.store()).read();
    profileName = pickProfile(data, named);
    profile = profileName ? data.profiles[profileName] : undefined;
  }

  const apiKey = fromEnv.apiKey ?? profile?.apiKey;
  const subscriptionKey = fromEnv.subscriptionKey ?? profile?.subscriptionKey;
  const enterpriseId = fromEnv.enterpriseId ?? profile?.enterpriseId;
  const missing = [
    apiKey ? undefined : 'API key (CIP_API_KEY)',
    subscriptionKey ? undefined : 'subscription key (CIP_SUBSCRIPTION_KEY)',
    enterpriseId ? undefined : 'enterprise id (CIP_ENTERPRISE_ID)',
  ].filter((item): item is string => item !== undefined);
  if (missing.length === 3) throw new AuthError('not logged in: no profile and no credentials in the environment');
  if (missing.length) {
    throw new AuthError(`missing ${missing.join(', ')}${profileName ? ` in profile '${profileName}'` : ''}`);
  }

  const baseUrl = givenBaseUrl(ctx) ?? { value: profile?.baseUrl ?? DEFAULT_BASE_URL, source: 'the profile base URL' };
  return {
    profile: profileName,
    baseUrl: checkBaseUrl(baseUrl.value, baseUrl.source, allowHttp(ctx)),
    enterpriseId: checkEnterpriseId(enterpriseId!, givenEnterprise?.source ?? `the enterprise id of profile '${profileName}'`),
    apiKey: apiKey!.trim(),
    subscriptionKey: subscriptionKey!.trim(),
  };
}
