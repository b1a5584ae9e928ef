// Builds the HTTP client for resolved settings: the three headers every call carries, the proxy the
// environment names, the answer-size limit, and a 401 hint that names where the keys came from.
import type { Env } from '../env.js';
import type { CREDENTIAL_HEADERS } from '../config/credentials.js';
import { profileSource, type ResolvedSettings } from '../config/settings.js';
import { UsageError } from '../errors.js';
import { printable } from '../text/sanitize.js';
import { DEFAULT_MAX_ANSWER_BYTES, createHttp, type Http, type HttpOptions } from './http.js';
import { proxyFor } from './proxy.js';

export interface ConnectOptions extends Pick<HttpOptions, 'timeout' | 'signal' | 'log' | 'redact'> {
  env: Env;
  userAgent: string;
}

export function authHeaders(settings: ResolvedSettings): Record<(typeof CREDENTIAL_HEADERS)[number], string> {
  return {
    Authorization: `ApiKey ${settings.apiKey}`,
    'Ocp-Apim-Subscription-Key': settings.subscriptionKey,
    EnterpriseId: settings.enterpriseId,
  };
}

/** The largest answer cip reads, decoded: CIP_MAX_ANSWER_BYTES, else 256 MiB. */
function maxAnswerBytesFrom(env: Env): number {
  const value = env.CIP_MAX_ANSWER_BYTES?.trim();
  if (!value) return DEFAULT_MAX_ANSWER_BYTES;
  const bytes = Number(value);
  if (!Number.isSafeInteger(bytes) || bytes < 1)
    throw new UsageError(`CIP_MAX_ANSWER_BYTES must be a whole number of bytes, not '${printable(value)}'`);
  return bytes;
}

/** Names where the keys came from, so the user fixes the right thing. */
function keysHint(settings: ResolvedSettings): string {
  const { apiKey, subscriptionKey } = settings.sources;
  if (settings.profile !== undefined && apiKey === profileSource(settings.profile) && subscriptionKey === apiKey) {
    return `check the keys of profile '${settings.profile}'; 'cip auth login --profile ${settings.profile}' replaces them`;
  }
  if (apiKey.startsWith('CIP_') && subscriptionKey.startsWith('CIP_')) {
    return `check ${apiKey} and ${subscriptionKey}: the keys came from the environment`;
  }
  return `check the keys: the API key came from ${apiKey}, the subscription key from ${subscriptionKey}`;
}

export async function connect(settings: ResolvedSettings, { env, userAgent, ...options }: ConnectOptions): Promise<Http> {
  return createHttp({
    ...options,
    baseUrl: settings.baseUrl,
    headers: { ...authHeaders(settings), 'User-Agent': userAgent },
    maxAnswerBytes: maxAnswerBytesFrom(env),
    proxy: await proxyFor(env, new URL(settings.baseUrl)),
    authHint: keysHint(settings),
  });
}
