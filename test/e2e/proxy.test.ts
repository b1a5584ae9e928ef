// HTTPS and corporate networks: a self-signed server certificate is refused unless NODE_EXTRA_CA_CERTS names it;
// an https:// base URL goes through HTTPS_PROXY (never HTTP_PROXY) in a CONNECT tunnel, NO_PROXY bypasses it,
// a base URL on this machine never goes through a proxy (not even when NODE_USE_ENV_PROXY asks Node to), a proxy
// that refuses or is down is named as the proxy, and one that never answers or keeps a refused connection open
// does not hold the run. The keys travel only inside TLS, so neither the output nor the proxy ever sees them.
// Real proxies (squid, tinyproxy, mitmproxy) are in real-proxies.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { cip, expectOneErrorLine, sandboxEnv, tempDir, type CipResult } from '../helpers/cli.js';
import { startConnectProxy, type ConnectProxy } from '../helpers/connect-proxy.js';
import { refusedUrl } from '../helpers/ports.js';
import { PROXIED_HOST, makeCertificate, type TestCertificate } from '../helpers/tls.js';

const certificate: TestCertificate | undefined = makeCertificate(tempDir('cip-tls-'));
const noOpenssl = certificate === undefined;

/** A CONNECT refused as squid refuses it: a body, and the connection kept open for the next request. */
const REFUSAL = 'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\nContent-Length: 4\r\n\r\nauth';

// One TLS sandbox and one proxy for the file, not the fixture's sandbox a test: the last case checks what the proxy
// saw over all the cases before it (only CONNECT targets, no key in cleartext); each case resets the sandboxes.
let sandbox: Sandbox;
let plain: Sandbox;
let proxy: ConnectProxy;
/** The sandbox by a name only the proxy can resolve, as an API behind a corporate proxy is. */
let proxiedUrl: string;
let target: string;

beforeAll(async () => {
  if (!certificate) return;
  sandbox = await startSandbox({ seed: 2, tls: { key: certificate.key, cert: certificate.cert } });
  plain = await startSandbox({ seed: 1 });
  proxy = await startConnectProxy();
  target = `${PROXIED_HOST}:${sandbox.port}`;
  proxiedUrl = `https://${target}/ms`;
});
// The servers exist only when a certificate could be made (see beforeAll).
afterAll(async () => {
  await Promise.all([sandbox?.close(), plain?.close(), proxy?.close()]);
});
beforeEach(() => {
  sandbox?.reset();
  plain?.reset();
});

function expectNoSecrets(result: CipResult): void {
  for (const secret of [sandbox.keys.apiKey, sandbox.keys.subscriptionKey]) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
}

function expectListed(result: CipResult): void {
  expect(result.exitCode).toBe(0);
  const listed = JSON.parse(result.stdout) as { id: string }[];
  expect(listed.map((record) => record.id).sort()).toEqual([...sandbox.environments.keys()].sort());
}

/** The environment of a run against the sandbox by its proxied name. */
function proxiedEnv(extra: Record<string, string>): Record<string, string | undefined> {
  return sandboxEnv(sandbox, { CIP_BASE_URL: proxiedUrl, NODE_EXTRA_CA_CERTS: certificate!.certPath, ...extra });
}

/** Runs `cip env list` through the proxy and checks it opened exactly one tunnel, to the sandbox. */
async function listThroughProxy(extra: Record<string, string>, args: string[] = []): Promise<CipResult> {
  const before = proxy.tunnels.length;
  const result = await cip(['env', 'list', ...args], { env: proxiedEnv(extra) });
  expect(proxy.tunnels.slice(before)).toEqual([target]);
  return result;
}

/** Runs `cip env list` by the proxied name and checks no tunnel was opened: the name then resolves nowhere. */
async function listDirect(extra: Record<string, string>): Promise<CipResult> {
  const before = proxy.tunnels.length;
  const result = await cip(['env', 'list'], { env: proxiedEnv(extra) });
  expect(proxy.tunnels.length).toBe(before);
  expect(result.exitCode).toBe(8);
  expect(expectOneErrorLine(result.stderr)).toMatch(
    new RegExp(`^error: cannot list environments: cannot reach ${PROXIED_HOST}:\\d+: (host not found|DNS lookup failed)`),
  );
  return result;
}

