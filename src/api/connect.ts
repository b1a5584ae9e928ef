// Builds the HTTP client for resolved settings: the credential's headers every call carries, the proxy the
// environment names, the answer-size limit, and the hints for a 401 and a 403 that name where the keys came from.
import type { Env } from '../env.js';
import { credentialsHint, forbiddenHint } from '../config/credentials/credential.js';
import type { ResolvedSettings } from '../config/credentials/settings.js';
import { UsageError } from '../errors.js';
import { printable } from '../text/sanitize.js';
import { DEFAULT_MAX_ANSWER_BYTES, createHttp, type Http, type HttpOptions } from './http.js';
import { proxyFor } from './proxy.js';

export interface ConnectOptions extends Pick<HttpOptions, 'timeout' | 'signal' | 'log' | 'redact' | 'warn'> {
  env: Env;
  userAgent: string;
  /** The running Node's version (process.version): it decides whether a proxy can be used (api/proxy.ts). */
  nodeVersion: string;
}

/** The headers of the credential in use: ApiKey with an EnterpriseId, or Bearer without one (config/credentials/credential.ts). */
function authHeaders(settings: ResolvedSettings): Readonly<Record<string, string>> {
  return settings.credentials.headers;
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

/** Names where the keys came from, so the user fixes the right thing; in the words of the credential's kind. */
function keysHint(settings: ResolvedSettings): string {
  return credentialsHint(settings.credentials, settings.profile);
}

export async function connect(settings: ResolvedSettings, { env, userAgent, nodeVersion, ...options }: ConnectOptions): Promise<Http> {
  return createHttp({
    ...options,
    baseUrl: settings.baseUrl,
    headers: { ...authHeaders(settings), 'User-Agent': userAgent },
    maxAnswerBytes: maxAnswerBytesFrom(env),
    proxy: await proxyFor(env, new URL(settings.baseUrl), nodeVersion),
    authHint: keysHint(settings),
    forbiddenHint: forbiddenHint(settings.credentials, settings.profile, settings.project),
  });
}
