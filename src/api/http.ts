// The one HTTP client of a run, and the request path put together, a chain of small steps with one job each
// (ARCHITECTURE.md draws it):
//
//   ky: credentials (its beforeRequest hook: step-credentials.ts)
//       retry policy (its retry loop and waits; the decisions: step-retry.ts)
//       → its fetch: log (--verbose: step-log.ts) → status check (chain.ts) → time-out and abort (step-timeout.ts)
//                    → transport (node:http, directly or through the proxy: transport.ts, proxy.ts)
//
// and failures turned into typed errors (failure.ts). Nothing else in cip imports ky.
import type { KyInstance } from 'ky';
import { InexactReadError, ProtocolError } from '../errors.js';
import { JsonTooDeepError, parseExactJson, stringifyExactJson } from '../json/exact.js';
import { decodeText, type DecodedText } from '../text/charset.js';
import { httpStatusOnly, type Bytes, type Layer, type RawAnswer, type Step } from './chain.js';
import { answerFailure, requestFailure, type FailureContext } from './failure.js';
import { networkReason } from './network-errors.js';
import type { ProxyChoice } from './proxy.js';
import { credentialsFor } from './step-credentials.js';
import { logged } from './step-log.js';
import {
  BACKOFF_LIMIT_MS,
  MAX_RETRY_AFTER_MS,
  RETRY_AFTER_STATUS,
  RETRY_LIMIT,
  RETRY_METHODS,
  RETRY_STATUS,
  mayHaveBeenCarriedOut,
  retryAnswer,
  retryError,
} from './step-retry.js';
import { timed } from './step-timeout.js';
import { nodeTransport } from './transport.js';
import { requestUrl } from './url.js';
import { WebRequest, WebResponse, type WebRequestInit } from './web.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** What `cip api` may send. */
export type AnyMethod = Method | 'PATCH' | 'HEAD' | 'OPTIONS';

export interface RawRequest {
  /** Sent as it is, with the Content-Type given in headers (JSON when none). */
  body?: string;
  /** Extra headers; the credential headers are not among them (the caller checks). */
  headers?: Record<string, string>;
  /**
   * Shown the answer that is not a success (the last attempt's), just before it becomes the error thrown:
   * `cip api -i` prints it. The error stays the one every other command gets.
   */
  failed?: ((answer: RawAnswer) => void) | undefined;
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
  send(method: Method, target: string, what: string, body?: unknown, readBody?: boolean, headers?: Record<string, string>): Promise<Answer>;
  /**
   * Any method, any body, a 2xx answer as it came (its body empty, never null): what `cip api` needs. POST and
   * PATCH are never retried.
   */
  exchange(method: AnyMethod, target: string, what: string, request?: RawRequest): Promise<RawAnswer & { body: Bytes }>;
}

/** The largest answer cip reads, decoded, unless CIP_MAX_ANSWER_BYTES says otherwise (api/connect.ts). */
export const DEFAULT_MAX_ANSWER_BYTES = 256 * 1024 * 1024;

export interface HttpOptions {
  baseUrl: string;
  /** Sent with every request to the base URL's origin (the credential headers, the User-Agent). */
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
  /** The hint for a 403: what the credential may lack, and (for an API key) the enterprise and where it came from. */
  forbiddenHint?: string | undefined;
  /** The last step; by default node:http (through the proxy, if any). Tests give their own. */
  transport?: Step | undefined;
  /** A note for people (stderr): an answer cip could not read exactly as text, said once. */
  warn?: ((message: string) => void) | undefined;
}

/** What cip sends: JSON, always UTF-8, and said so (a server must not guess). */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

type KyModule = typeof import('ky');

/**
 * ky's Response for an answer: the status and headers ky decides on, with the whole answer beside them. The body
 * stays out of the Response (a web stream around 40 MB of list, read back, would cost more than the rest of the
 * command), and so does the reason phrase (one the real Response dislikes, such as '201 已创建', must not turn a
 * success into a failure). It is cip's own Response (api/web.ts): the real one would load Node's internal undici
 * into every API command (about a third of `env list`), and the ky cip ships uses the same classes
 * (scripts/build.mjs).
 */
function responseFor(answer: RawAnswer): Response {
  return Object.assign(new WebResponse(null, { status: answer.status, headers: answer.headers }), { answer }) as unknown as Response;
}

