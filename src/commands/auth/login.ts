import type { Context } from '../../context.js';
import { ApiError, CipError, UsageError, withHint } from '../../errors.js';
import { allowHttp, getProfile, givenBaseUrl, givenEnterpriseId, namedProfile, nonEmpty, profileSource } from '../../config/settings.js';
import { DEFAULT_BASE_URL, SECRETS_URL, checkBaseUrl, checkEnterpriseId, checkKey, checkProfileName } from '../../config/validate.js';
import { printable } from '../../text/sanitize.js';
import { createEnvironmentsApi } from '../../api/environments.js';
import { readInput } from '../io.js';
import { ask, askHidden } from '../prompt.js';
import { withSpinner } from '../spinner.js';

export interface LoginOptions {
  apiKeyFile?: string;
  subscriptionKeyFile?: string;
  verify: boolean;
}

async function readKey(ctx: Context, path: string, flag: string, what: string): Promise<string> {
  const key = (await readInput(ctx, path, flag)).trim();
  if (!key) throw new UsageError(`${flag} ${path === '-' ? '(stdin)' : printable(path)} is empty`);
  return checkKey(key, what, `${flag} ${path === '-' ? '(stdin)' : printable(path)}`);
}

/** Asks for a key without echoing it; a key that is not valid is said and asked again. */
async function askKey(ctx: Context, what: string): Promise<string | undefined> {
  const answer = nonEmpty(await askHidden(ctx, `${what[0]!.toUpperCase()}${what.slice(1)} (hidden): `));
  if (answer === undefined) return undefined;
  try {
    return checkKey(answer, what, 'the prompt');
  } catch (error) {
    if (!(error instanceof CipError)) throw error;
    ctx.io.stderr.write(`${error.message}\n`);
    return undefined;
  }
}

export async function login(ctx: Context, options: LoginOptions): Promise<void> {
  const { env } = ctx;
  const name = checkProfileName(namedProfile(ctx) ?? 'default');
  if (options.apiKeyFile === '-' && options.subscriptionKeyFile === '-') {
    throw new UsageError('only one of --api-key-file and --subscription-key-file can read stdin');
  }
  const store = await ctx.store();
  // Read first: a broken config file stops us before we ask for anything.
  const existing = getProfile(store.read(), name);

  // The variables are inputs for the profile being stored, whichever profile that is.
  const givenUrl = givenBaseUrl(ctx, true);
  const baseUrl = checkBaseUrl(givenUrl?.value ?? existing?.baseUrl ?? DEFAULT_BASE_URL, givenUrl?.source ?? 'the base URL', allowHttp(ctx));
  const givenEnterprise = givenEnterpriseId(ctx, true);
  let enterpriseId = givenEnterprise ? checkEnterpriseId(givenEnterprise.value, givenEnterprise.source) : existing?.enterpriseId;
  const fromEnv = (variable: string, what: string) => {
    const value = nonEmpty(env[variable]);
    return value === undefined ? undefined : checkKey(value, what, variable);
  };
  let apiKey = options.apiKeyFile !== undefined
    ? await readKey(ctx, options.apiKeyFile, '--api-key-file', 'API key')
    : fromEnv('CIP_API_KEY', 'API key');
  let subscriptionKey = options.subscriptionKeyFile !== undefined
    ? await readKey(ctx, options.subscriptionKeyFile, '--subscription-key-file', 'subscription key')
    : fromEnv('CIP_SUBSCRIPTION_KEY', 'subscription key');

  const missing = [
    enterpriseId ? undefined : 'enterprise id (--enterprise-id or CIP_ENTERPRISE_ID)',
    apiKey ? undefined : 'API key (--api-key-file or CIP_API_KEY)',
    subscriptionKey ? undefined : 'subscription key (--subscription-key-file or CIP_SUBSCRIPTION_KEY)',
  ].filter((item): item is string => item !== undefined);
  if (missing.length) {
    if (!ctx.canPrompt) {
      throw new UsageError(`missing ${missing.join(', ')}`, `there is no terminal to ask; find your keys at ${SECRETS_URL}`);
    }
    ctx.io.stderr.write(`Find your API key and subscription key at ${SECRETS_URL}\n`);
    while (!enterpriseId) {
      const answer = await ask(ctx, 'Enterprise id (GUID): ');
      try {
        enterpriseId = checkEnterpriseId(answer, 'the enterprise id');
      } catch (error) {
        if (!(error instanceof CipError)) throw error;
        ctx.io.stderr.write(`${error.message}\n`);
      }
    }
    while (!apiKey) apiKey = await askKey(ctx, 'API key');
    while (!subscriptionKey) subscriptionKey = await askKey(ctx, 'subscription key');
  }
  const profile = { baseUrl, enterpriseId: enterpriseId!, apiKey: apiKey!, subscriptionKey: subscriptionKey! };
  ctx.addSecret(profile.apiKey);
  ctx.addSecret(profile.subscriptionKey);

  if (options.verify) {
    const stored = profileSource(name);
    const sources = { baseUrl: stored, enterpriseId: stored, apiKey: stored, subscriptionKey: stored };
    const api = await createEnvironmentsApi(ctx, { profile: name, ...profile, sources });
    try {
      await withSpinner(ctx, 'Checking the keys', () => api.list());
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) {
        ctx.warn('the keys were accepted, but they may not list environments (HTTP 403)');
      } else if (error instanceof CipError) {
        throw withHint(error, `nothing was saved; check the keys at ${SECRETS_URL}, or pass --no-verify to save them unchecked`);
      } else {
        throw error;
      }
    }
  }

  let active = false;
  await store.update((data) => {
    Object.defineProperty(data.profiles, name, { value: profile, enumerable: true, writable: true, configurable: true });
    if (data.activeProfile === undefined || !getProfile(data, data.activeProfile)) data.activeProfile = name;
    active = data.activeProfile === name;
  });
  ctx.info(
    `Logged in: profile '${name}' (enterprise ${profile.enterpriseId}, ${baseUrl})${active ? ' is active.' : ` saved; make it active with 'cip auth switch ${name}'.`}`,
  );
}
