// How a request reaches the API and its whole answer comes back: node:http(s) on a direct connection, and
// fetch through undici's proxy agent only when a proxy applies (api/proxy.ts). Node's fetch costs every run
// about 2.5x what node:http does: it loads Node's internal copy of undici, and reading a fetch answer makes V8
// recompile undici's WebAssembly HTTP parser, a job the process waits for before it exits. node:http parses
// with Node's native parser.
//
// Both transports follow no redirect (a 3xx comes back as it is), decode gzip, deflate and br as fetch does,
// and read the body, decoded, no further than the answer limit, so a gzip bomb stops there.
import type { Agent, IncomingMessage, RequestOptions } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { oneLine, truncate } from '../text/sanitize.js';

/** An answer that is not HTTP as the API speaks it, or too large to read; never retried. The message says what. */
export class BrokenAnswer extends Error {}

/** What to send: the body already read, so a retry or a --verbose line never reads it twice. */
export interface Outgoing {
  method: string;
  url: string;
  headers: Headers;
  body: Bytes | undefined;
  signal: AbortSignal;
}

/** A whole answer: the body decoded, null for a status that has none. */
export interface RawAnswer {
  status: number;
  /** The reason phrase as the server sent it ('' when it sent none). */
  statusText: string;
  /** The HTTP version of the answer's status line: '1.1', '1.0'. */
  httpVersion: string;
  headers: Headers;
  body: Bytes | null;
}

export type Transport = (request: Outgoing) => Promise<RawAnswer>;

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

/** The codings both transports decode, asked for by name (fetch would otherwise choose its own list). */
const ACCEPT_ENCODING = 'gzip, deflate, br';

/**
 * The headers a request goes out with (names in lower case): the codings cip decodes, the request's own
 * headers, and the body's length. Both transports send these, and --verbose logs them.
 */
export function headersToSend(headers: Headers, body: Uint8Array | undefined): Record<string, string> {
  const sent: Record<string, string> = { 'accept-encoding': ACCEPT_ENCODING };
  for (const [name, value] of headers) sent[name] = value;
  if (body) sent['content-length'] = String(body.byteLength);
  return sent;
}

function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

function tooLarge(limit: number): BrokenAnswer {
  return new BrokenAnswer(`answer too large: the API sent more than ${sizeText(limit)} (CIP_MAX_ANSWER_BYTES sets the limit)`);
}

/** The error and the causes it wraps (fetch wraps undici's error, which may wrap a socket's). */
export function* causeChain(error: unknown): Generator {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

export function errorCode(error: unknown): string | undefined {
  for (const cause of causeChain(error)) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && code) return code;
  }
  return undefined;
}

/** What a failed TLS handshake means, by OpenSSL's reason, and what would fix it. */
const HANDSHAKE_FAILURES: { reason: RegExp; means: string; fix: string }[] = [
  {
    reason: /alert protocol version|unsupported protocol|no protocols available|version too low/,
    means: 'the server offers only a TLS version older than 1.2 (TLS 1.0 or 1.1), which Node refuses as unsafe',
    fix: 'the server must accept TLS 1.2 or newer: tell its administrators',
  },
  {
    reason: /wrong version number|packet length too long|http request/,
    means: 'the server did not answer in TLS',
    fix: 'is it an http:// server? check the base URL and its port',
  },
  {
    reason: /handshake failure|no shared cipher|no ciphers available|insufficient security/,
    means: 'the server accepts none of the cipher suites Node offers',
    fix: 'the server must offer a current cipher suite (TLS 1.3, or TLS 1.2 with ECDHE): tell its administrators',
  },
];

export interface HandshakeFailure {
  /** What went wrong, with OpenSSL's own words at the end. */
  reason: string;
  fix: string | undefined;
}

/**
 * A TLS handshake that failed before any certificate was looked at (a protocol version or cipher suite the
 * two sides do not share, a server that does not speak TLS), or undefined for any other failure. Node
 * reports it as EPROTO (or ERR_SSL_*) with OpenSSL's reason inside the message.
 */
export function handshakeFailure(error: unknown): HandshakeFailure | undefined {
  for (const cause of causeChain(error)) {
    const code = (cause as { code?: unknown }).code;
    if (code !== 'EPROTO' && !(typeof code === 'string' && code.startsWith('ERR_SSL_'))) continue;
    const message = cause instanceof Error ? cause.message : '';
    const openssl = (
      /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1] ?? (code === 'EPROTO' ? '' : code.slice('ERR_SSL_'.length).replace(/_/g, ' '))
    ).toLowerCase();
    const known = HANDSHAKE_FAILURES.find((failure) => failure.reason.test(openssl));
    const words = truncate(oneLine(openssl), 80) || 'EPROTO';
    return known ? { reason: `${known.means} (OpenSSL: ${words})`, fix: known.fix } : { reason: `OpenSSL: ${words}`, fix: undefined };
  }
  return undefined;
}

/**
 * A decoder's failure is the server's broken body, not a network error worth another attempt: zlib's codes are
 * Z_DATA_ERROR and the like, brotli's ERR__ERROR_FORMAT_PADDING_1 and the like.
 */
function undecodable(error: unknown, encoding: string | null): unknown {
  if (!/^Z_|^ERR__ERROR_/.test(errorCode(error) ?? '')) return error;
  return new BrokenAnswer(
    `the API answered with a body that is not valid ${truncate(oneLine(encoding ?? ''), 40) || 'encoded'} data, though its Content-Encoding says so`,
  );
}

