// Corporate proxies, read as curl reads them: an https:// base URL goes through HTTPS_PROXY and an http://
// one through HTTP_PROXY (either case), unless NO_PROXY names the host. A base URL on this machine
// (127.0.0.0/8, ::1, localhost) never goes through a proxy, whatever NO_PROXY says, as in Go and curl's
// defaults: a proxy must never see a request that was meant to stay on the machine. When a proxy applies,
// this client's requests go through fetch with undici's ProxyAgent as their dispatcher (node:http has no proxy
// support); undici and fetch are loaded only then. Nothing process-wide is set: another client in the same
// process (a test, doctor's ping) is not sent through this proxy.
import type { Env } from '../env.js';
import { UsageError } from '../errors.js';
import { isLoopbackHost } from '../config/validate.js';
import { printable } from '../text/sanitize.js';
import type { Step } from './chain.js';
import { fetchTransport } from './transport.js';

export interface ProxyChoice {
  /** The variable the proxy came from. */
  variable: string;
  url: URL;
  /** The proxy's URL for messages, with any user name and password hidden. */
  display: string;
}

function setting(env: Env, name: string): string | undefined {
  const value = env[name] ?? env[name.toLowerCase()];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function defaultPort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

type Net = typeof import('node:net');

/**
 * Whether NO_PROXY lists the target: '*', a host or domain (with or without a leading dot), an IP, or (given
 * node:net, which only such an entry needs) a CIDR block; each with an optional port.
 */
export function bypassesProxy(noProxy: string | undefined, target: URL, net?: Net): boolean {
  if (!noProxy) return false;
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  for (const raw of noProxy.toLowerCase().split(/[\s,]+/)) {
    if (!raw) continue;
    if (raw === '*') return true;
    let entry = raw;
    let entryPort: string | undefined;
    const withPort = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry) ?? /^([^:]+):(\d+)$/.exec(entry);
    if (withPort) {
      entry = withPort[1]!;
      entryPort = withPort[2];
    }
    if (entryPort !== undefined && entryPort !== defaultPort(target)) continue;
    if (entry.includes('/')) {
      if (!net) continue;
      const [address, bits] = entry.split('/');
      const family = net.isIP(address!);
      if (!family || net.isIP(host) !== family) continue;
      const list = new net.BlockList();
      try {
        list.addSubnet(address!, Number(bits), family === 6 ? 'ipv6' : 'ipv4');
      } catch {
        continue;
      }
      if (list.check(host, family === 6 ? 'ipv6' : 'ipv4')) return true;
      continue;
    }
    const domain = entry.replace(/^\*?\./, '');
    if (host === domain || host.endsWith(`.${domain}`)) return true;
  }
  return false;
}

/** The proxy a request to `target` goes through, or undefined for a direct connection. */
export async function proxyFor(env: Env, target: URL): Promise<ProxyChoice | undefined> {
  if (isLoopbackHost(target.hostname)) return undefined;
  const variable = target.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY';
  const value = setting(env, variable);
  if (value === undefined) return undefined;
  const noProxy = setting(env, 'NO_PROXY');
  if (bypassesProxy(noProxy, target, noProxy?.includes('/') ? await import('node:net') : undefined)) return undefined;
  const named = env[variable] !== undefined ? variable : variable.toLowerCase();
  let url: URL;
  try {
    // curl takes a bare host:port as an http:// proxy.
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    throw new UsageError(`${named} is not a valid proxy URL: '${printable(value.replace(/\/\/[^@/]*@/, '//***@'))}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${named} must be an http:// or https:// proxy URL, not ${printable(url.protocol)}`);
  }
  const display = `${url.protocol}//${url.username || url.password ? '***@' : ''}${url.host}`;
  return { variable: named, url, display };
}

/** fetch through the proxy, for the requests of the client it is given to; loaded only when a proxy applies. */
export async function proxyTransport(choice: ProxyChoice, maxAnswerBytes: number): Promise<Step> {
  // undici is CommonJS: its exports arrive as the default export once bundled.
  const { ProxyAgent } = (await import('undici')).default;
  return fetchTransport(maxAnswerBytes, new ProxyAgent({ uri: choice.url.href }));
}