describe.skipIf(noOpenssl)('HTTPS with a self-signed certificate', () => {
  it('is refused without NODE_EXTRA_CA_CERTS: exit 8, one error line naming the problem and the fix', async () => {
    expect(sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/ms$/);
    const result = await cip(['env', 'list'], { env: sandboxEnv(sandbox) });
    expect(result.exitCode).toBe(8);
    expect(result.stdout).toBe('');
    const line = expectOneErrorLine(result.stderr);
    expect(line).toMatch(/^error: cannot list environments: cannot reach 127\.0\.0\.1:\d+: .*self-signed/);
    expect(result.stderr).toContain('NODE_EXTRA_CA_CERTS');
    expectNoSecrets(result);
    // The handshake failed, so no request, and no key, reached the server.
    expect(sandbox.requests).toHaveLength(0);
  });

  it('is accepted with NODE_EXTRA_CA_CERTS naming the certificate', async () => {
    const result = await cip(['env', 'list'], { env: sandboxEnv(sandbox, { NODE_EXTRA_CA_CERTS: certificate!.certPath }) });
    expectListed(result);
    expectNoSecrets(result);
    expect(sandbox.requests).toHaveLength(1);
  });
});

describe.skipIf(noOpenssl)('proxies', () => {
  it('HTTPS_PROXY sends the request through one CONNECT tunnel to the API', async () => {
    const result = await listThroughProxy({ HTTPS_PROXY: proxy.url });
    expectListed(result);
    expect(result.stderr).toBe('');
    expectNoSecrets(result);
    expect(sandbox.requests).toHaveLength(1);
  });

  it('lower-case https_proxy is honoured too', async () => {
    const result = await listThroughProxy({ https_proxy: proxy.url });
    expectListed(result);
    expectNoSecrets(result);
  });

  it('an https:// base URL never uses HTTP_PROXY', async () => {
    await listDirect({ HTTP_PROXY: proxy.url });
  });

  it.each(['api.cip.test', '.cip.test', 'cip.test', '*.cip.test', `other.example, ${PROXIED_HOST}`, '*'])(
    'NO_PROXY=%s goes direct',
    async (noProxy) => {
      await listDirect({ HTTPS_PROXY: proxy.url, NO_PROXY: noProxy });
    },
  );

  it('NO_PROXY that does not name the host leaves the proxy in use', async () => {
    expectListed(await listThroughProxy({ HTTPS_PROXY: proxy.url, NO_PROXY: 'other.example,cip.test:1' }));
  });

  it('a base URL on this machine never goes through a proxy, whatever NO_PROXY says', async () => {
    const before = { tunnels: proxy.tunnels.length, requests: proxy.requests.length };
    const overHttp = await cip(['env', 'list'], {
      env: sandboxEnv(plain, { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: 'nothing.example' }),
    });
    expect(overHttp.exitCode).toBe(0);
    expect(plain.requests).toHaveLength(1);
    const overHttps = await cip(['env', 'list'], {
      env: sandboxEnv(sandbox, { NODE_EXTRA_CA_CERTS: certificate!.certPath, HTTPS_PROXY: proxy.url }),
    });
    expectListed(overHttps);
    const viaLocalhost = await cip(['env', 'list'], {
      env: sandboxEnv(plain, { CIP_BASE_URL: plain.url.replace('127.0.0.1', 'localhost'), HTTP_PROXY: proxy.url }),
    });
    expect(viaLocalhost.exitCode).toBe(0);
    expect({ tunnels: proxy.tunnels.length, requests: proxy.requests.length }).toEqual(before);
  });

  it("a run through a proxy loads neither fetch nor Node's internal undici: the same node:http as without one", async () => {
    const dir = tempDir();
    const list = join(dir, 'modules');
    writeFileSync(
      join(dir, 'preload.cjs'),
      "process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULE_LIST_FILE, process.moduleLoadList.join('\\n')));\n",
    );
    const env = { NODE_OPTIONS: `--require ${join(dir, 'preload.cjs')}`, MODULE_LIST_FILE: list };
    expectListed(await listThroughProxy({ HTTPS_PROXY: proxy.url, ...env }));
    const modules = readFileSync(list, 'utf8').split('\n');
    expect(modules).toContain('NativeModule https');
    expect(modules.filter((name) => /undici|fetch/.test(name))).toEqual([]);
  });

  it('an https:// proxy: TLS to the proxy, and the tunnel inside it', async () => {
    const secureProxy = await startConnectProxy({ tls: { key: certificate!.key, cert: certificate!.cert } });
    try {
      const result = await cip(['env', 'list'], { env: proxiedEnv({ HTTPS_PROXY: secureProxy.url }) });
      expectListed(result);
      expect(secureProxy.url).toMatch(/^https:/);
      expect(secureProxy.tunnels).toEqual([target]);
    } finally {
      await secureProxy.close();
    }
  });

  it('--verbose names the proxy, hiding its credentials, which go to the proxy only', async () => {
    const withCredentials = proxy.url.replace('http://', 'http://corp-user:proxy-secret-9999@');
    const result = await listThroughProxy({ HTTPS_PROXY: withCredentials }, ['--verbose']);
    expectListed(result);
    expect(result.stderr).toContain(
      `> GET ${proxiedUrl}/Environments (through the proxy http://***@${proxy.url.slice('http://'.length)}, from HTTPS_PROXY)\n`,
    );
    expect(result.stderr).not.toContain('proxy-secret-9999');
    expect(proxy.authorizations.at(-1)).toBe(`Basic ${Buffer.from('corp-user:proxy-secret-9999').toString('base64')}`);
  });

  it.each([
    [
      407,
      /the proxy at http:\/\/127\.0\.0\.1:\d+ asks for authentication \(HTTP 407\) \(put credentials in HTTPS_PROXY: http:\/\/USER:PASSWORD@127\.0\.0\.1:\d+\)$/,
    ],
    [403, /the proxy at http:\/\/127\.0\.0\.1:\d+ refused to connect to api\.cip\.test:\d+ \(HTTP 403\)/],
  ])('a proxy that answers %i is named, and not asked again', async (status, message) => {
    const refusing = await startConnectProxy({ refuse: status });
    try {
      const result = await cip(['env', 'list'], { env: proxiedEnv({ HTTPS_PROXY: refusing.url }) });
      expect(result.exitCode).toBe(8);
      expect(expectOneErrorLine(result.stderr)).toMatch(message);
      expect(refusing.tunnels).toEqual([target]);
      expectNoSecrets(result);
    } finally {
      await refusing.close();
    }
  });

  it('a proxy that is down is named as the proxy', async () => {
    const closed = { url: await refusedUrl() };
    const result = await cip(['env', 'list'], { env: proxiedEnv({ HTTPS_PROXY: closed.url }) });
    expect(result.exitCode).toBe(8);
    expect(result.stdout).toBe('');
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: cannot list environments: cannot reach the proxy at ${closed.url} (from HTTPS_PROXY): connection refused (ECONNREFUSED)`,
    );
    expectNoSecrets(result);
    expect(sandbox.requests).toHaveLength(0);
  });

  it.each([
    ['never answers the CONNECT', (socket: Socket) => socket.resume()],
    ['answers 407 and keeps the connection open', (socket: Socket) => socket.once('data', () => socket.write(REFUSAL))],
  ])('a proxy that %s: the run ends with its error, leaving nothing open behind', async (_what, behave) => {
    const sockets = new Set<Socket>();
    const proxyServer = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      behave(socket);
    });
    await new Promise<void>((resolve) => proxyServer.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(proxyServer.address() as AddressInfo).port}`;
      const result = await cip(['env', 'list', '--timeout', '1'], { env: proxiedEnv({ HTTPS_PROXY: url }) });
      // Without the fix, the connection to the proxy kept the process alive until execa's time limit killed it.
      expect(result.exitCode).toBe(8);
      expect(expectOneErrorLine(result.stderr)).toMatch(
        /^error: cannot list environments: (no answer from api\.cip\.test:\d+ within 1s|the proxy at http:\/\/127\.0\.0\.1:\d+ asks for authentication \(HTTP 407\))/,
      );
      expect(sandbox.requests).toHaveLength(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => proxyServer.close(resolve));
    }
  });

  it("cip's rules win over Node's own under NODE_USE_ENV_PROXY=1: this machine stays direct, POST too, and HTTPS_PROXY beats https_proxy", async () => {
    const before = { tunnels: proxy.tunnels.length, requests: proxy.requests.length };
    const nodeWide = { NODE_USE_ENV_PROXY: '1', HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url };
    const listed = await cip(['env', 'list'], { env: sandboxEnv(plain, nodeWide) });
    expect(listed.exitCode).toBe(0);
    const created = await cip(['env', 'create', '-f', 'name=direct'], { env: sandboxEnv(plain, nodeWide) });
    expect(created.exitCode).toBe(0);
    expect(plain.requests.map((request) => request.method)).toEqual(['GET', 'POST']);
    expect({ tunnels: proxy.tunnels.length, requests: proxy.requests.length }).toEqual(before);
    // Node would take the lower-case one first; cip takes HTTPS_PROXY, as curl does.
    const refusing = await startConnectProxy({ refuse: 403 });
    try {
      expectListed(await listThroughProxy({ NODE_USE_ENV_PROXY: '1', HTTPS_PROXY: proxy.url, https_proxy: refusing.url }));
      expect(refusing.tunnels).toEqual([]);
    } finally {
      await refusing.close();
    }
  });

  it('the proxy saw only CONNECT targets: no plain request and no key in cleartext', () => {
    expect(proxy.tunnels.length).toBeGreaterThan(0);
    expect(proxy.requests).toEqual([]);
    for (const tunnel of proxy.tunnels) {
      expect(tunnel).toBe(target);
      expect(tunnel).not.toContain(sandbox.keys.apiKey);
      expect(tunnel).not.toContain(sandbox.keys.subscriptionKey);
    }
  });
});
