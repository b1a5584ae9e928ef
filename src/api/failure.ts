// What a failed request is to the user: one typed error (src/errors.ts: its exit code) with words that say what
// happened and a hint that says what to do. An answer that is not a success becomes an ApiError (or, for a
// redirect, a ProtocolError); a failure to get an answer becomes a NetworkError that blames the right party
// (the API, the proxy, TLS), or an interruption.
import { ApiError, CipError, InterruptedError, NetworkError, ProtocolError, statusSummary } from '../errors.js';
import { decodeText } from '../text/charset.js';
import { hideCredentials, oneLine, truncate } from '../text/sanitize.js';
import { BrokenAnswer, type RawAnswer } from './chain.js';
import { refusalReason } from './challenge.js';
import { errorMessageFromBody } from './error-body.js';
import { handshakeFailure, networkReason, notConnected, notHttp, proxyStatus } from './network-errors.js';
import type { ProxyChoice } from './proxy.js';
import { writeMayHaveHappened } from './step-retry.js';
import { TimedOut } from './step-timeout.js';

/** What the words of a failure need to know about the request and the client. */
export interface FailureContext {
  /** What the request was for: 'list environments'. */
  what: string;
  method: string;
  /** The base URL's host. */
  host: string;
  /** --timeout, in seconds. */
  timeout: number;
  proxy?: ProxyChoice | undefined;
  redact: (text: string) => string;
  /** The hint for a 401. */
  authHint?: string | undefined;
  /** The hint for a 403, in the words of the credential's kind; without one, the status's own (errors.ts). */
  forbiddenHint?: string | undefined;
  /** The run's signal: once it is aborted, any failure is the interruption. */
  signal: AbortSignal;
}

const NO_REDIRECTS = 'cip does not follow redirects, so the keys go only to the base URL you chose; check --base-url';

/** An answer that is not a success. `uncertain`: an earlier attempt may have been carried out (api/step-retry.ts). */
export function answerFailure(answer: RawAnswer, context: FailureContext, uncertain: boolean): CipError {
  const { status, headers } = answer;
  const { what, redact, proxy } = context;
  // An http:// request goes to the proxy whole (no tunnel), so the proxy's refusal comes back as its answer; no
  // API asks for a proxy's credentials.
  if (status === 407 && proxy && !tunnels(proxy)) return proxyAuthentication(what, proxy, status);
  if (status >= 300 && status < 400) {
    const location = headers.get('location');
    const to = location ? ` to ${truncate(oneLine(hideCredentials(location)), 200)}` : '';
    return new ProtocolError(redact(`cannot ${what}: the API answered with a redirect (HTTP ${status})${to}`), NO_REDIRECTS);
  }
  // Redacted before the message is cut short (500 characters), so the cut cannot leave part of a key.
  // Read as its charset says: a key in a UTF-16 body would not be found in its bytes read as UTF-8.
  const body = redact(answer.body ? decodeText(answer.body, headers.get('content-type')).text : '');
  const message = errorMessageFromBody(body, headers.get('content-type') ?? '');
  // ASP.NET Core's JWT bearer handler says why in its challenge, with no body (a 401, or RFC 6750's 403).
  const said = bothSaid(message, refusalReason(headers.get('www-authenticate'), redact));
  return new ApiError(
    status,
    redact(`cannot ${what}: ${statusSummary(status)} (HTTP ${status})${said ? `: ${said}` : ''}`),
    status === 401 ? context.authHint : status === 403 ? forbiddenAdvice(context, said) : undefined,
    uncertain,
  );
}

/** The body's message and the challenge's reason, each once. */
function bothSaid(message: string | undefined, reason: string | undefined): string | undefined {
  if (message === undefined || reason === undefined) return message ?? reason;
  const [lowerMessage, lowerReason] = [message.toLowerCase(), reason.toLowerCase()];
  if (lowerMessage.includes(lowerReason)) return message;
  if (lowerReason.includes(lowerMessage)) return reason;
  return `${message}; ${reason}`;
}

