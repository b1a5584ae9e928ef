// cip through real proxies (test/helpers/real-proxy.ts): squid, tinyproxy and mitmproxy, each started once for
// this file, each asking for Basic credentials. Through each: an https:// base URL in a CONNECT tunnel (mitmproxy
// opens it and speaks TLS to both sides: cip must trust its CA, and is told so when it does not) and an http://
// one sent to the proxy whole; a write; the proxy's 407 without credentials or with a wrong password, named as the
// proxy's and never showing the password; and --timeout and Ctrl-C while the API holds the answer. The API's name
// resolves only at the proxy, so an answer proves the request went through it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { cip, expectOneErrorLine, sandboxEnv, spawnCip, tempDir, type CipResult } from '../helpers/cli.js';
import { refusedUrl } from '../helpers/ports.js';
import { PROXY_PASSWORD, PROXY_USER, missing, startRealProxy, type ProxyKind, type RealProxy } from '../helpers/real-proxy.js';
import { PROXIED_HOST, makeCertificate, type TestCertificate } from '../helpers/tls.js';

const certificate: TestCertificate | undefined = makeCertificate(tempDir('cip-tls-'));
const KINDS: ProxyKind[] = ['squid', 'tinyproxy', 'mitmproxy'];

let secure: Sandbox;
let plain: Sandbox;
beforeAll(async () => {
  if (!certificate) return;
  [secure, plain] = await Promise.all([
    startSandbox({ seed: 2, tls: { key: certificate.key, cert: certificate.cert } }),
    startSandbox({ seed: 1 }),
  ]);
});
afterAll(async () => {
  await Promise.all([secure?.close(), plain?.close()]);
});
beforeEach(() => {
  secure?.reset();
  plain?.reset();
});

const ENCODED_PASSWORD = encodeURIComponent(PROXY_PASSWORD);

function expectNoSecrets(result: CipResult, sandbox: Sandbox): void {
  for (const secret of [sandbox.keys.apiKey, sandbox.keys.subscriptionKey, PROXY_PASSWORD, ENCODED_PASSWORD]) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
}

function expectListed(result: CipResult, sandbox: Sandbox): void {
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  const listed = JSON.parse(result.stdout) as { id: string }[];
  expect(listed.map((record) => record.id).sort()).toEqual([...sandbox.environments.keys()].sort());
}

