// Real forward proxies for test/e2e/real-proxies.test.ts: squid, tinyproxy and mitmproxy, as Debian packages them
// (.ci/run installs them as root; without one, its tests skip and say so). Each runs in the foreground on
// 127.0.0.1, on a port of its own, from a configuration written into a temp folder, asks for Basic credentials
// (PROXY_USER, PROXY_PASSWORD), and is ready when it says it listens (its own output, read as it comes). Like a
// corporate proxy, each resolves the API's name itself: PROXIED_HOST, which resolves nowhere else, leads to
// 127.0.0.1, so a request that reaches the API went through the proxy. squid reads a hosts file, mitmproxy an
// addon; tinyproxy can use only the system's resolver, so it hands every request to the test helper proxy
// (test/helpers/connect-proxy.ts) as its upstream, which maps the name.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, chmodSync, constants, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { delimiter, join } from 'node:path';
import { tempDir } from './cli.js';
import { startConnectProxy, type ConnectProxy } from './connect-proxy.js';
import { PROXIED_HOST } from './tls.js';

export const PROXY_USER = 'corp-user';
/** tinyproxy's configuration takes letters, digits, '-', '.' and '_' only; mitmproxy's no ':'. */
export const PROXY_PASSWORD = 'proxy-secret.9999';

export type ProxyKind = 'squid' | 'tinyproxy' | 'mitmproxy';

export interface RealProxy {
  readonly kind: ProxyKind;
  /** http://127.0.0.1:PORT, without credentials. */
  readonly url: string;
  /** The URL with PROXY_USER and PROXY_PASSWORD in it, percent-encoded. */
  readonly withCredentials: string;
  /** The CA whose certificates the proxy makes for the sites it intercepts (mitmproxy), for NODE_EXTRA_CA_CERTS. */
  readonly interceptCa?: string;
  /** What the proxy has printed so far. */
  output(): string;
  stop(): Promise<void>;
}

const SBIN = ['/usr/sbin', '/usr/local/sbin', '/sbin'];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The program's path: on PATH, or in an sbin folder (squid is in /usr/sbin, which a user's PATH may lack). */
function find(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...SBIN];
  return dirs.map((dir) => join(dir, name)).find(executable);
}

/** squid's Basic authentication helper, where Debian and others put it. */
const NCSA_AUTH = ['/usr/lib/squid/basic_ncsa_auth', '/usr/lib64/squid/basic_ncsa_auth', '/usr/libexec/squid/basic_ncsa_auth'].find(
  executable,
);

const PROGRAMS: Record<ProxyKind, string | undefined> = { squid: find('squid'), tinyproxy: find('tinyproxy'), mitmproxy: find('mitmdump') };

/** Why the proxy cannot run here, or undefined when it can. */
export function missing(kind: ProxyKind): string | undefined {
  const install = `apt-get install ${kind}; .ci/run installs it as root`;
  if (!PROGRAMS[kind]) return `${kind === 'mitmproxy' ? 'mitmdump' : kind} not found: ${install}`;
  if (kind === 'squid' && !NCSA_AUTH) return `squid's basic_ncsa_auth not found: ${install}`;
  if (!find('openssl')) return 'openssl not found (the test certificate and the password file need it)';
  return undefined;
}

/** A port nothing listens on now. The proxy may lose it to another process before it binds: see `start`. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Launch {
  args: string[];
  /** What the proxy prints once it listens. */
  ready: RegExp;
}

/** Starts the program and resolves once it says it is ready; rejects if it exits first, or after 30 s. */
function launch(program: string, { args, ready }: Launch, cwd: string): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(program, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(limit);
      child.kill('SIGKILL');
      reject(new Error(`${program} ${why}:\n${output.slice(-4000)}`));
    };
    const limit = setTimeout(() => fail('did not say it listens within 30 s'), 30_000);
    const read = (chunk: Buffer) => {
      // Bounded: a proxy that logs each request must not fill the test's memory.
      output = (output + chunk.toString()).slice(-100_000);
      if (ready.test(output)) {
        clearTimeout(limit);
        resolve({ child, output: () => output });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('error', (error) => fail(`could not start (${error.message})`));
    child.once('exit', (code, signal) => fail(`exited (${signal ?? code ?? ''}) before it listened`));
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      // The test proxies keep nothing worth a clean shutdown (squid's takes a second).
      child.kill('SIGKILL');
    });
}

/** An apr1 (MD5) password hash, which squid's basic_ncsa_auth reads. */
function apr1(password: string): string {
  return execFileSync('openssl', ['passwd', '-apr1', password], { encoding: 'utf8' }).trim();
}

