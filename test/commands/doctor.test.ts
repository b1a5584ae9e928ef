// `cip doctor` in-process: each check's line as a user reads it (and the same checks as JSON), for every way a
// setup can be wrong: the credentials and where they came from, the base URL, DNS, TCP (direct or to a proxy),
// TLS, the anonymous ping, the gateway's and the API's verdicts, and the clock. The sandbox, a TLS sandbox, a
// CONNECT proxy and raw servers run on 127.0.0.1. Names under .invalid never resolve (RFC 6761): the resolver
// is stood in for them, so no test depends on the network. A CA the binary would take from NODE_EXTRA_CA_CERTS
// (read only when a process starts) is handed to node:tls and node:https here.
import { X509Certificate } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConnectionOptions } from 'node:tls';
import { afterEach, describe, expect, vi } from 'vitest';
import { InterruptedError } from '../../src/errors.js';
import { SANDBOX_DEFAULTS, startSandbox, type Fault, type RecordedRequest, type Sandbox } from '../../src/sandbox/index.js';
import { expectOneErrorLine, loginArgs, sandboxEnv, tempDir } from '../helpers/cli.js';
import { startConnectProxy } from '../helpers/connect-proxy.js';
import { refusedPort } from '../helpers/ports.js';
import { rawHttpServer } from '../helpers/raw-http.js';
import { makeCertificate, oldTlsServer } from '../helpers/tls.js';
import { test, type Cip } from '../helpers/fixture.js';
import { setup, projectTest } from '../helpers/project-file.js';
import { EXACT_RECORDS_SANDBOX } from '../helpers/exact-records.js';

const trust = vi.hoisted(() => ({ ca: undefined as string | undefined }));

vi.mock('node:tls', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:tls')>();
  const connect = (options: ConnectionOptions) => real.connect(trust.ca ? { ...options, ca: trust.ca } : options);
  return { ...real, connect, default: { ...real, connect } };
});

vi.mock('node:https', async (importOriginal) => (await import('../helpers/trusted-ca.js')).httpsTrusting(await importOriginal(), trust));

vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = (host: string, options: { all: true }): Promise<LookupAddress[]> =>
    host.endsWith('.invalid')
      ? Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }))
      : real.lookup(host, options);
  return { ...real, lookup, default: { ...real, lookup } };
});

const certificate = makeCertificate(tempDir());

afterEach(() => {
  trust.ca = undefined;
  vi.useRealTimers();
});

const ENTERPRISE: string = SANDBOX_DEFAULTS.enterpriseId;

/** The credentials check of a sandbox's keys from the environment, at this base URL. */
const fromEnv = (base: string, enterprise = ENTERPRISE) =>
  `no profile; base URL ${base} (from CIP_BASE_URL); enterprise ${enterprise} (from CIP_ENTERPRISE_ID); API key ****6789 (from CIP_API_KEY); subscription key ****6789 (from CIP_SUBSCRIPTION_KEY)`;

const NOT_LOGGED_IN = 'not logged in: no profile and no credentials in the environment';

const LOGIN_FIX = "run 'cip auth login', or set CIP_API_KEY, CIP_SUBSCRIPTION_KEY and CIP_ENTERPRISE_ID";

interface Check {
  check: string;
  status: 'ok' | 'failed' | 'warning' | 'skipped';
  detail: string;
  fix?: string;
}

const ok = (check: string, detail: string): Check => ({ check, status: 'ok', detail });

const failed = (check: string, detail: string, fix?: string): Check => ({ check, status: 'failed', detail, ...(fix ? { fix } : {}) });

const skipped = (check: string, detail: string): Check => ({ check, status: 'skipped', detail });

/** The network checks that pass against a sandbox at this base URL, plain http on 127.0.0.1. */
function reachable(url: string): Check[] {
  const { port: at } = new URL(url);
  return [
    ok('base URL', `${url} (http, on this machine)`),
    ok('DNS', '127.0.0.1 is an address: no lookup needed'),
    ok('TCP', `connected to 127.0.0.1:${at}`),
    skipped('TLS', 'http on this machine: no TLS'),
    ok('ping', `GET ${url}/ping without keys: HTTP 200`),
  ];
}

const SUBSCRIPTION_OK = ok('subscription key', 'accepted by the gateway (from CIP_SUBSCRIPTION_KEY)');

const API_OK = ok('API key and enterprise', `GET Environments: HTTP 200; the API key (from CIP_API_KEY) may read enterprise ${ENTERPRISE}`);

// The sandbox's Date is real time, to the second, so how far off it is depends on how long the run took (the
// retries of a failing request take a second): these tests take any number; the clock tests below fix it.
const NO_VERDICT = skipped('subscription key', 'no verdict from the gateway: see the next check');