/** The answer a Response from `responseFor` carries; ky hands back the Response it was given. */
function answerOf(response: Response): RawAnswer {
  const { answer } = response as Response & { answer?: RawAnswer };
  if (answer) return answer;
  throw new Error('ky handed back a Response that the request path did not make');
}

/** What the steps below ky read of the Request ky gives its fetch: cip's WebRequest, in ky.cjs's own copy (scripts/build.mjs). */
type KyRequest = Pick<Request, 'method' | 'url' | 'headers' | 'signal' | 'arrayBuffer'> & { body: unknown };

/**
 * The steps below ky, as the fetch it calls: ky's Request in, the answer out inside a Response. ky always hands
 * over a Request (its own, which the build makes cip's WebRequest); a URL and init are taken as fetch takes them.
 */
function asFetch(step: Step): (input: Request | URL | string, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const request: KyRequest =
      typeof input === 'string' || input instanceof URL ? new WebRequest(input, init as WebRequestInit | undefined) : input;
    // Read once here, so a retry or a --verbose line never reads it twice.
    const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
    const answer = await step({ method: request.method, url: request.url, headers: request.headers, body, signal: request.signal });
    return responseFor(answer);
  };
}

/** One attempt: logged (with --verbose), its status checked, timed, sent. */
function attempt({ log, redact, proxy, timeout }: HttpOptions, transport: Step): Step {
  const layers: Layer[] = [...(log ? [logged(log, redact, proxy)] : []), httpStatusOnly, timed(timeout)];
  return layers.reduceRight<Step>((next, layer) => layer(next), transport);
}

/**
 * The failure the steps below ky threw: ky 2 wraps one it takes for a network error (fetch's `TypeError: fetch
 * failed`, on the proxy path) in a NetworkError of its own, whose cause it is.
 */
function stepFailure({ NetworkError }: KyModule, error: unknown): unknown {
  return error instanceof NetworkError ? error.cause : error;
}

/** ky, doing what it does well: the credentials hook, the retry loop with its waits, a typed error for a non-2xx. */
function kyClient(kyModule: KyModule, options: HttpOptions, step: Step): KyInstance {
  const { default: ky, HTTPError } = kyModule;
  const { signal, log } = options;
  const credentials = credentialsFor(options.baseUrl, options.headers);
  return ky.create({
    fetch: asFetch(step),
    // The time-out step's job: each attempt, its body included.
    timeout: false,
    signal,
    headers: { Accept: 'application/json' },
    retry: {
      limit: RETRY_LIMIT,
      methods: RETRY_METHODS,
      statusCodes: RETRY_STATUS,
      afterStatusCodes: RETRY_AFTER_STATUS,
      maxRetryAfter: MAX_RETRY_AFTER_MS,
      backoffLimit: BACKOFF_LIMIT_MS,
      shouldRetry: ({ error }) => {
        if (signal.aborted) return false;
        return error instanceof HTTPError ? retryAnswer(error.response.status) : retryError(stepFailure(kyModule, error));
      },
    },
    hooks: {
      // Run once; each retry sends a copy of the request it changed.
      beforeRequest: [({ request }) => credentials(request)],
      beforeRetry: log
        ? [
            ({ error, retryCount }) => {
              const reason = error instanceof HTTPError ? `HTTP ${error.response.status}` : networkReason(stepFailure(kyModule, error));
              log(`  retry ${retryCount} of ${RETRY_LIMIT} after ${reason}`);
            },
          ]
        : [],
    },
  });
}

/**
 * The answer's text, read only when asked for, decoded as its Content-Type says (text/charset.ts), with why it is
 * not exact when it is not; the answer (a 40 MB list's bytes) is not kept while it is parsed.
 */
function textOf(answer: RawAnswer, read: boolean): { status: number; headers: Headers } & DecodedText {
  const { text, inexact } =
    read && answer.body ? decodeText(answer.body, answer.headers.get('content-type')) : { text: '', inexact: undefined };
  return { status: answer.status, headers: answer.headers, text, inexact };
}

type Respond = (
  method: AnyMethod,
  target: string,
  what: string,
  request: Omit<RawRequest, 'failed'>,
  failed?: RawRequest['failed'],
) => Promise<RawAnswer>;