function squid(dir: string, port: number): Launch {
  writeFileSync(join(dir, 'hosts'), `127.0.0.1 ${PROXIED_HOST}\n`);
  writeFileSync(join(dir, 'passwd'), `${PROXY_USER}:${apr1(PROXY_PASSWORD)}\n`);
  const config = [
    `http_port 127.0.0.1:${port}`,
    `pid_filename ${dir}/squid.pid`,
    `cache_log ${dir}/cache.log`,
    'access_log none',
    'cache deny all',
    'cache_mem 0 MB',
    `coredump_dir ${dir}`,
    `hosts_file ${dir}/hosts`,
    // Every name the tests use is in the hosts file: no DNS server is asked.
    'dns_nameservers 127.0.0.1',
    'pinger_enable off',
    'shutdown_lifetime 0 seconds',
    'visible_hostname cip-test',
    `auth_param basic program ${NCSA_AUTH!} ${dir}/passwd`,
    'auth_param basic children 2 startup=1 idle=1',
    'auth_param basic realm cip-test',
    'acl users proxy_auth REQUIRED',
    // CONNECT to any port: the sandbox's is not 443.
    'http_access allow localhost users',
    'http_access deny all',
  ];
  writeFileSync(join(dir, 'squid.conf'), `${config.join('\n')}\n`);
  // -N: in the foreground; -d 1: its log on stderr too, where "Accepting HTTP Socket connections" says it listens.
  return { args: ['-N', '-d', '1', '-f', join(dir, 'squid.conf')], ready: /Accepting HTTP Socket connections at/ };
}

function tinyproxy(dir: string, port: number, upstream: ConnectProxy): Launch {
  const config = [
    `Port ${port}`,
    'Listen 127.0.0.1',
    'Timeout 60',
    'LogLevel Info',
    'MaxClients 50',
    'Allow 127.0.0.1',
    `BasicAuth ${PROXY_USER} ${PROXY_PASSWORD}`,
    `Upstream http ${new URL(upstream.url).host}`,
  ];
  writeFileSync(join(dir, 'tinyproxy.conf'), `${config.join('\n')}\n`);
  // -d: in the foreground, its log on stderr.
  return { args: ['-d', '-c', join(dir, 'tinyproxy.conf')], ready: /Accepting connections/ };
}

function mitmproxy(dir: string, port: number, trusted: string): Launch {
  writeFileSync(
    join(dir, 'map.py'),
    [
      'def server_connect(data):',
      '    host, port = data.server.address',
      `    if host == "${PROXIED_HOST}":`,
      '        data.server.address = ("127.0.0.1", port)',
      '',
    ].join('\n'),
  );
  return {
    args: [
      '--listen-host',
      '127.0.0.1',
      '--listen-port',
      String(port),
      '--set',
      `confdir=${join(dir, 'conf')}`,
      '--set',
      `proxyauth=${PROXY_USER}:${PROXY_PASSWORD}`,
      // The sandbox's certificate, for mitmproxy's own connection to it.
      '--set',
      `ssl_verify_upstream_trusted_ca=${trusted}`,
      '-s',
      join(dir, 'map.py'),
    ],
    ready: /listening at/i,
  };
}

/**
 * Starts the proxy. `trusted` is the PEM file of the sandbox's certificate (mitmproxy, which makes its own TLS
 * connection to the API, must trust it). A port lost to another process between choosing and binding makes the
 * proxy exit: it is tried again on another port.
 */
export async function startRealProxy(kind: ProxyKind, trusted: string): Promise<RealProxy> {
  const dir = tempDir(`cip-${kind}-`);
  // squid started as root runs as the user `proxy`, which must read and write here.
  chmodSync(dir, 0o777);
  const upstream = kind === 'tinyproxy' ? await startConnectProxy() : undefined;
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const launching =
      kind === 'squid' ? squid(dir, port) : kind === 'tinyproxy' ? tinyproxy(dir, port, upstream!) : mitmproxy(dir, port, trusted);
    try {
      const { child, output } = await launch(PROGRAMS[kind]!, launching, dir);
      const stop = stopper(child);
      const url = `http://127.0.0.1:${port}`;
      return {
        kind,
        url,
        withCredentials: `http://${encodeURIComponent(PROXY_USER)}:${encodeURIComponent(PROXY_PASSWORD)}@127.0.0.1:${port}`,
        ...(kind === 'mitmproxy' ? { interceptCa: join(dir, 'conf', 'mitmproxy-ca-cert.pem') } : {}),
        output,
        stop: async () => {
          await stop();
          await upstream?.close();
        },
      };
    } catch (error) {
      if (attempt === 3) {
        await upstream?.close();
        throw error;
      }
    }
  }
}