const CLOCK_OK = ok('clock', "within N s of the server's");

const anyClock = (text: string) => text.replace(/within \d+ s of the server's/, "within N s of the server's");

/** What a terminal shows for these checks (colour off). */
function screen(checks: Check[]): string {
  const mark = { ok: '✓', failed: '✗', warning: '!', skipped: '-' };
  return checks
    .flatMap(({ check, status, detail, fix }) => [`${mark[status]} ${check}: ${detail}`, ...(fix ? [`    fix: ${fix}`] : [])])
    .map((line) => `${line}\n`)
    .join('');
}

type Env = Record<string, string | undefined>;

/** doctor as a user runs it: as text at a terminal (colour off) or as JSON, and both checked against a list. */
function doctorRunner(cip: Cip) {
  const text = (runEnv: Env, configDir?: string) =>
    cip(['doctor'], { env: { ...runEnv, NO_COLOR: '1' }, terminalColumns: 400, ...(configDir ? { configDir } : {}) });
  const json = async (runEnv: Env, configDir?: string) => {
    const result = await cip(['doctor', '-o', 'json'], { env: runEnv, ...(configDir ? { configDir } : {}) });
    return { ...result, checks: JSON.parse(result.stdout) as Check[] };
  };
  /** Runs doctor as text and as JSON, and checks both show these checks, with this exit code and error line. */
  const expectChecks = async (runEnv: Env, checks: Check[], exit: number, options: { configDir?: string } = {}): Promise<void> => {
    const shown = await text(runEnv, options.configDir);
    expect(anyClock(shown.stdout)).toBe(screen(checks));
    expect(shown.exitCode).toBe(exit);
    if (exit === 0) expect(shown.stderr).toBe('All checks passed.\n');
    else expect(expectOneErrorLine(shown.stderr)).toBe(`error: ${firstFailure(checks)}`);
    const parsed = await json(runEnv, options.configDir);
    expect(JSON.parse(anyClock(parsed.stdout))).toEqual(checks);
    expect(parsed.exitCode).toBe(exit);
  };
  return { text, json, expect: expectChecks };
}

const it = test.extend<{ doctor: ReturnType<typeof doctorRunner> }>({
  doctor: async ({ cip }, use) => {
    await use(doctorRunner(cip));
  },
});

function firstFailure(checks: Check[]): string {
  const failures = checks.filter((check) => check.status === 'failed');
  return `${failures.length} of ${checks.length} checks failed; the first: ${failures[0]!.check}: ${failures[0]!.detail}`;
}

const closedPort = refusedPort;

const isPing = (request: RecordedRequest) => request.url === '/ms/ping';

const isList = (request: RecordedRequest) => request.url === '/ms/Environments';

describe('the credentials: each wrong one is named by its own check', () => {
  it('all pass: every check on its line, where each value came from, keys masked', async ({ sandbox, env, doctor }) => {
    await doctor.expect(env, [ok('credentials', fromEnv(sandbox.url)), ...reachable(sandbox.url), SUBSCRIPTION_OK, API_OK, CLOCK_OK], 0);
    const text = await doctor.text(env);
    expect(text.stdout).not.toContain(sandbox.keys.apiKey);
    expect(text.stdout).not.toContain(sandbox.keys.subscriptionKey);
  });

  it('a wrong subscription key: the gateway refuses it, so the API key is not checked (exit 3)', async ({ sandbox, doctor }) => {
    await doctor.expect(
      sandboxEnv(sandbox, { CIP_SUBSCRIPTION_KEY: 'wrong-subscription-key-0000' }),
      [
        ok('credentials', fromEnv(sandbox.url).replace('subscription key ****6789', 'subscription key ****0000')),
        ...reachable(sandbox.url),
        failed(
          'subscription key',
          'cannot list environments: the API rejected the credentials (HTTP 401): Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription',
          'check the subscription key (from CIP_SUBSCRIPTION_KEY); keys are at https://app.copyl.com/en/itops/secrets',
        ),
        skipped('API key and enterprise', 'the gateway stopped the request first'),
        CLOCK_OK,
      ],
      3,
    );
  });

  it('a wrong API key: the gateway lets it through, the API refuses it (exit 3)', async ({ sandbox, doctor }) => {
    await doctor.expect(
      sandboxEnv(sandbox, { CIP_API_KEY: 'wrong-api-key-0123456789' }),
      [
        ok('credentials', fromEnv(sandbox.url)),
        ...reachable(sandbox.url),
        SUBSCRIPTION_OK,
        failed(
          'API key and enterprise',
          'cannot list environments: the API rejected the credentials (HTTP 401): The API key is invalid',
          'check the API key (from CIP_API_KEY)',
        ),
        CLOCK_OK,
      ],
      3,
    );
  });

  it('an enterprise the API key may not read: forbidden, the enterprise and where it came from (exit 4)', async ({ sandbox, doctor }) => {
    const other = '11111111-2222-4333-8444-555555555555';
    await doctor.expect(
      sandboxEnv(sandbox, { CIP_ENTERPRISE_ID: other }),
      [
        ok('credentials', fromEnv(sandbox.url, other)),
        ...reachable(sandbox.url),
        SUBSCRIPTION_OK,
        failed(
          'API key and enterprise',
          'cannot list environments: forbidden (HTTP 403): The API key has no access to this enterprise',
          `is ${other} (from CIP_ENTERPRISE_ID) the enterprise of this API key, and may the key read environments?`,
        ),
        CLOCK_OK,
      ],
      4,
    );
  });

  it('an enterprise id that is no GUID: the credentials fail as a usage error (exit 2), the network is still checked', async ({
    sandbox,
    doctor,
  }) => {
    await doctor.expect(
      sandboxEnv(sandbox, { CIP_ENTERPRISE_ID: 'nope' }),
      [
        failed('credentials', "CIP_ENTERPRISE_ID must be a GUID like 3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b, not 'nope'"),
        ...reachable(sandbox.url),
        skipped('subscription key', 'no credentials to check'),
        skipped('API key and enterprise', 'no credentials to check'),
        CLOCK_OK,
      ],
      2,
    );
  });

  it('no credentials at all: not logged in (exit 3), with how to log in', async ({ doctor, sandbox }) => {
    await doctor.expect(
      { CIP_BASE_URL: sandbox.url },
      [
        failed('credentials', NOT_LOGGED_IN, LOGIN_FIX),
        ...reachable(sandbox.url),
        skipped('subscription key', 'no credentials to check'),
        skipped('API key and enterprise', 'no credentials to check'),
        CLOCK_OK,
      ],
      3,
    );
  });

  it("a profile's values are named as the profile's, and its base URL is the one checked", async ({ sandbox, cip, doctor }) => {
    const configDir = tempDir();
    expect((await cip(loginArgs(sandbox, ['--profile', 'work']), { configDir })).exitCode).toBe(0);
    const fromProfile = "from profile 'work'";
    await doctor.expect(
      {},
      [
        ok(
          'credentials',
          `profile 'work'; base URL ${sandbox.url} (${fromProfile}); enterprise ${ENTERPRISE} (${fromProfile}); API key ****6789 (${fromProfile}); subscription key ****6789 (${fromProfile})`,
        ),
        ...reachable(sandbox.url),
        ok('subscription key', `accepted by the gateway (${fromProfile})`),
        ok('API key and enterprise', `GET Environments: HTTP 200; the API key (${fromProfile}) may read enterprise ${ENTERPRISE}`),
        CLOCK_OK,
      ],
      0,
      { configDir },
    );
  });

  it('colours each line by its status on a terminal', async ({ cip, sandbox }) => {
    const result = await cip(['doctor'], { env: { CIP_BASE_URL: sandbox.url, FORCE_COLOR: '1' }, terminalColumns: 400 });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`\u001b[31m✗ credentials: ${NOT_LOGGED_IN}\u001b[39m`);
    expect(lines[1]).toBe(`    fix: ${LOGIN_FIX}`);
    expect(lines[2]).toBe(`\u001b[32m✓ base URL: ${sandbox.url} (http, on this machine)\u001b[39m`);
    expect(lines[5]).toBe('- TLS: http on this machine: no TLS');
  });
});