/**
 * A 403's advice: the caller's, fitted to the credential (what a token may lack, or which enterprise an API key
 * acts in and where that came from); without one, general advice only when the server said nothing itself.
 */
function forbiddenAdvice(context: FailureContext, said: string | undefined): string | null | undefined {
  if (context.forbiddenHint !== undefined) return context.forbiddenHint;
  return said ? null : undefined;
}

/** A failure to get an answer at all (or one that is not HTTP as the API speaks it). */
export function requestFailure(error: unknown, context: FailureContext): CipError {
  const { what, host, proxy } = context;
  if (error instanceof CipError) return error;
  if (context.signal.aborted) return new InterruptedError();
  if (error instanceof BrokenAnswer) return new ProtocolError(`cannot ${what}: ${error.message}`);
  const maybeDone = writeMayHaveHappened(context.method, error);
  if (error instanceof TimedOut) {
    return new NetworkError(
      `cannot ${what}: no answer from ${host} within ${context.timeout}s`,
      maybeDone ?? 'raise --timeout, or check the network',
    );
  }
  const parseError = notHttp(error);
  if (parseError) {
    const through = proxy ? ` (through the proxy at ${proxy.display})` : '';
    return new ProtocolError(
      context.redact(`cannot ${what}: the answer from ${host}${through} is not HTTP that cip can read (${parseError})`),
      maybeDone ?? 'check the base URL and its port',
    );
  }
  const handshake = handshakeFailure(error);
  if (handshake) {
    const through = proxy ? ` (through the proxy at ${proxy.display})` : '';
    return new NetworkError(`cannot ${what}: the TLS handshake with ${host}${through} failed: ${handshake.reason}`, handshake.fix);
  }
  if (proxy) return proxyFailure(error, context, proxy, maybeDone);
  return new NetworkError(context.redact(`cannot ${what}: cannot reach ${host}: ${networkReason(error)}`), maybeDone);
}

/** Whether requests go through the proxy in a CONNECT tunnel (https://), rather than to it whole (http://). */
function tunnels(proxy: ProxyChoice): boolean {
  return proxy.variable.toUpperCase() === 'HTTPS_PROXY';
}

/**
 * The proxy's 407, to a CONNECT or to a request sent to it whole, or its 401 to a CONNECT (tinyproxy's answer
 * to a wrong password): the same words either way, and a hint that says whether credentials were given.
 */
function proxyAuthentication(what: string, proxy: ProxyChoice, status: number): NetworkError {
  const { url, variable } = proxy;
  return new NetworkError(
    `cannot ${what}: the proxy at ${proxy.display} asks for authentication (HTTP ${status})`,
    url.username || url.password
      ? `the proxy refused the user name and password in ${variable}: check them`
      : `put credentials in ${variable}: ${url.protocol}//USER:PASSWORD@${url.host}`,
  );
}

/** A failure on the way through a proxy, blamed on the proxy (by its URL without credentials), not the API. */
function proxyFailure(error: unknown, { what, host }: FailureContext, proxy: ProxyChoice, maybeDone: string | undefined): NetworkError {
  const status = proxyStatus(error);
  // A CONNECT is answered by the proxy alone: its 401 is about the proxy's credentials too.
  if (status === 407 || status === 401) return proxyAuthentication(what, proxy, status);
  if (status === 403) {
    return new NetworkError(
      `cannot ${what}: the proxy at ${proxy.display} refused to connect to ${host} (HTTP 403)`,
      `ask the proxy's administrators, or list the host in NO_PROXY`,
    );
  }
  if (status !== undefined)
    return new NetworkError(`cannot ${what}: the proxy at ${proxy.display} could not connect to ${host} (HTTP ${status})`, maybeDone);
  // With a proxy, every connection goes to the proxy: one that cannot be opened is the proxy's fault.
  if (notConnected(error)) {
    return new NetworkError(`cannot ${what}: cannot reach the proxy at ${proxy.display} (from ${proxy.variable}): ${networkReason(error)}`);
  }
  return new NetworkError(`cannot ${what}: cannot reach ${host} through the proxy at ${proxy.display}: ${networkReason(error)}`, maybeDone);
}
