// The one HTTP client of a run: ky with the base URL, the three auth headers, a timeout, retries for
// idempotent methods only, and failures turned into typed errors. Nothing else in cip imports ky.
import type { KyInstance } from 'ky';
import { isSecretHeader } from '../config/credentials.js';
import { ApiError, CipError, InterruptedError, NetworkError, ProtocolError, statusSummary } from '../errors.js';
import { JsonTooDeepError, parseExactJson, stringifyExactJson } from '../json/exact.js';
import { hideCredentials, oneLine, truncate } from '../text/sanitize.js';
import { errorMessageFromBody } from './error-body.js';
import type { ProxyChoice } from './proxy.js';
import { BrokenAnswer, causeChain, errorCode, handshakeFailure, headersToSend, nodeTransport, type Transport } from './transport.js';
import { requestUrl } from './url.js';

const RETRY_LIMIT = 2;
const RETRY_STATUS = [408, 429, 500, 502, 503, 504];
/** POST is never retried: a retried create can duplicate an environment. */
const RETRY_METHODS = ['get', 'put', 'delete'];

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** What `cip api` may send. */
export type AnyMethod = Method | 'PATCH' | 'HEAD' | 'OPTIONS';

/** A 2xx answer as it came: status line, headers and the body's bytes (for `cip api`). */
export interface RawAnswer {
  status: number;
  /** The reason phrase as the server sent it (cleaned of nothing: the caller shows it). */
  statusText: string;
  /** '1.1', '1.0': the version in the answer's status line. */
  httpVersion: string;
  headers: Headers;
  body: Uint8Array;
}

export interface RawRequest {
  /** Sent as it is, with the Content-Type given in headers (JSON when none). */
  body?: string;
  /** Extra headers; the three auth headers are not among them (the caller checks). */
  headers?: Record<string, string>;
}

/** A 2xx answer: its parsed JSON body (numbers exact; undefined when empty or not read) and its headers. */
export interface Answer {
  data: unknown;
  headers: Headers;
}

export interface Http {
  /**
   * The parsed JSON body of a 2xx answer (numbers exact), or undefined for an empty one. With readBody
   * false the answer's body is not parsed: a call whose result cip does not use.
   */
  request(method: Method, path: string, what: string, body?: unknown, readBody?: boolean): Promise<unknown>;
  /**
   * The whole answer. `target` is a path below the base URL or an absolute URL on its origin (api/url.ts:
   * anything else is refused before it is sent).
   */
  send(method: Method, target: string, what: string, body?: unknown, readBody?: boolean): Promise<Answer>;
  /** Any method, any body, the answer's bytes untouched: what `cip api` needs. POST and PATCH are never retried. */
  exchange(method: AnyMethod, target: string, what: string, request?: RawRequest): Promise<RawAnswer>;
}

/** How much of a body --verbose shows: the rest is cut, with its size said. */
export const VERBOSE_BODY_CHARS = 2000;

/** A body for --verbose: redacted whole, before it is cut, so a key at the cut cannot show in part. */
function bodyForLog(body: Uint8Array, redact: (text: string) => string): string {
  const text = new TextDecoder().decode(body);
  const redacted = redact(text);
  return oneLine(
    redacted.length > VERBOSE_BODY_CHARS ? `${redacted.slice(0, VERBOSE_BODY_CHARS)}… (${text.length} characters in all)` : redacted,
  );
}

/** Failures that prove the request never reached the server: a retry after them cannot meet its own effect. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

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

/** Certificate problems, and a handshake the two sides cannot agree on, do not go away by asking again. */
function isCertificateError(error: unknown): boolean {
  const code = errorCode(error) ?? '';
  return /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code) || handshakeFailure(error) !== undefined;
}

/** Whether the request certainly never left: no connection, or no TLS session to send it on. */
function notSent(error: unknown): boolean {
  return NOT_SENT_CODES.has(errorCode(error) ?? '') || handshakeFailure(error) !== undefined;
}

function networkReason(error: unknown): string {
  const code = errorCode(error);
  if (code) return NETWORK_CODES[code] ? `${NETWORK_CODES[code]} (${code})` : code;
  const message = error instanceof Error ? error.message : String(error);
  return message === 'terminated' ? 'connection closed before the answer was complete' : message;
}