describe('the base URL', () => {
  it('one that is not a URL ends the checks there', async ({ doctor }) => {
    const checks = [
      failed('credentials', NOT_LOGGED_IN, LOGIN_FIX),
      failed('base URL', "'not a url' is not a URL", 'set --base-url, CIP_BASE_URL or the profile to https://api.copyl.com/ms'),
    ];
    await doctor.expect({ CIP_BASE_URL: 'not a url' }, checks, 3);
  });

  it.for(['ftp', 'foo'])('a %s:// URL is not checked further: cip speaks only http and https', async (scheme, { sandbox, doctor }) => {
    const url = `${scheme}://127.0.0.1:${sandbox.port}/ms`;
    await doctor.expect(
      sandboxEnv(sandbox, { CIP_BASE_URL: url }),
      [
        failed('credentials', `CIP_BASE_URL must be an https:// URL, not '${url}'`),
        failed('base URL', `${url} is not https`, 'the keys must travel encrypted: use an https:// base URL'),
      ],
      2,
    );
    expect(sandbox.requests).toEqual([]);
  });

  it('plain http to a host that is not this machine fails (exit 2), though the rest is checked', async ({ sandbox, doctor }) => {
    const url = `http://0.0.0.0:${sandbox.port}/ms`;
    await doctor.expect(
      sandboxEnv(sandbox, { CIP_BASE_URL: url, CIP_ALLOW_HTTP: '1' }),
      [
        ok('credentials', fromEnv(url)),
        failed('base URL', `${url} is not https`, 'the keys must travel encrypted: use an https:// base URL'),
        ok('DNS', '0.0.0.0 is an address: no lookup needed'),
        ok('TCP', `connected to 0.0.0.0:${sandbox.port}`),
        skipped('TLS', 'http on this machine: no TLS'),
        ok('ping', `GET ${url}/ping without keys: HTTP 200`),
        SUBSCRIPTION_OK,
        API_OK,
        CLOCK_OK,
      ],
      2,
    );
  });

  it('a base URL at the root of its host: the ping is /ping, and a server without a Date header skips the clock', async ({
    sandbox,
    doctor,
  }) => {
    const raw = await rawHttpServer();
    try {
      raw.respond('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]');
      const root = new URL(raw.url).origin;
      const result = await doctor.text(sandboxEnv(sandbox, { CIP_BASE_URL: `${root}/` }));
      expect(anyClock(result.stdout)).toBe(
        screen([
          ok('credentials', fromEnv(root)),
          ...reachable(root),
          SUBSCRIPTION_OK,
          API_OK,
          skipped('clock', 'the server sent no Date header'),
        ]),
      );
      expect(result.exitCode).toBe(0);
      expect(raw.requests.map((head) => head.split('\r\n')[0])).toEqual(['GET /ping HTTP/1.1', 'GET /Environments HTTP/1.1']);
    } finally {
      await raw.close();
    }
  });

  it.for<[string, number]>([
    ['http', 80],
    ['https', 443],
  ])('%s without a port: TCP goes to port %d', async ([scheme, defaultPort], { sandbox, doctor }) => {
    const url = `${scheme}://127.0.0.1/ms`;
    const result = await doctor.json(sandboxEnv(sandbox, { CIP_BASE_URL: url }));
    expect(result.checks.slice(1, 4)).toEqual([
      ok('base URL', `${url}${scheme === 'http' ? ' (http, on this machine)' : ''}`),
      ok('DNS', '127.0.0.1 is an address: no lookup needed'),
      // Nothing listens on these ports on a test machine.
      failed('TCP', `cannot connect to 127.0.0.1:${defaultPort} (ECONNREFUSED)`, 'a firewall, or the wrong host or port'),
    ]);
    expect(result.checks).toHaveLength(4);
    expect(result.exitCode).toBe(8);
  });
});

