// What a failed request's error says: its code (Node's), whether the request certainly never left, a TLS
// handshake that failed, a proxy's refusal, and the words for each. The retry policy, the --verbose log and the
// error messages all read errors through these.
import { oneLine, truncate } from '../text/sanitize.js';

/** The error and the causes it wraps. */
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

/** Failures that prove the request never reached the server: a retry after them cannot meet its own effect. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Whether the request certainly never left: no connection, no tunnel through the proxy (Node's ERR_PROXY_TUNNEL:
 * the proxy refused the CONNECT, or closed the connection before answering it), or no TLS session to send it on.
 */
export function notSent(error: unknown): boolean {
  const code = errorCode(error) ?? '';
  return NOT_SENT_CODES.has(code) || code === 'ERR_PROXY_TUNNEL' || handshakeFailure(error) !== undefined;
}

/** Whether no connection could be opened at all (through a proxy: to the proxy). */
export function notConnected(error: unknown): boolean {
  return NOT_SENT_CODES.has(errorCode(error) ?? '');
}

/** Certificate problems, and a handshake the two sides cannot agree on, do not go away by asking again. */
export function isCertificateError(error: unknown): boolean {
  const code = errorCode(error) ?? '';
  return /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code) || handshakeFailure(error) !== undefined;
}

/**
 * The code of Node's HTTP parser (llhttp: HPE_INVALID_CONSTANT, HPE_HEADER_OVERFLOW, ...) when the failure is an
 * answer that is not HTTP: the server was reached and answered, with something cip cannot read (another protocol
 * on that port, a body where none may be). Undefined for any other failure.
 */
export function notHttp(error: unknown): string | undefined {
  const code = errorCode(error);
  return code?.startsWith('HPE_') ? code : undefined;
}

/** The status a proxy answered a CONNECT with (Node's ERR_PROXY_TUNNEL carries it), when that is why the request failed. */
export function proxyStatus(error: unknown): number | undefined {
  for (const cause of causeChain(error)) {
    const { code, statusCode } = cause as { code?: unknown; statusCode?: unknown };
    if (
      code === 'ERR_PROXY_TUNNEL' &&
      typeof statusCode === 'number' &&
      Number.isInteger(statusCode) &&
      statusCode >= 100 &&
      statusCode <= 999
    )
      return statusCode;
  }
  return undefined;
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
  // Node's words name the proxy and quote its status line; the proxy is named by cip (api/failure.ts).
  ERR_PROXY_TUNNEL: 'the proxy did not open a tunnel',
  CERT_HAS_EXPIRED: 'the server certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the server certificate is self-signed (set NODE_EXTRA_CA_CERTS to trust it)',
  SELF_SIGNED_CERT_IN_CHAIN: 'a certificate in the chain is self-signed (set NODE_EXTRA_CA_CERTS for a corporate CA)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the server certificate cannot be verified (set NODE_EXTRA_CA_CERTS for a corporate CA)',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the server certificate does not match the host name',
};

/** Why a request failed, in words, with Node's code when there is one. */
export function networkReason(error: unknown): string {
  const code = errorCode(error);
  if (code) return NETWORK_CODES[code] ? `${NETWORK_CODES[code]} (${code})` : code;
  return error instanceof Error ? error.message : String(error);
}
