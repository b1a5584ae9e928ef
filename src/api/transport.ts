// The last step of the request path (api/chain.ts): how a request reaches the API and its whole answer comes
// back. node:http(s) on a direct connection, and fetch through undici's proxy agent only when a proxy applies
// (api/proxy.ts gives the agent, for this client's requests alone). Node's fetch costs every run about 2.5x what
// node:http does: it loads Node's internal copy of undici, and reading a fetch answer makes V8 recompile undici's
// WebAssembly HTTP parser, a job the process waits for before it exits. node:http parses with Node's native
// parser.
//
// Both transports follow no redirect (a 3xx comes back as it is), decode gzip, deflate and br as fetch does
// (api/body.ts), and read the body, decoded, no further than the answer limit.
import type { Agent, IncomingMessage, RequestOptions } from 'node:http';
import { ACCEPT_ENCODING, BrokenAnswer, headersToSend, type Bytes, type Outgoing, type RawAnswer, type Step } from './chain.js';
import { decodedBody, readLimited, tooLarge, undecodable } from './body.js';
import { WebHeaders } from './web.js';

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

/**
 * node:http reads the reason phrase's bytes as Latin-1; a server that wrote UTF-8 ('201 已创建') meant UTF-8, as
 * fetch reads it.
 */
function reasonPhrase(message: string | undefined): string {
  if (!message) return '';
  // ASCII reads the same either way ('OK'), without making a decoder.
  if (/^[\x20-\x7e]*$/.test(message)) return message;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(message, 'latin1'));
  } catch {
    return message;
  }
}

/** The answer's headers, in cip's own Headers (api/web.ts): the real class would load Node's internal undici. */
function answerHeaders(raw: string[]): Headers {
  const headers = new WebHeaders();
  for (let at = 0; at + 1 < raw.length; at += 2) headers.append(raw[at]!, raw[at + 1]!);
  return headers;
}

type RequestFunction = (
  url: URL,
  options: RequestOptions,
  callback: (response: IncomingMessage) => void,
) => import('node:http').ClientRequest;

/** The answer node:http gives, whole: its body read (none for a status or method that has none). */
async function wholeAnswer(response: IncomingMessage, method: string, limit: number): Promise<RawAnswer> {
  const status = response.statusCode ?? 0;
  let body: Bytes | null = null;
  if (NULL_BODY_STATUS.has(status) || method === 'HEAD') response.resume();
  else body = await decodedBody(response, limit);
  let headers: Headers;
  try {
    headers = answerHeaders(response.rawHeaders);
  } catch {
    // Node's parser lets through little that Headers refuses, but what it does is a broken answer.
    throw new BrokenAnswer('the API answered with a header that is not valid HTTP');
  }
  return { status, statusText: reasonPhrase(response.statusMessage), httpVersion: response.httpVersion, headers, body };
}

/** One request on node:http(s): sent, its whole answer read, or cut off when the signal aborts. */
function exchangeOn(request: RequestFunction, agent: Agent, { method, url, headers, body, signal }: Outgoing, limit: number) {
  return new Promise<RawAnswer>((resolve, reject) => {
    let answer: IncomingMessage | undefined;
    const abort = () => {
      const reason: unknown = signal.reason;
      outgoing.destroy();
      answer?.destroy();
      reject(reason instanceof Error ? reason : new Error('aborted'));
    };
    const settle = (finish: () => void) => {
      signal.removeEventListener('abort', abort);
      finish();
    };
    // A POST or PATCH is never retried, so it never rides a kept-alive connection: the server may close an
    // idle one just as the request goes out (after a prompt, say), and the create would fail for nothing.
    const fresh = method === 'POST' || method === 'PATCH';
    const options = { method, headers: headersToSend(headers, body), agent: fresh ? false : agent };
    const outgoing = request(new URL(url), options, (response) => {
      answer = response;
      wholeAnswer(response, method, limit).then(
        (whole) => settle(() => resolve(whole)),
        (error: unknown) => settle(() => reject(error instanceof Error ? error : new Error(String(error)))),
      );
    });
    signal.addEventListener('abort', abort, { once: true });
    outgoing.on('error', (error) => {
      // An answer without a body (204, 304, a HEAD's) is whole with its headers: bytes a server sends after them (a
      // body a 204 must not have) are not part of it, and only spoil the connection, which Node then closes.
      if (answer && (NULL_BODY_STATUS.has(answer.statusCode ?? 0) || method === 'HEAD')) return;
      settle(() => reject(error));
    });
    outgoing.end(body);
  });
}

/**
 * node:http and node:https with keep-alive connections (a multi-delete reuses them), each loaded on first
 * use: an http:// run never loads TLS.
 */
export function nodeTransport(limit: number): Step {
  const clients = new Map<string, Promise<{ request: RequestFunction; agent: Agent }>>();
  const client = (protocol: string) => {
    let found = clients.get(protocol);
    if (!found) {
      found = (protocol === 'https:' ? import('node:https') : import('node:http')).then((module) => ({
        request: module.request,
        agent: new module.Agent({ keepAlive: true }),
      }));
      clients.set(protocol, found);
    }
    return found;
  };
  return async (outgoing) => {
    const { request, agent } = await client(new URL(outgoing.url).protocol);
    outgoing.signal.throwIfAborted();
    return exchangeOn(request, agent, outgoing, limit);
  };
}

/** The answer's body from fetch, decoded (fetch decodes), read no further than `limit` bytes. */
async function readFetched(response: Response, limit: number): Promise<Bytes> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(limit);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const stream = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    },
  };
  try {
    return await readLimited(stream, limit, () => void reader.cancel().catch(() => undefined));
  } catch (error) {
    throw undecodable(error, response.headers.get('content-encoding'));
  }
}

/**
 * fetch, through `dispatcher` (an undici Dispatcher: api/proxy.ts gives the proxy's agent) for this transport's
 * requests alone; Node's own when none is given.
 */
export function fetchTransport(limit: number, dispatcher?: object): Step {
  return async ({ method, url, headers, body, signal }) => {
    // fetch computes the body's length itself; the codings are the ones --verbose logs (headersToSend).
    const sent = new Headers(headers);
    if (!sent.has('accept-encoding')) sent.set('accept-encoding', ACCEPT_ENCODING);
    // `dispatcher` is undici's own option, which Node's fetch takes.
    const init = { method, headers: sent, body: body ?? null, signal, redirect: 'manual', ...(dispatcher ? { dispatcher } : {}) } as const;
    const response = await fetch(url, init);
    const { status } = response;
    // Outside 200-599 the caller refuses the answer before it needs the body; a HEAD's answer has none, whatever
    // length it declares.
    const readable = method !== 'HEAD' && status >= 200 && status <= 599 && !NULL_BODY_STATUS.has(status);
    const data = readable ? await readFetched(response, limit) : null;
    if (!readable) await response.body?.cancel().catch(() => undefined);
    // fetch does not say which version answered; undici's proxy agent speaks HTTP/1.1 only (allowH2 is off).
    return { status, statusText: response.statusText, httpVersion: '1.1', headers: response.headers, body: data };
  };
}