describe('DNS and TCP, direct or to the proxy', () => {
  it('a host that does not resolve: check the base URL and the network (exit 8)', async ({ sandbox, doctor }) => {
    await doctor.expect(
      sandboxEnv(sandbox, { CIP_BASE_URL: 'https://nowhere.invalid/ms' }),
      [
        ok('credentials', fromEnv('https://nowhere.invalid/ms')),
        ok('base URL', 'https://nowhere.invalid/ms'),
        failed('DNS', 'nowhere.invalid does not resolve (ENOTFOUND)', 'check the base URL and the network (DNS, VPN)'),
      ],
      8,
    );
  });

  it('a proxy that does not resolve: the proxy variable is named', async ({ sandbox, doctor }) => {
    await doctor.expect(
      sandboxEnv(sandbox, { CIP_BASE_URL: 'https://api.cip.test/ms', HTTPS_PROXY: 'http://proxy.invalid:3128' }),
      [
        ok('credentials', fromEnv('https://api.cip.test/ms')),
        ok('base URL', 'https://api.cip.test/ms'),
        failed(
          'DNS',
          'proxy.invalid does not resolve (ENOTFOUND) (the proxy http://proxy.invalid:3128, from HTTPS_PROXY)',
          'check HTTPS_PROXY',
        ),
      ],
      8,
    );
  });

  it('nothing listening: a firewall or the wrong port (exit 8)', async ({ sandbox, doctor }) => {
    const closed = await closedPort();
    const url = `http://127.0.0.1:${closed}/ms`;
    await doctor.expect(
      sandboxEnv(sandbox, { CIP_BASE_URL: url }),
      [
        ok('credentials', fromEnv(url)),
        ok('base URL', `${url} (http, on this machine)`),
        ok('DNS', '127.0.0.1 is an address: no lookup needed'),
        failed('TCP', `cannot connect to 127.0.0.1:${closed} (ECONNREFUSED)`, 'a firewall, or the wrong host or port'),
      ],
      8,
    );
  });

  it('a proxy that is down: is the proxy up?', async ({ sandbox, doctor }) => {
    const closed = await closedPort();
    const through = ` (the proxy http://127.0.0.1:${closed}, from https_proxy)`;
    await doctor.expect(
      sandboxEnv(sandbox, { CIP_BASE_URL: 'https://api.cip.test/ms', https_proxy: `127.0.0.1:${closed}` }),
      [
        ok('credentials', fromEnv('https://api.cip.test/ms')),
        ok('base URL', 'https://api.cip.test/ms'),
        ok('DNS', `127.0.0.1 is an address: no lookup needed${through}`),
        failed('TCP', `cannot connect to 127.0.0.1:${closed} (ECONNREFUSED)${through}`, 'is the proxy up? check https_proxy'),
      ],
      8,
    );
  });
});