/** The largest answer cip reads, decoded, unless CIP_MAX_ANSWER_BYTES says otherwise (api/connect.ts). */
export const DEFAULT_MAX_ANSWER_BYTES = 256 * 1024 * 1024;

// Headers ky reads for how long to wait before a retry.
const RETRY_AFTER_HEADERS = ['retry-after', 'ratelimit-reset', 'x-ratelimit-retry-after', 'x-ratelimit-reset', 'x-rate-limit-reset'];

/** Headers without a wait that means nothing ('soon'): ky would wait its maximum; normal backoff applies instead. */
function withUsableRetryAfter(headers: Headers): Headers {
  if (!RETRY_AFTER_HEADERS.some((name) => headers.has(name))) return headers;
  const usable = new Headers(headers);
  for (const name of RETRY_AFTER_HEADERS) {
    const value = usable.get(name)?.trim();
    if (value !== undefined && !/^\d+(\.\d+)?$/.test(value) && Number.isNaN(Date.parse(value))) usable.delete(name);
  }
  return usable;
}

/** The status a proxy answered a CONNECT with, when that is why the request failed. */
function proxyStatus(error: unknown): number | undefined {
  for (const cause of causeChain(error)) {
    const status = /Proxy response \((\d{3})\)/.exec(cause instanceof Error ? cause.message : '')?.[1];
    if (status) return Number(status);
  }
  return undefined;
}

/** A failure on the way through a proxy, blamed on the proxy (by its URL without credentials), not the API. */
function proxyFailure(error: unknown, what: string, proxy: ProxyChoice, host: string, maybeDone: string | undefined): NetworkError {
  const status = proxyStatus(error);
  if (status === 407) {
    return new NetworkError(
      `cannot ${what}: the proxy at ${proxy.display} asks for authentication (HTTP 407)`,
      `put credentials in ${proxy.variable}: ${proxy.url.protocol}//USER:PASSWORD@${proxy.url.host}`,
    );
  }
  if (status === 403) {
    return new NetworkError(
      `cannot ${what}: the proxy at ${proxy.display} refused to connect to ${host} (HTTP 403)`,
      `ask the proxy's administrators, or list the host in NO_PROXY`,
    );
  }
  if (status !== undefined)
    return new NetworkError(`cannot ${what}: the proxy at ${proxy.display} could not connect to ${host} (HTTP ${status})`, maybeDone);
  // With a proxy, every connection goes to the proxy: one that cannot be opened is the proxy's fault.
  if (NOT_SENT_CODES.has(errorCode(error) ?? '')) {
    return new NetworkError(`cannot ${what}: cannot reach the proxy at ${proxy.display} (from ${proxy.variable}): ${networkReason(error)}`);
  }
  return new NetworkError(`cannot ${what}: cannot reach ${host} through the proxy at ${proxy.display}: ${networkReason(error)}`, maybeDone);
}

export interface HttpOptions {
  baseUrl: string;
  /** Sent with every request (the three auth headers, the User-Agent). */
  headers: Record<string, string>;
  /** Seconds to wait for each answer. */
  timeout: number;
  /** Aborts every request (Ctrl-C). */
  signal: AbortSignal;
  /** --verbose: a line per request, response and retry; keys are shown as ***. */
  log?: ((line: string) => void) | undefined;
  /**
   * Replaces keys in the messages of errors and in --verbose bodies. Answers' data is never redacted here: it
   * stays exact (a PUT sends back what was read); the writer redacts what it prints.
   */
  redact: (text: string) => string;
  /** The proxy to go through, if any (api/proxy.ts chooses it). */
  proxy?: ProxyChoice | undefined;
  maxAnswerBytes?: number;
  /** The hint for a 401: where the keys came from, so the user fixes the right thing. */
  authHint?: string | undefined;
}

