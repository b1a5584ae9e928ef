// HTTPS and corporate networks: a self-signed server certificate is refused unless NODE_EXTRA_CA_CERTS names it,
// HTTPS_PROXY/https_proxy send the request through a CONNECT tunnel, NO_PROXY bypasses it, and an unreachable
// proxy is a network error. The keys travel only inside TLS, so neither the output nor the proxy ever sees them.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { cip, expectOneErrorLine, sandboxEnv, tempDir, type CipResult } from '../helpers/cli.js';
import { startConnectProxy, type ConnectProxy } from '../helpers/connect-proxy.js';
import { makeCertificate, type TestCertificate } from '../helpers/tls.js';

const certificate: TestCertificate | undefined = makeCertificate(tempDir('cip-tls-'));
const noOpenssl = certificate === undefined;

let sandbox: Sandbox;
let proxy: ConnectProxy;
let target: string;
let proxiedRuns = 0;

beforeAll(async () => {
  if (!certificate) return;
  sandbox = await startSandbox({ seed: 2, tls: { key: certificate.key, cert: certificate.cert } });
  proxy = await startConnectProxy();
  target = new URL(sandbox.url).host;
});
afterAll(async () => {
  if (proxy) console.log(`proxy: ${proxiedRuns} runs, ${proxy.tunnels.length} tunnels opened`);
  await Promise.all([sandbox?.close(), proxy?.close()]);
});
beforeEach(() => {
  sandbox?.reset();
});

function expectNoSecrets(result: CipResult): void {
  for (const secret of [sandbox.keys.apiKey, sandbox.keys.subscriptionKey]) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
}

function expectListed(result: CipResult): void {
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  const listed = JSON.parse(result.stdout) as { id: string }[];
  expect(listed.map((record) => record.id).sort()).toEqual([...sandbox.environments.keys()].sort());
}

/** Runs `cip env list` through the proxy and checks it opened exactly one tunnel, to the sandbox. */
async function listThroughProxy(extra: Record<string, string>): Promise<CipResult> {
  const before = proxy.tunnels.length;
  proxiedRuns++;
  const result = await cip(['env', 'list'], { env: sandboxEnv(sandbox, { NODE_EXTRA_CA_CERTS: certificate!.certPath, ...extra }) });
  expect(proxy.tunnels.slice(before)).toEqual([target]);
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
    expectNoSecrets(result);
    expect(sandbox.requests).toHaveLength(1);
  });

  it('lower-case https_proxy is honoured too', async () => {
    const result = await listThroughProxy({ https_proxy: proxy.url });
    expectListed(result);
    expectNoSecrets(result);
  });

  it('NO_PROXY=127.0.0.1 goes direct: no tunnel', async () => {
    const before = proxy.tunnels.length;
    proxiedRuns++;
    const result = await cip(['env', 'list'], {
      env: sandboxEnv(sandbox, { NODE_EXTRA_CA_CERTS: certificate!.certPath, HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }),
    });
    expectListed(result);
    expectNoSecrets(result);
    expect(proxy.tunnels.length).toBe(before);
  });

  it('a proxy that refuses connections is exit 8 with one error line', async () => {
    const closed = await startConnectProxy();
    await closed.close();
    const result = await cip(['env', 'list'], {
      env: sandboxEnv(sandbox, { NODE_EXTRA_CA_CERTS: certificate!.certPath, HTTPS_PROXY: closed.url }),
    });
    expect(result.exitCode).toBe(8);
    expect(result.stdout).toBe('');
    expect(expectOneErrorLine(result.stderr)).toMatch(/^error: cannot list environments: cannot reach 127\.0\.0\.1:\d+: /);
    expectNoSecrets(result);
    expect(sandbox.requests).toHaveLength(0);
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