describe.skipIf(!certificate)('TLS', () => {
  const cert = certificate!;
  const validTo = () => new X509Certificate(cert.cert).validTo;

  async function tlsSandbox() {
    return startSandbox({ seed: 0, tls: { key: cert.key, cert: cert.cert } });
  }

  it('a certificate that verifies: https passes every check', async ({ doctor }) => {
    const secure = await tlsSandbox();
    trust.ca = cert.cert;
    try {
      const runEnv = sandboxEnv(secure);
      await doctor.expect(
        runEnv,
        [
          ok('credentials', fromEnv(secure.url)),
          ok('base URL', secure.url),
          ok('DNS', '127.0.0.1 is an address: no lookup needed'),
          ok('TCP', `connected to 127.0.0.1:${secure.port}`),
          ok('TLS', `certificate for 127.0.0.1, valid until ${validTo()}`),
          ok('ping', `GET ${secure.url}/ping without keys: HTTP 200`),
          SUBSCRIPTION_OK,
          API_OK,
          CLOCK_OK,
        ],
        0,
      );
    } finally {
      await secure.close();
    }
  });

  it.for<[string | undefined, string]>([
    [undefined, "behind a corporate proxy or CA, set NODE_EXTRA_CA_CERTS to the CA's certificate file (PEM)"],
    ['/etc/corp\u001b[2J.pem', 'NODE_EXTRA_CA_CERTS is /etc/corp?[2J.pem, and it does not hold the certificate that signed this one'],
  ])('one that does not verify (NODE_EXTRA_CA_CERTS %j) ends the checks, with what to do (exit 8)', async ([extra, fix], { doctor }) => {
    const secure = await tlsSandbox();
    try {
      await doctor.expect(
        sandboxEnv(secure, { NODE_EXTRA_CA_CERTS: extra }),
        [
          ok('credentials', fromEnv(secure.url)),
          ok('base URL', secure.url),
          ok('DNS', '127.0.0.1 is an address: no lookup needed'),
          ok('TCP', `connected to 127.0.0.1:${secure.port}`),
          failed('TLS', 'the certificate of 127.0.0.1 does not verify (DEPTH_ZERO_SELF_SIGNED_CERT)', fix),
        ],
        8,
      );
      expect(secure.requests).toEqual([]);
    } finally {
      await secure.close();
    }
  });

  it('a server that speaks only TLS 1.0: the handshake, not the certificate, is named, with its fix (exit 8)', async ({ env, doctor }) => {
    const old = await oldTlsServer(cert);
    try {
      await doctor.expect(
        { ...env, CIP_BASE_URL: old.url },
        [
          ok('credentials', fromEnv(old.url)),
          ok('base URL', old.url),
          ok('DNS', '127.0.0.1 is an address: no lookup needed'),
          ok('TCP', `connected to 127.0.0.1:${old.port}`),
          failed(
            'TLS',
            `the TLS handshake with 127.0.0.1:${old.port} failed: the server offers only a TLS version older than 1.2 (TLS 1.0 or 1.1), which Node refuses as unsafe (OpenSSL: tlsv1 alert protocol version)`,
            'the server must accept TLS 1.2 or newer: tell its administrators',
          ),
        ],
        8,
      );
      expect(old.requests()).toBe(0);
    } finally {
      await old.close();
    }
  });

  it('through a proxy: TLS is left to the ping, which goes through the tunnel', async ({ doctor }) => {
    const secure = await tlsSandbox();
    const proxy = await startConnectProxy();
    try {
      const url = `https://api.cip.test:${secure.port}/ms`;
      const through = ` (the proxy ${proxy.url}, from HTTPS_PROXY)`;
      const proxyPort = new URL(proxy.url).port;
      const result = await doctor.json(sandboxEnv(secure, { CIP_BASE_URL: url, HTTPS_PROXY: proxy.url }));
      expect(result.checks.slice(1, 5)).toEqual([
        ok('base URL', url),
        ok('DNS', `127.0.0.1 is an address: no lookup needed${through}`),
        ok('TCP', `connected to 127.0.0.1:${proxyPort}${through}`),
        skipped('TLS', 'through the proxy: checked by the ping below'),
      ]);
      const tunnel = `cannot reach api.cip.test:${secure.port} through the proxy at ${proxy.url}: the server certificate is self-signed (set NODE_EXTRA_CA_CERTS to trust it) (DEPTH_ZERO_SELF_SIGNED_CERT)`;
      expect(result.checks.slice(5)).toEqual([
        failed('ping', `cannot ping the service: ${tunnel}`),
        NO_VERDICT,
        failed('API key and enterprise', `cannot list environments: ${tunnel}`),
        skipped('clock', 'the server sent no Date header'),
      ]);
      expect(result.exitCode).toBe(8);
      expect(proxy.tunnels[0]).toBe(`api.cip.test:${secure.port}`);
    } finally {
      await proxy.close();
      await secure.close();
    }
  });
});

