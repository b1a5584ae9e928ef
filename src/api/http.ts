// The one HTTP client of a run: ky with the base URL, the three auth headers, a timeout, retries for
// idempotent methods only, and failures turned into typed errors. Nothing else in cip imports ky.
import type { KyInstance } from 'ky';
import type { Context } from '../context.js';
import type { ResolvedSettings } from '../config/settings.js';
import { ApiError, CipError, InterruptedError, NetworkError, ProtocolError } from '../errors.js';
import { oneLine, truncate } from '../text/sanitize.js';
import { errorMessageFromBody } from './error-body.js';
import { useProxyFromEnv } from './proxy.js';

const RETRY_LIMIT = 2;
const RETRY_STATUS = [408, 429, 500, 502, 503, 504];
/** POST is never retried: a retried create can duplicate an environment. */
const RETRY_METHODS = ['get', 'put', 'delete'];
const SECRET_HEADERS = new Set(['authorization', 'ocp-apim-subscription-key']);
const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

export interface Http {
  /** With readBody false the answer's body is not parsed: a call whose result cip does not use. */
  /** The parsed JSON body of a 2xx answer, or undefined for an empty one. */
  request(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, what: string, body?: unknown, readBody?: boolean): Promise<unknown>;
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  CERT_HAS_EXPIRED: 'the server certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the server certificate is self-signed (set NODE_EXTRA_CA_CERTS to trust it)',
  SELF_SIGNED_CERT_IN_CHAIN: 'a certificate in the chain is self-signed (set NODE_EXTRA_CA_CERTS for a corporate CA)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the server certificate cannot be verified (set NODE_EXTRA_CA_CERTS for a corporate CA)',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the server certificate does not match the host name',
};

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Certificate problems do not go away by asking again. */
function isCertificateError(error: unknown): boolean {
  const code = errorCode(error) ?? '';
  return /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code);
}

function networkReason(error: unknown): string {
  const code = errorCode(error);
  if (code) return NETWORK_CODES[code] ? `${NETWORK_CODES[code]} (${code})` : code;
  const message = error instanceof Error ? error.message : String(error);
  return message === 'terminated' ? 'connection closed before the answer was complete' : message;
}

function statusSummary(status: number): string {
  if (status === 401) return 'the API rejected the credentials';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not found';
  if (status >= 400 && status < 500) return 'the API rejected the request';
  return 'the API failed';
}

function statusHint(status: number, settings: ResolvedSettings): string | undefined {
  if (status === 401) {
    return settings.profile
      ? `check the keys of profile '${settings.profile}' with 'cip auth login --profile ${settings.profile}'`
      : "check the keys, or run 'cip auth login'";
  }
  if (status === 403) return 'the API key lacks permission for this operation or enterprise';
  if (status === 429) return 'too many requests; try again later';
  return undefined;
}

export async function createHttp(ctx: Context, settings: ResolvedSettings): Promise<Http> {
  const { default: ky, HTTPError, TimeoutError } = await import('ky');
  await useProxyFromEnv(ctx.env);
  ctx.addSecret(settings.apiKey);
  ctx.addSecret(settings.subscriptionKey);
  const redact = (text: string) => ctx.redact(text);
  const { verbose, timeout } = ctx.globals;
  const log = (line: string) => ctx.io.stderr.write(`${redact(line)}\n`);
  const host = new URL(settings.baseUrl).host;

  // Reading the body inside fetch puts it under ky's timeout and lets ky retry a body cut off mid-way.
  const bufferedFetch = async (input: Request | URL | string, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const started = performance.now();
    if (verbose) {
      log(`> ${request.method} ${request.url}`);
      for (const [name, value] of request.headers) log(`>   ${name}: ${SECRET_HEADERS.has(name) ? '***' : value}`);
    }
    try {
      const response = await fetch(request, { redirect: 'manual' });
      const body = NULL_BODY_STATUS.has(response.status) ? null : await response.arrayBuffer();
      if (verbose) {
        log(`< ${response.status} ${response.statusText} (${Math.round(performance.now() - started)} ms, ${body?.byteLength ?? 0} bytes)`);
      }
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    } catch (error) {
      if (verbose) log(`< failed after ${Math.round(performance.now() - started)} ms: ${networkReason(error)}`);
      throw error;
    }
  };

  const client: KyInstance = ky.create({
    prefixUrl: settings.baseUrl,
    timeout: timeout * 1000,
    signal: ctx.signal,
    fetch: bufferedFetch,
    headers: {
      Authorization: `ApiKey ${settings.apiKey}`,
      'Ocp-Apim-Subscription-Key': settings.subscriptionKey,
      EnterpriseId: settings.enterpriseId,
      Accept: 'application/json',
      'User-Agent': `cip/${ctx.version} node/${process.version}`,
    },
    retry: {
      limit: RETRY_LIMIT,
      methods: RETRY_METHODS,
      statusCodes: RETRY_STATUS,
      afterStatusCodes: [413, 429, 503],
      maxRetryAfter: 30_000,
      backoffLimit: 5_000,
      shouldRetry: ({ error }) => (isCertificateError(error) ? false : undefined),
    },
    hooks: verbose
      ? {
          beforeRetry: [
            ({ error, retryCount }) => {
              const reason = error instanceof HTTPError ? `HTTP ${error.response.status}` : networkReason(error);
              log(`  retry ${retryCount} of ${RETRY_LIMIT} after ${reason}`);
            },
          ],
        }
      : {},
  });

  const fail = async (error: unknown, what: string): Promise<never> => {
    if (error instanceof CipError) throw error;
    if (ctx.signal.aborted) throw new InterruptedError();
    if (error instanceof HTTPError) {
      const { status } = error.response;
      if (status >= 300 && status < 400) {
        const location = error.response.headers.get('location');
        throw new ProtocolError(
          redact(`cannot ${what}: the API answered with a redirect (HTTP ${status})${location ? ` to ${truncate(oneLine(location), 200)}` : ''}`),
          'cip does not follow redirects, so the keys go only to the base URL you chose; check --base-url',
        );
      }
      const body = await error.response.text().catch(() => '');
      const message = errorMessageFromBody(body, error.response.headers.get('content-type') ?? '');
      throw new ApiError(
        status,
        redact(`cannot ${what}: ${statusSummary(status)} (HTTP ${status})${message ? `: ${message}` : ''}`),
        statusHint(status, settings),
      );
    }
    if (error instanceof TimeoutError) {
      throw new NetworkError(`cannot ${what}: no answer from ${host} within ${timeout}s`, 'raise --timeout, or check the network');
    }
    throw new NetworkError(redact(`cannot ${what}: cannot reach ${host}: ${networkReason(error)}`));
  };

  return {
    async request(method, path, what, body, readBody = true) {
      let response: Response;
      try {
        response = await client(path, { method, json: body });
      } catch (error) {
        return fail(error, what);
      }
      const text = readBody ? await response.text() : '';
      if (text.trim() === '') return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new ProtocolError(`cannot ${what}: the API answered HTTP ${response.status} with a body that is not valid JSON`);
      }
    },
  };
}
