// The request path's vocabulary, in the spirit of gh's RoundTripper chain: a request going out, the whole answer
// coming back, a step that turns one into the other, and a layer that wraps a step in one more job (logging, a
// time-out). The transports (api/transport.ts) are the last step; api/http.ts puts the chain together.

export type Bytes = Uint8Array<ArrayBuffer>;

/** What to send: the body already read, so a retry or a --verbose line never reads it twice. */
export interface Outgoing {
  method: string;
  url: string;
  headers: Headers;
  body: Bytes | undefined;
  signal: AbortSignal;
}

/** A whole answer, as it came: the status line, the headers and the body decoded (null for a status that has none). */
export interface RawAnswer {
  status: number;
  /** The reason phrase as the server sent it ('' when it sent none); cleaned by whoever shows it. */
  statusText: string;
  /** The HTTP version of the answer's status line: '1.1', '1.0'. */
  httpVersion: string;
  headers: Headers;
  body: Bytes | null;
}

/** One request, one answer. A failure to get an answer is thrown. */
export type Step = (request: Outgoing) => Promise<RawAnswer>;

/** A step wrapped in one more job. */
export type Layer = (next: Step) => Step;

/** An answer that is not HTTP as the API speaks it, or too large to read; never retried. The message says what. */
export class BrokenAnswer extends Error {}

/** The codings the transports decode, asked for by name (fetch would otherwise choose its own list). */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

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

/**
 * A status line the API would never send (outside 200-599) is a broken answer, not a network failure to retry.
 * node:http and fetch hand such an answer over; a Response cannot even hold one.
 */
export const httpStatusOnly: Layer = (next) => async (request) => {
  const answer = await next(request);
  if (answer.status < 200 || answer.status > 599) throw new BrokenAnswer(`the API answered with an invalid HTTP status (${answer.status})`);
  return answer;
};