describe('the ping', () => {
  it('goes without keys, naming cip and Node', async ({ sandbox, env, doctor }) => {
    await doctor.json(env);
    const ping = sandbox.requests.find(isPing)!;
    expect(ping.method).toBe('GET');
    expect(ping.headers['user-agent']).toBe(`cip/0.0.0 node/${process.version}`);
    expect(ping.headers.authorization).toBeUndefined();
    expect(ping.headers['ocp-apim-subscription-key']).toBeUndefined();
  });

  it('a service that answers the ping with an error status: the service is down (exit 7)', async ({ startSandbox, doctor }) => {
    const down = await startSandbox({ seed: 0, pingFails: true });
    try {
      await doctor.expect(
        sandboxEnv(down),
        [
          ok('credentials', fromEnv(down.url)),
          ...reachable(down.url).slice(0, 4),
          failed('ping', `GET ${down.url}/ping without keys answered HTTP 503`, 'the service is down or the base URL points elsewhere'),
          SUBSCRIPTION_OK,
          API_OK,
          CLOCK_OK,
        ],
        7,
      );
    } finally {
      await down.close();
    }
  });

  it.for<[string, Fault, number, Check]>([
    [
      'a redirect (exit 7)',
      { kind: 'status', status: 302, headers: { Location: 'https://elsewhere.example/ms/ping' } },
      7,
      failed(
        'ping',
        'cannot ping the service: the API answered with a redirect (HTTP 302) to https://elsewhere.example/ms/ping',
        'cip does not follow redirects, so the keys go only to the base URL you chose; check --base-url',
      ),
    ],
    [
      'a connection cut before any answer (exit 8)',
      { kind: 'reset-before' },
      8,
      failed('ping', 'cannot ping the service: cannot reach 127.0.0.1:PORT: connection reset (ECONNRESET)'),
    ],
  ])('a ping that fails with %s', async ([_name, fault, exit, check], { sandbox, env, doctor }) => {
    sandbox.inject({ fault, match: isPing, times: Infinity });
    const ping = { ...check, detail: check.detail.replace('PORT', String(sandbox.port)) };
    await doctor.expect(
      env,
      [ok('credentials', fromEnv(sandbox.url)), ...reachable(sandbox.url).slice(0, 4), ping, SUBSCRIPTION_OK, API_OK, CLOCK_OK],
      exit,
    );
  });
});

describe('the API check, for answers that are not about the keys', () => {
  it.for<[string, Fault, number, string]>([
    [
      '404',
      { kind: 'status', status: 404, body: '{"title":"Not Found","status":404}' },
      5,
      'cannot list environments: not found (HTTP 404): Not Found',
    ],
    [
      '400',
      { kind: 'status', status: 400, body: '{"title":"Bad","status":400}' },
      6,
      'cannot list environments: the API rejected the request (HTTP 400): Bad',
    ],
    [
      "403 from the gateway's quota (only a 401 refuses the subscription key)",
      { kind: 'status', status: 403, body: '{"statusCode":403,"message":"Out of call volume quota for this subscription key."}' },
      4,
      'cannot list environments: forbidden (HTTP 403): Out of call volume quota for this subscription key',
    ],
  ])('a %s is the first failure, with its exit code', async ([_status, fault, exit, detail], { sandbox, env, doctor }) => {
    sandbox.inject({ fault, match: isList });
    const result = await doctor.json(env);
    const hint =
      exit === 4
        ? `is ${ENTERPRISE} (from CIP_ENTERPRISE_ID) the enterprise of this API key, and may the key read environments?`
        : undefined;
    expect((JSON.parse(anyClock(result.stdout)) as Check[]).slice(6)).toEqual([
      SUBSCRIPTION_OK,
      failed('API key and enterprise', detail, hint),
      CLOCK_OK,
    ]);
    expect(result.exitCode).toBe(exit);
  });

  it.for<[string, Fault, number, string]>([
    [
      'a connection cut on every try: a network failure (exit 8)',
      { kind: 'reset-before' },
      8,
      'cannot list environments: cannot reach 127.0.0.1:PORT: connection reset (ECONNRESET)',
    ],
    [
      'a redirect, which cip does not follow: a server failure (exit 7)',
      { kind: 'status', status: 307, headers: { Location: 'https://elsewhere.example/' } },
      7,
      'cannot list environments: the API answered with a redirect (HTTP 307) to https://elsewhere.example/',
    ],
  ])('%s gives no verdict on the subscription key', async ([_name, fault, exit, detail], { sandbox, env, doctor }) => {
    sandbox.inject({ fault, match: isList, times: Infinity });
    const result = await doctor.json(env);
    expect((JSON.parse(anyClock(result.stdout)) as Check[]).slice(6)).toEqual([
      NO_VERDICT,
      failed(
        'API key and enterprise',
        detail.replace('PORT', String(sandbox.port)),
        exit === 7 ? 'cip does not follow redirects, so the keys go only to the base URL you chose; check --base-url' : undefined,
      ),
      CLOCK_OK,
    ]);
    expect(result.exitCode).toBe(exit);
  });
});