for (const kind of KINDS) {
  const why = certificate ? missing(kind) : 'openssl not found: no test certificate';
  if (why) it.skip(`${kind} (${why})`, () => undefined);

  describe.skipIf(why !== undefined)(kind, () => {
    let proxy: RealProxy;
    beforeAll(async () => {
      proxy = await startRealProxy(kind, certificate!.certPath);
    });
    afterAll(() => proxy?.stop());

    /** What cip trusts for https://: the sandbox's certificate, or the CA of a proxy that makes its own. */
    const trust = () => proxy.interceptCa ?? certificate!.certPath;
    const httpsEnv = (proxyUrl: string, extra: Record<string, string> = {}) =>
      sandboxEnv(secure, {
        CIP_BASE_URL: `https://${PROXIED_HOST}:${secure.port}/ms`,
        HTTPS_PROXY: proxyUrl,
        NODE_EXTRA_CA_CERTS: trust(),
        ...extra,
      });
    const httpEnv = (proxyUrl: string, extra: Record<string, string> = {}) =>
      sandboxEnv(plain, { CIP_BASE_URL: `http://${PROXIED_HOST}:${plain.port}/ms`, CIP_ALLOW_HTTP: '1', HTTP_PROXY: proxyUrl, ...extra });

    it('https://: env list goes through the proxy in a CONNECT tunnel', async () => {
      const result = await cip(['env', 'list', '-o', 'json'], { env: httpsEnv(proxy.withCredentials) });
      expectListed(result, secure);
      expect(secure.requests).toHaveLength(1);
      expectNoSecrets(result, secure);
    });

    it('http://: env list goes to the proxy whole; its credentials stop at the proxy', async () => {
      const result = await cip(['env', 'list', '-o', 'json'], { env: httpEnv(proxy.withCredentials) });
      expectListed(result, plain);
      expect(plain.requests).toHaveLength(1);
      expect(plain.requests[0]!.headers['proxy-authorization']).toBeUndefined();
      expectNoSecrets(result, plain);
    });

    it('https://: a create (a POST, on a connection of its own) and a delete go through', async () => {
      const created = await cip(['env', 'create', '-f', `name=through-${kind}`, '-o', 'json'], { env: httpsEnv(proxy.withCredentials) });
      expect(created.exitCode).toBe(0);
      const { id } = JSON.parse(created.stdout) as { id: string };
      expect(secure.environments.get(id)).toMatchObject({ name: `through-${kind}` });
      const deleted = await cip(['env', 'delete', id, '--yes'], { env: httpsEnv(proxy.withCredentials) });
      expect(deleted.exitCode).toBe(0);
      expect(secure.environments.has(id)).toBe(false);
    });

    it('https://: many deletes at once, 8 at a time, each through the proxy', async () => {
      const ids = Array.from({ length: 12 }, (_, index) => `${kind}-${index}`);
      for (const id of ids) secure.environments.set(id, { id, name: id });
      const result = await cip(['env', 'delete', ...ids, '--yes', '--concurrency', '8'], { env: httpsEnv(proxy.withCredentials) });
      expect(result.exitCode).toBe(0);
      expect(ids.filter((id) => secure.environments.has(id))).toEqual([]);
      expect(secure.requests.filter((request) => request.method === 'DELETE')).toHaveLength(ids.length);
    });

    it('--verbose names the proxy with its credentials hidden', async () => {
      const result = await cip(['env', 'list', '--verbose'], { env: httpsEnv(proxy.withCredentials) });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toContain(`(through the proxy http://***@${new URL(proxy.url).host}, from HTTPS_PROXY)`);
      expectNoSecrets(result, secure);
    });

    const asksForCredentials = (variable: string) =>
      `error: cannot list environments: the proxy at ${proxy.url} asks for authentication (HTTP 407) ` +
      `(put credentials in ${variable}: http://USER:PASSWORD@${new URL(proxy.url).host})`;

    it.each(['https', 'http'])('%s://: without credentials, the 407 is the proxy asking for them: exit 8, asked once', async (scheme) => {
      const env = scheme === 'https' ? httpsEnv(proxy.url) : httpEnv(proxy.url);
      const result = await cip(['env', 'list'], { env });
      expect(result.exitCode).toBe(8);
      expect(result.stdout).toBe('');
      expect(expectOneErrorLine(result.stderr)).toBe(asksForCredentials(scheme === 'https' ? 'HTTPS_PROXY' : 'HTTP_PROXY'));
      expect([...secure.requests, ...plain.requests]).toEqual([]);
    });

    // tinyproxy refuses a wrong password with 401 rather than 407: to a CONNECT that can only be the proxy's.
    const refusal = kind === 'tinyproxy' ? 401 : 407;
    const refused = (variable: string) =>
      `error: cannot list environments: the proxy at http://***@${new URL(proxy.url).host} asks for authentication (HTTP ${refusal}) ` +
      `(the proxy refused the user name and password in ${variable}: check them)`;

    it(`https://: a wrong password is refused (HTTP ${refusal}), asked once, and never shown`, async () => {
      const wrong = proxy.withCredentials.replace(ENCODED_PASSWORD, 'wrong-secret-4242');
      const result = await cip(['env', 'list', '--verbose'], { env: httpsEnv(wrong) });
      expect(result.exitCode).toBe(8);
      expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(refused('HTTPS_PROXY'));
      expect(result.stderr.match(/^> GET /gm)).toHaveLength(1);
      expect(result.stderr).not.toContain('wrong-secret-4242');
      expect(result.stderr).not.toContain(PROXY_USER);
    });

    if (kind === 'tinyproxy')
      it.skip("http://: a wrong password (tinyproxy answers 401, which cannot be told from the API's own)", () => undefined);
    else
      it('http://: a wrong password is a 407 too, asked once, and never shown', async () => {
        const wrong = proxy.withCredentials.replace(ENCODED_PASSWORD, 'wrong-secret-4242');
        const result = await cip(['env', 'list', '--verbose'], { env: httpEnv(wrong) });
        expect(result.exitCode).toBe(8);
        expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(refused('HTTP_PROXY'));
        expect(result.stderr.match(/^> GET /gm)).toHaveLength(1);
        expect(result.stderr).not.toContain('wrong-secret-4242');
        expect(result.stderr).not.toContain(PROXY_USER);
        expect(plain.requests).toEqual([]);
      });

    it('--timeout while the API holds its answer: exit 8 at the time-out, and the run ends', async () => {
      let release!: () => void;
      secure.inject({ fault: { kind: 'hold', release: new Promise<void>((resolve) => (release = resolve)) }, times: Infinity });
      try {
        const result = await cip(['env', 'list', '--timeout', '1'], { env: httpsEnv(proxy.withCredentials) });
        expect(result.exitCode).toBe(8);
        expect(expectOneErrorLine(result.stderr)).toBe(
          `error: cannot list environments: no answer from ${PROXIED_HOST}:${secure.port} within 1s`.concat(
            ' (raise --timeout, or check the network)',
          ),
        );
      } finally {
        release();
      }
    });

    it('Ctrl-C while the API holds its answer: exit 130 at once', async () => {
      let release!: () => void;
      secure.inject({ fault: { kind: 'hold', release: new Promise<void>((resolve) => (release = resolve)) } });
      try {
        const child = spawnCip(['env', 'list'], { env: httpsEnv(proxy.withCredentials) });
        await secure.waitForRequest(() => true);
        child.kill('SIGINT');
        const result = await child;
        expect(result.exitCode).toBe(130);
        expect(result.stdout).toBe('');
      } finally {
        release();
      }
    });

    if (kind === 'mitmproxy') {
      it('a proxy that intercepts TLS, without its CA trusted: the certificate is blamed, through the proxy', async () => {
        const result = await cip(['env', 'list'], { env: httpsEnv(proxy.withCredentials, { NODE_EXTRA_CA_CERTS: certificate!.certPath }) });
        expect(result.exitCode).toBe(8);
        expect(expectOneErrorLine(result.stderr)).toMatch(
          new RegExp(
            `^error: cannot list environments: cannot reach ${PROXIED_HOST}:${secure.port} through the proxy at http://\\*\\*\\*@127\\.0\\.0\\.1:\\d+: .*certificate.*NODE_EXTRA_CA_CERTS`,
          ),
        );
        expect(secure.requests).toEqual([]);
        expectNoSecrets(result, secure);
      });
    }
  });
}

describe.skipIf(!certificate)('a proxy that is down', () => {
  it.each(['https', 'http'])('%s://: named as the proxy, from its variable: exit 8', async (scheme) => {
    const down = (await refusedUrl()).replace('//', `//${PROXY_USER}:${ENCODED_PASSWORD}@`);
    const variable = scheme === 'https' ? 'HTTPS_PROXY' : 'HTTP_PROXY';
    const sandbox = scheme === 'https' ? secure : plain;
    const result = await cip(['env', 'list'], {
      env: sandboxEnv(sandbox, {
        CIP_BASE_URL: `${scheme}://${PROXIED_HOST}:${sandbox.port}/ms`,
        CIP_ALLOW_HTTP: '1',
        [variable]: down,
      }),
    });
    expect(result.exitCode).toBe(8);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: cannot list environments: cannot reach the proxy at http://***@${new URL(down).host} (from ${variable}): connection refused (ECONNREFUSED)`,
    );
    expectNoSecrets(result, sandbox);
  });
});
