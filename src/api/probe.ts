// The network checks of `cip doctor`, one step at a time, each cut off after a few seconds: the name resolves,
// a TCP connection opens, TLS verifies, and the service answers an anonymous ping.
import type { Env } from '../env.js';
import { createHttp } from './http.js';
import { proxyFor, type ProxyChoice } from './proxy.js';
import { handshakeFailure } from './network-errors.js';

/** How long each check may take. */
export const PROBE_TIMEOUT_MS = 5_000;

export type Probe = { ok: true; detail: string } | { ok: false; reason: string; fix?: string };

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}

export async function resolveName(host: string): Promise<Probe> {
  const { isIP } = await import('node:net');
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return { ok: true, detail: `${bare} is an address: no lookup needed` };
  const { lookup } = await import('node:dns/promises');
  try {
    const addresses = await Promise.race([
      lookup(bare, { all: true }),
      new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('DNS lookup timed out')), PROBE_TIMEOUT_MS).unref()),
    ]);
    return { ok: true, detail: `${host} resolves to ${addresses.map((entry) => entry.address).join(', ')}` };
  } catch (error) {
    return { ok: false, reason: `${host} does not resolve (${codeOf(error)})` };
  }
}

export async function openTcp(host: string, port: number): Promise<Probe> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect({ host: host.replace(/^\[|\]$/g, ''), port, timeout: PROBE_TIMEOUT_MS });
    const done = (probe: Probe) => {
      socket.destroy();
      resolve(probe);
    };
    socket.once('connect', () => done({ ok: true, detail: `connected to ${host}:${port}` }));
    socket.once('timeout', () => done({ ok: false, reason: `no TCP connection to ${host}:${port} within ${PROBE_TIMEOUT_MS / 1000}s` }));
    socket.once('error', (error) => done({ ok: false, reason: `cannot connect to ${host}:${port} (${codeOf(error)})` }));
  });
}

export async function verifyTls(host: string, port: number): Promise<Probe> {
  const { connect } = await import('node:tls');
  const servername = /^[\d.]+$|:/.test(host) ? undefined : host;
  return new Promise((resolve) => {
    const socket = connect({ host: host.replace(/^\[|\]$/g, ''), port, timeout: PROBE_TIMEOUT_MS, ...(servername ? { servername } : {}) });
    const done = (probe: Probe) => {
      socket.destroy();
      resolve(probe);
    };
    socket.once('secureConnect', () => {
      // An empty object when there is no certificate to show, whatever the types say.
      const peer: { subject?: { CN?: string | string[] }; valid_to?: string } = socket.getPeerCertificate();
      done({ ok: true, detail: `certificate for ${[peer.subject?.CN ?? host].flat().join(', ')}, valid until ${peer.valid_to ?? '?'}` });
    });
    socket.once('timeout', () => done({ ok: false, reason: `no TLS handshake with ${host}:${port} within ${PROBE_TIMEOUT_MS / 1000}s` }));
    socket.once('error', (error) => {
      const handshake = handshakeFailure(error);
      done(
        handshake
          ? {
              ok: false,
              reason: `the TLS handshake with ${host}:${port} failed: ${handshake.reason}`,
              ...(handshake.fix ? { fix: handshake.fix } : {}),
            }
          : { ok: false, reason: `the certificate of ${host} does not verify (${codeOf(error)})` },
      );
    });
  });
}

/** The proxy a request to the URL goes through, if any. */
export function proxyOf(env: Env, url: URL, nodeVersion: string): Promise<ProxyChoice | undefined> {
  return proxyFor(env, url, nodeVersion);
}

export interface PingAnswer {
  status: number;
  /** The server's clock, from its Date header. */
  date: Date | undefined;
}

/** GET {url} without keys: the service's anonymous ping. Any answer is returned; only a network failure throws. */
export async function ping(
  url: string,
  env: Env,
  options: { signal: AbortSignal; userAgent: string; nodeVersion: string; redact: (text: string) => string },
): Promise<PingAnswer> {
  const target = new URL(url);
  const http = await createHttp({
    baseUrl: target.origin,
    headers: { 'User-Agent': options.userAgent },
    timeout: PROBE_TIMEOUT_MS / 1000,
    signal: options.signal,
    redact: options.redact,
    proxy: await proxyFor(env, target, options.nodeVersion),
  });
  try {
    const answer = await http.exchange('GET', target.href, 'ping the service');
    return { status: answer.status, date: dateOf(answer.headers.get('date')) };
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number') return { status, date: undefined };
    throw error;
  }
}

export function dateOf(header: string | null): Date | undefined {
  if (!header) return undefined;
  const date = new Date(header);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