describe('an interrupt', () => {
  async function interrupted(cip: Cip, sandbox: Sandbox, runEnv: Env, match: (request: RecordedRequest) => boolean) {
    let release!: () => void;
    sandbox.inject({ fault: { kind: 'hold', release: new Promise<void>((resolve) => (release = resolve)) }, match });
    const controller = new AbortController();
    const running = cip(['doctor'], { env: runEnv, signal: controller.signal });
    await sandbox.waitForRequest(match);
    controller.abort(new InterruptedError());
    release();
    return running;
  }

  it('during the ping ends doctor at once: nothing on stdout, exit 130', async ({ cip, sandbox }) => {
    const result = await interrupted(cip, sandbox, { CIP_BASE_URL: sandbox.url }, isPing);
    expect(result).toMatchObject({ exitCode: 130, stdout: '' });
  });

  it('during the API check ends doctor at once: nothing on stdout, exit 130', async ({ cip, sandbox, env }) => {
    const result = await interrupted(cip, sandbox, env, isList);
    expect(result).toMatchObject({ exitCode: 130, stdout: '' });
  });

  it('while the keychain is read ends doctor at once, though the network checks would fail', async ({ cip }) => {
    const configDir = tempDir();
    const profile = { enterpriseId: ENTERPRISE, keys: 'keychain' };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ activeProfile: 'k', profiles: { k: profile } }), { mode: 0o600 });
    const controller = new AbortController();
    controller.abort(new InterruptedError());
    const result = await cip(['doctor'], {
      configDir,
      env: { CIP_BASE_URL: `http://127.0.0.1:${await closedPort()}/ms`, CIP_CREDENTIAL_STORE: undefined },
      signal: controller.signal,
    });
    expect(result).toMatchObject({ exitCode: 130, stdout: '' });
  });
});

describe('the clock, against the Date the API sent', () => {
  const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
  const dated = (offsetSeconds: number): Fault => ({
    kind: 'status',
    status: 200,
    body: '[]',
    headers: { 'Content-Type': 'application/json', Date: new Date(NOW + offsetSeconds * 1000).toUTCString() },
  });

  it.for<[number, Check]>([
    [0, ok('clock', "within 1 s of the server's")],
    [-2, ok('clock', "within 2 s of the server's")],
    [-300, ok('clock', "within 300 s of the server's")],
    [300, ok('clock', "within 300 s of the server's")],
    [-301, { check: 'clock', status: 'warning', detail: "301 s ahead of the server's", fix: 'set the clock right (NTP)' }],
    [3600, { check: 'clock', status: 'warning', detail: "3600 s behind the server's", fix: 'set the clock right (NTP)' }],
  ])('the server %d s off', async ([offset, clock], { sandbox, env, doctor }) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    sandbox.inject({ fault: dated(offset), match: isList });
    const result = await doctor.json(env);
    expect(result.checks.at(-1)).toEqual(clock);
    expect(result.exitCode).toBe(0);
  });

  it('a warning is shown with its fix, and is no failure', async ({ sandbox, env, doctor }) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    sandbox.inject({ fault: dated(-600), match: isList });
    const result = await doctor.text(env);
    expect(result.stdout.trimEnd().split('\n').slice(-2)).toEqual([
      "! clock: 600 s ahead of the server's",
      '    fix: set the clock right (NTP)',
    ]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('All checks passed.\n');
  });

  it("without a Date from the API, the ping's is used", async ({ sandbox, env, doctor }) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    sandbox.inject(
      { fault: dated(-120), match: isPing },
      {
        fault: {
          kind: 'raw',
          response: 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]',
        },
        match: isList,
      },
    );
    const result = await doctor.json(env);
    expect(result.checks.at(-1)).toEqual(ok('clock', "within 120 s of the server's"));
  });
});