/** One request through the chain: its URL checked, its answer whole, its failure a typed error. */
function responder(kyModule: KyModule, options: HttpOptions, step: Step): Respond {
  const { baseUrl, timeout, proxy, redact, authHint, forbiddenHint, signal } = options;
  const { HTTPError } = kyModule;
  const client = kyClient(kyModule, options, step);
  const host = new URL(baseUrl).host;
  return async (method, target, what, request, failed) => {
    // Built and checked here, whoever asked: the keys go with it.
    const url = requestUrl(baseUrl, target).href;
    // Whether an earlier attempt may have been carried out although its answer was lost: then a retry can meet
    // that attempt's effect (a DELETE retried after a lost answer finds nothing: 404).
    let uncertain = false;
    const watch = ({ error }: { error: Error }) => {
      uncertain ||= mayHaveBeenCarriedOut(error instanceof HTTPError ? error.response : { error: stepFailure(kyModule, error) });
    };
    try {
      return answerOf(await client(url, { method, ...request, hooks: { beforeRetry: [watch] } }));
    } catch (error) {
      const context: FailureContext = { what, method, host, timeout, proxy, redact, authHint, forbiddenHint, signal };
      if (!(error instanceof HTTPError) || signal.aborted) throw requestFailure(stepFailure(kyModule, error), context);
      const answer = answerOf(error.response);
      failed?.(answer);
      throw answerFailure(answer, context, uncertain);
    }
  };
}

export async function createHttp(options: HttpOptions): Promise<Http> {
  const { proxy, maxAnswerBytes = DEFAULT_MAX_ANSWER_BYTES } = options;
  const kyModule = await import('ky');
  const transport = options.transport ?? nodeTransport(maxAnswerBytes, proxy);
  const respond = responder(kyModule, options, attempt(options, transport));
  /**
   * The first read whose answer cip could not read exactly as text (bytes invalid in its charset, a charset cip
   * cannot read). Every write of this client after it is refused: an update merges the record it read, apply and
   * --if-exists match names against it, restore writes back what it planned from it. Sent back, the text cip made
   * of such bytes (U+FFFD for each it could not read) would replace fields the user never named.
   */
  let inexactRead: { what: string; why: string } | undefined;
  let warned = false;

  const send = async (
    method: Method,
    target: string,
    what: string,
    body?: unknown,
    readBody = true,
    extra: Record<string, string> = {},
  ): Promise<Answer> => {
    if (method !== 'GET' && inexactRead !== undefined) {
      throw new InexactReadError(
        `cannot ${what}: cip could not read the API's answer to ${inexactRead.what} exactly (${inexactRead.why}), and would send back text it could not read`,
        'nothing was sent; the API must send UTF-8, or name the charset it sends in its Content-Type',
      );
    }
    const json =
      body === undefined
        ? { headers: extra }
        : { body: stringifyExactJson(body), headers: { 'Content-Type': JSON_CONTENT_TYPE, ...extra } };
    // Exact, keys and all: what is printed is redacted by the writer, and what is sent back must be what was read.
    const { status, headers, text, inexact } = textOf(await respond(method, target, what, json), readBody);
    if (text.trim() === '') return { data: undefined, headers };
    let data: unknown;
    try {
      data = parseExactJson(text);
    } catch (error) {
      const problem = error instanceof JsonTooDeepError ? error.message : 'a body that is not valid JSON';
      throw new ProtocolError(`cannot ${what}: the API answered HTTP ${status} with ${problem}${inexact ? ` (${inexact})` : ''}`);
    }
    if (inexact !== undefined) {
      if (method === 'GET') inexactRead ??= { what, why: inexact };
      if (!warned)
        options.warn?.(
          `cip could not read the API's answer to ${what} exactly (${inexact}): it is shown as well as cip can, and this run writes nothing back`,
        );
      warned = true;
    }
    return { data, headers };
  };

  return {
    send,
    async request(method, path, what, body, readBody) {
      return (await send(method, path, what, body, readBody)).data;
    },
    async exchange(method, target, what, { failed, ...request } = {}) {
      const headers = { ...(request.body === undefined ? {} : { 'Content-Type': JSON_CONTENT_TYPE }), ...request.headers };
      const answer = await respond(method, target, what, { ...request, headers }, failed);
      return { ...answer, body: answer.body ?? new Uint8Array(0) };
    },
  };
}
