// Corporate proxies, read as curl reads them: an https:// base URL goes through HTTPS_PROXY and an http://
// one through HTTP_PROXY (either case), unless NO_PROXY names the host. A base URL on this machine
// (127.0.0.0/8, ::1, localhost, however written) never goes through a proxy, whatever NO_PROXY says, as in Go and curl's
// defaults: a proxy must never see a request that was meant to stay on the machine.
//
// These rules are cip's, decided here for the client's base URL (every request goes to its origin: api/url.ts).
// Node's own proxy support (node:http's Agent with `proxyEnv`, Node 22.21 and 24.5 on) then carries the requests:
// api/transport.ts gives this client's agents the one proxy chosen here and nothing else, so Node's reading of
// the variables (the lower-case name first, NO_PROXY without CIDR blocks) never applies. Nothing process-wide is
// set (NODE_USE_ENV_PROXY, a global agent): another client in the same process (a test, doctor's ping) is not
// sent through this proxy.
import type { Env } from '../env.js';
import { UsageError } from '../errors.js';
import { isLoopbackHost } from '../config/validate.js';
import { printable } from '../text/sanitize.js';

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

/**
 * Whether a request to the host stays on this machine, however the host is written: what isLoopbackHost names,
 * and also `localhost.` and 127.0.0.0/8 as an IPv4-mapped IPv6 address (URL writes [::ffff:127.0.0.1] as
 * [::ffff:7f00:1]). Wider than isLoopbackHost, which lets http:// through without CIP_ALLOW_HTTP: each errs on
 * its own safe side.
 */
function onThisMachine(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return isLoopbackHost(host) || host === 'localhost.' || /^\[::ffff:(7f[0-9a-f]{2}:[0-9a-f]{1,4}|127\.\d+\.\d+\.\d+)\]$/.test(host);
}

/**
 * Whether this Node's http.Agent goes through a proxy itself (`proxyEnv`: 22.21, 24.5, and every Node since 25).
 * An older one ignores the option and would go around the proxy, silently.
 */
export function nodeCanProxy(nodeVersion: string): boolean {
  const [major = 0, minor = 0] = nodeVersion.replace(/^v/, '').split('.').map(Number);
  return major >= 25 || (major === 24 && minor >= 5) || (major === 22 && minor >= 21);
}

/**
 * The proxy a request to `target` goes through, or undefined for a direct connection. `nodeVersion` is the
 * running Node's (process.version): one that cannot go through a proxy is refused when a proxy applies.
 */
export async function proxyFor(env: Env, target: URL, nodeVersion: string): Promise<ProxyChoice | undefined> {
  if (onThisMachine(target.hostname)) return undefined;
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
  // Node decodes the user name and password for the Proxy-Authorization header, and a '%' that starts no escape
  // would throw there, as a crash.
  try {
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    throw new UsageError(`${named} has a user name or password with a '%' that is not percent-encoding: '${display}'`, 'write a % as %25');
  }
  if (!nodeCanProxy(nodeVersion)) {
    throw new UsageError(
      `${named} is set, but Node ${printable(nodeVersion)} cannot go through a proxy: cip needs Node 22.21 or later (24.5 or later on Node 24)`,
      `upgrade Node, or list ${target.hostname} in NO_PROXY to go direct`,
    );
  }
  return { variable: named, url, display };
}

/**
 * What Node's Agent is told as its `proxyEnv`: the proxy chosen above for the base URL's scheme, under the one
 * name Node reads for it, and no NO_PROXY (cip has applied its own).
 */
export function agentProxyEnv(choice: ProxyChoice): Readonly<Record<string, string>> {
  return { [choice.variable.toUpperCase()]: choice.url.href };
}