describe('platform features', () => {
  it.override({ sandboxOptions: EXACT_RECORDS_SANDBOX });

  describe('cip doctor', () => {
    it('passes every check against the sandbox, saying where each value came from, keys masked', async ({ sandbox, env, cip }) => {
      const result = await cip(['doctor'], { env: { ...env, NO_COLOR: '1' }, terminalColumns: 200 });
      expect(result.exitCode).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines.map((line) => line.split(':')[0])).toEqual([
        '✓ credentials',
        '✓ base URL',
        '✓ DNS',
        '✓ TCP',
        '- TLS',
        '✓ ping',
        '✓ subscription key',
        '✓ API key and enterprise',
        '✓ clock',
      ]);
      expect(lines[0]).toContain('API key ****6789 (from CIP_API_KEY)');
      expect(result.stdout).not.toContain(sandbox.keys.apiKey);
      expect(result.stderr).toBe('All checks passed.\n');
    });

    it.for<[string, string, string, number]>([
      ['CIP_SUBSCRIPTION_KEY', 'wrong-subscription-key-0000', 'subscription key', 3],
      ['CIP_API_KEY', 'wrong-api-key-0123456789', 'API key and enterprise', 3],
      ['CIP_ENTERPRISE_ID', '11111111-2222-4333-8444-555555555555', 'API key and enterprise', 4],
    ])('a wrong %s is named by the right check', async ([variable, value, check, code], { env, cip }) => {
      const result = await cip(['doctor', '--json'], { env: { ...env, [variable]: value } });
      expect(result.exitCode).toBe(code);
      const checks = JSON.parse(result.stdout) as { check: string; status: string; fix?: string }[];
      const failed = checks.filter((entry) => entry.status === 'failed');
      expect(failed.map((entry) => entry.check)).toEqual([check]);
      expect(failed[0]!.fix).toContain(variable);
      expect(expectOneErrorLine(result.stderr)).toMatch(new RegExp(`^error: 1 of 9 checks failed; the first: ${check}: `));
    });

    it('names a ping that fails, and a base URL that is not https', async ({ env, cip, startSandbox }) => {
      const down = await startSandbox({ seed: 0, pingFails: true });
      try {
        const result = await cip(['doctor', '--json'], { env: sandboxEnv(down) });
        expect(result.exitCode).toBe(7);
        const checks = JSON.parse(result.stdout) as { check: string; status: string; detail: string }[];
        expect(checks.find((entry) => entry.check === 'ping')).toMatchObject({
          status: 'failed',
          detail: expect.stringContaining('HTTP 503'),
        });
      } finally {
        await down.close();
      }
      const plain = await cip(['doctor', '--json'], { env: { ...env, CIP_BASE_URL: 'http://example.invalid/ms', CIP_ALLOW_HTTP: '1' } });
      const checks = JSON.parse(plain.stdout) as { check: string; status: string }[];
      expect(checks.find((entry) => entry.check === 'base URL')?.status).toBe('failed');
      expect(plain.exitCode).toBe(2);
    });

    it('without credentials, still checks the network and says what is missing', async ({ sandbox, cip }) => {
      const result = await cip(['doctor', '--json'], { env: { CIP_BASE_URL: sandbox.url } });
      expect(result.exitCode).toBe(3);
      const checks = JSON.parse(result.stdout) as { check: string; status: string }[];
      expect(checks.map((entry) => `${entry.check} ${entry.status}`)).toEqual([
        'credentials failed',
        'base URL ok',
        'DNS ok',
        'TCP ok',
        'TLS skipped',
        'ping ok',
        'subscription key skipped',
        'API key and enterprise skipped',
        'clock ok',
      ]);
    });
  });
});

describe('the project file', () => {
  const test = projectTest();
  const it = test;

  describe('cip doctor', () => {
    it('says the profile came from the project file', async ({ dev, prod }) => {
      const { cip, path } = setup({ dev, prod }, '{"profile": "prod"}');
      const result = await cip(['doctor', '--json']);
      const checks = JSON.parse(result.stdout) as { check: string; status: string; detail: string }[];
      expect(checks.find(({ check }) => check === 'credentials')).toMatchObject({
        status: 'ok',
        detail: expect.stringMatching(new RegExp(`^profile 'prod' \\(from ${path.replaceAll('.', '\\.')}\\); `)) as unknown,
      });
    });
  });
});