export async function createHttp({
  baseUrl,
  headers,
  timeout,
  signal,
  log,
  redact,
  proxy,
  maxAnswerBytes = DEFAULT_MAX_ANSWER_BYTES,
  authHint,
}: HttpOptions): Promise<Http> {
  const { default: ky, HTTPError, TimeoutError } = await import('ky');
  // fetch, and undici's proxy agent with it, only when a proxy applies: node:http costs far less.
  const transport: Transport = proxy
    ? await (await import('./proxy.js')).proxyTransport(proxy, maxAnswerBytes)
    : nodeTransport(maxAnswerBytes);
  const host = new URL(baseUrl).host;

  const successBodies = new WeakMap<Response, Uint8Array>();
  /** A success's body, let go of at once: a 40 MB list is not kept in bytes while it is parsed. */
  const takeBytes = (response: Response): Uint8Array => {
    const bytes = successBodies.get(response);
    successBodies.delete(response);
    return bytes ?? new Uint8Array(0);
  };
  const takeText = (response: Response): string => new TextDecoder().decode(takeBytes(response));
  /** The status line's version and reason phrase, which a Response cannot carry (see below). */
  const statusLines = new WeakMap<Response, { httpVersion: string; statusText: string }>();

  // The fetch ky calls. Reading the body inside it puts the body under ky's timeout and lets ky retry a body
  // cut off mid-way.
  const bufferedFetch = async (input: Request | URL | string, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const started = performance.now();
    const sent = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
    if (log) {
      log(`> ${request.method} ${request.url}${proxy ? ` (through the proxy ${proxy.display}, from ${proxy.variable})` : ''}`);
      for (const [name, value] of Object.entries(headersToSend(request.headers, sent)))
        log(`>   ${name}: ${isSecretHeader(name) ? '***' : value}`);
      if (sent) log(`>   body: ${bodyForLog(sent, redact)}`);
    }
    try {
      const { status, statusText, httpVersion, headers, body } = await transport({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: sent,
        signal: request.signal,
      });
      // A status line the API would never send is a broken answer, not a network failure to retry.
      if (status < 200 || status > 599) throw new BrokenAnswer(`the API answered with an invalid HTTP status (${status})`);
      if (log) {
        const reason = oneLine(statusText);
        log(
          `< ${status}${reason ? ` ${truncate(reason, 80)}` : ''} (${Math.round(performance.now() - started)} ms, ${body?.byteLength ?? 0} bytes)`,
        );
        if (body?.byteLength) log(`<   body: ${bodyForLog(body, redact)}`);
      }
      // The reason phrase is left out: it means nothing, and one that the Response constructor dislikes
      // (non-Latin-1 text such as '201 已创建') must not turn a success into a failure.
      const ok = status < 300;
      const response = new Response(ok ? null : body, { status, headers: withUsableRetryAfter(headers) });
      // A success's body travels beside the Response: a web stream around 40 MB of list, read back and
      // decoded, would cost more than the rest of the command.
      if (ok && body) successBodies.set(response, body);
      statusLines.set(response, { httpVersion, statusText });
      return response;
    } catch (error) {
      if (log)
        log(
          `< failed after ${Math.round(performance.now() - started)} ms: ${error instanceof BrokenAnswer ? error.message : networkReason(error)}`,
        );
      throw error;
    }
  };

  const client: KyInstance = ky.create({
    timeout: timeout * 1000,
    signal,
    fetch: bufferedFetch,
    headers: { Accept: 'application/json', ...headers },
    retry: {
      limit: RETRY_LIMIT,
      methods: RETRY_METHODS,
      statusCodes: RETRY_STATUS,
      afterStatusCodes: [413, 429, 503],
      maxRetryAfter: 30_000,
      backoffLimit: 5_000,
      shouldRetry: ({ error }) => {
        // A proxy that refused (407, 403) will refuse again.
        const refusedByProxy = (proxyStatus(error) ?? 500) < 500;
        return isCertificateError(error) || error instanceof BrokenAnswer || refusedByProxy ? false : undefined;
      },
    },
    hooks: log
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

  const fail = async (error: unknown, method: string, what: string, uncertain: boolean): Promise<never> => {
    if (error instanceof CipError) throw error;
    if (signal.aborted) throw new InterruptedError();
    if (error instanceof BrokenAnswer) throw new ProtocolError(`cannot ${what}: ${error.message}`);
    if (error instanceof HTTPError) {
      const { status } = error.response;
      if (status >= 300 && status < 400) {
        const location = error.response.headers.get('location');
        throw new ProtocolError(
          redact(
            `cannot ${what}: the API answered with a redirect (HTTP ${status})${location ? ` to ${truncate(oneLine(hideCredentials(location)), 200)}` : ''}`,
          ),
          'cip does not follow redirects, so the keys go only to the base URL you chose; check --base-url',
        );
      }
      // Redacted before the message is cut short (500 characters), so the cut cannot leave part of a key.
      const body = redact(await error.response.text().catch(() => ''));
      const message = errorMessageFromBody(body, error.response.headers.get('content-type') ?? '');
      throw new ApiError(
        status,
        redact(`cannot ${what}: ${statusSummary(status)} (HTTP ${status})${message ? `: ${message}` : ''}`),
        // A 403's general advice ("the API key lacks permission") would repeat the server's own words.
        status === 401 ? authHint : status === 403 && message ? null : undefined,
        uncertain,
      );
    }
    // A create whose answer never came may still have happened, and is never retried: say so.
    const maybeDone =
      (method === 'POST' || method === 'PATCH') && (error instanceof TimeoutError || !notSent(error))
        ? "the request was sent, so it may have been carried out; check with 'cip env list' before trying again"
        : undefined;
    if (error instanceof TimeoutError) {
      throw new NetworkError(
        `cannot ${what}: no answer from ${host} within ${timeout}s`,
        maybeDone ?? 'raise --timeout, or check the network',
      );
    }
    const handshake = handshakeFailure(error);
    if (handshake) {
      const through = proxy ? ` (through the proxy at ${proxy.display})` : '';
      throw new NetworkError(`cannot ${what}: the TLS handshake with ${host}${through} failed: ${handshake.reason}`, handshake.fix);
    }
    if (proxy) throw proxyFailure(error, what, proxy, host, maybeDone);
    throw new NetworkError(redact(`cannot ${what}: cannot reach ${host}: ${networkReason(error)}`), maybeDone);
  };

  /** One request through ky: retries (for the methods that may be retried), time-out, typed failures. */
  const respond = async (
    method: AnyMethod,
    target: string,
    what: string,
    options: { body?: BodyInit; headers?: Record<string, string> },
  ) => {
    // Whether an earlier attempt may have been carried out although its answer was lost: then a retry
    // can meet that attempt's effect (a DELETE retried after a lost answer finds nothing: 404).
    let uncertain = false;
    const attempt = async (input: Request | URL | string, init?: RequestInit): Promise<Response> => {
      try {
        const response = await bufferedFetch(input, init);
        uncertain ||= response.status >= 500;
        return response;
      } catch (error) {
        uncertain ||= !notSent(error) && !(error instanceof BrokenAnswer);
        throw error;
      }
    };
    // Built and checked here, whoever asked: the keys go with it.
    const url = requestUrl(baseUrl, target).href;
    try {
      return await client(url, {
        method,
        fetch: attempt,
        ...(options.body === undefined ? {} : { body: options.body }),
        ...(options.headers ? { headers: options.headers } : {}),
      });
    } catch (error) {
      return fail(error, method, what, uncertain);
    }
  };

  const send = async (method: Method, target: string, what: string, body?: unknown, readBody = true): Promise<Answer> => {
    const response = await respond(
      method,
      target,
      what,
      body === undefined ? {} : { body: stringifyExactJson(body), headers: { 'Content-Type': 'application/json' } },
    );
    // Exact, keys and all: what is printed is redacted by the writer, and what is sent back must be what was read.
    const text = readBody ? takeText(response) : '';
    if (text.trim() === '') return { data: undefined, headers: response.headers };
    try {
      return { data: await parseExactJson(text), headers: response.headers };
    } catch (error) {
      const problem = error instanceof JsonTooDeepError ? error.message : 'a body that is not valid JSON';
      throw new ProtocolError(`cannot ${what}: the API answered HTTP ${response.status} with ${problem}`);
    }
  };

  return {
    send,
    async request(method, path, what, body, readBody) {
      return (await send(method, path, what, body, readBody)).data;
    },
    async exchange(method, target, what, request = {}) {
      const headers = { ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...request.headers };
      const response = await respond(method, target, what, { ...(request.body === undefined ? {} : { body: request.body }), headers });
      const { httpVersion, statusText } = statusLines.get(response) ?? { httpVersion: '1.1', statusText: '' };
      return { status: response.status, statusText, httpVersion, headers: response.headers, body: takeBytes(response) };
    },
  };
}