/** Chunks read until the stream ends, refused once they pass `limit` bytes. */
async function readAll(stream: AsyncIterable<Uint8Array>, limit: number, stop: () => void): Promise<Bytes> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.byteLength;
    if (size > limit) {
      stop();
      throw tooLarge(limit);
    }
    chunks.push(chunk);
  }
  // A Buffer's memory is an ArrayBuffer; only a SharedArrayBuffer would not be.
  if (chunks.length === 1) return chunks[0] as Bytes;
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

type Zlib = typeof import('node:zlib');
type Bytes = Uint8Array<ArrayBuffer>;

/** The decoders for a Content-Encoding, in the order to apply them; none for an unknown coding, as fetch does. */
function decodersFor(zlib: Zlib, encoding: string): Transform[] {
  const decoders: Transform[] = [];
  for (const coding of encoding
    .toLowerCase()
    .split(',')
    .map((part) => part.trim())
    .reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH }));
    else if (coding === 'deflate') decoders.push(zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH }));
    else if (coding === 'br') decoders.push(zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }));
    else if (coding !== 'identity' && coding !== '') return [];
  }
  return decoders;
}

/** The answer's body, decoded as its Content-Encoding says, read no further than `limit` bytes. */
async function readBody(response: IncomingMessage, limit: number): Promise<Bytes> {
  const declared = Number(response.headers['content-length'] ?? 0);
  if (declared > limit) {
    response.destroy();
    throw tooLarge(limit);
  }
  const encoding = response.headers['content-encoding'] ?? null;
  if (!encoding) return readAll(response, limit, () => response.destroy());
  const zlib = await import('node:zlib');
  const decoders = decodersFor(zlib, encoding);
  if (decoders.length === 0) return readAll(response, limit, () => response.destroy());
  const { pipeline } = await import('node:stream');
  // An error anywhere destroys both streams of each pipeline, so it reaches the reader through the last one.
  let decoded: Readable = response;
  for (const decoder of decoders) decoded = pipeline(decoded, decoder, () => undefined);
  try {
    return await readAll(decoded, limit, () => decoded.destroy());
  } catch (error) {
    throw undecodable(error, encoding);
  }
}

/**
 * node:http reads the reason phrase's bytes as Latin-1; a server that wrote UTF-8 ('201 已创建') meant UTF-8, as
 * fetch reads it.
 */
function reasonPhrase(message: string | undefined): string {
  if (!message) return '';
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(message, 'latin1'));
  } catch {
    return message;
  }
}

function answerHeaders(raw: string[]): Headers {
  const headers = new Headers();
  for (let at = 0; at + 1 < raw.length; at += 2) headers.append(raw[at]!, raw[at + 1]!);
  return headers;
}

type RequestFunction = (
  url: URL,
  options: RequestOptions,
  callback: (response: IncomingMessage) => void,
) => import('node:http').ClientRequest;

/**
 * node:http and node:https with keep-alive connections (a multi-delete reuses them), each loaded on first
 * use: an http:// run never loads TLS.
 */
export function nodeTransport(limit: number): Transport {
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

  return async ({ method, url, headers, body, signal }) => {
    const target = new URL(url);
    const { request, agent } = await client(target.protocol);
    signal.throwIfAborted();
    const sent = headersToSend(headers, body);
    return new Promise<RawAnswer>((resolve, reject) => {
      let answer: IncomingMessage | undefined;
      const abort = () => {
        const reason: unknown = signal.reason;
        outgoing.destroy();
        answer?.destroy();
        reject(reason instanceof Error ? reason : new Error('aborted'));
      };
      // A POST or PATCH is never retried, so it never rides a kept-alive connection: the server may close an
      // idle one just as the request goes out (after a prompt, say), and the create would fail for nothing.
      const fresh = method === 'POST' || method === 'PATCH';
      const outgoing = request(target, { method, headers: sent, agent: fresh ? false : agent }, (response) => {
        answer = response;
        const status = response.statusCode ?? 0;
        const done = (body: Bytes | null) => {
          signal.removeEventListener('abort', abort);
          try {
            resolve({
              status,
              statusText: reasonPhrase(response.statusMessage),
              httpVersion: response.httpVersion,
              headers: answerHeaders(response.rawHeaders),
              body,
            });
          } catch {
            // Node's parser lets through little that Headers refuses, but a refusal must not escape this callback.
            reject(new BrokenAnswer('the API answered with a header that is not valid HTTP'));
          }
        };
        if (NULL_BODY_STATUS.has(status) || method === 'HEAD') {
          response.resume();
          done(null);
          return;
        }
        readBody(response, limit).then(done, (error: unknown) => {
          signal.removeEventListener('abort', abort);
          reject(error instanceof Error ? error : new Error(String(error)));
        });
      });
      signal.addEventListener('abort', abort, { once: true });
      outgoing.on('error', (error) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      });
      outgoing.end(body);
    });
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
    return await readAll(stream, limit, () => void reader.cancel().catch(() => undefined));
  } catch (error) {
    throw undecodable(error, response.headers.get('content-encoding'));
  }
}

/** fetch, whose dispatcher api/proxy.ts has made the proxy agent. */
export function fetchTransport(limit: number): Transport {
  return async ({ method, url, headers, body, signal }) => {
    // fetch computes the body's length itself; the codings are the ones --verbose logs (headersToSend).
    const sent = new Headers(headers);
    if (!sent.has('accept-encoding')) sent.set('accept-encoding', ACCEPT_ENCODING);
    const response = await fetch(url, { method, headers: sent, body: body ?? null, signal, redirect: 'manual' });
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
