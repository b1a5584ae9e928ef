// What a user sees when the API's body does not decode as its Content-Encoding says (src/api/transport.ts):
// a broken answer, exit 7, after one request, whichever decoder failed. Served raw from 127.0.0.1. And what a
// TLS handshake that fails before any certificate means (an old TLS version, a server that is not TLS).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, afterAll, beforeEach } from 'vitest';
import { expectOneErrorLine, tempDir, sandboxEnv } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';
import { connect, createServer, type AddressInfo } from 'node:net';
import { InterruptedError } from '../../src/errors.js';
import { type Sandbox } from '../../src/sandbox/index.js';
import { refusedUrl } from '../helpers/ports.js';
import { brotliCompressSync } from 'node:zlib';
import { rawHttpServer } from '../helpers/raw-http.js';
import { makeCertificate, oldTlsServer } from '../helpers/tls.js';

const raw = await rawHttpServer();

const certificate = makeCertificate(tempDir());

/** The sandbox's keys, and the base URL of the raw server, which answers with the bytes a test gives it. */
const atRaw = (env: Record<string, string | undefined>) => ({ ...env, CIP_BASE_URL: raw.url });

afterAll(async () => {
  await raw.close();
});

beforeEach(() => {
  raw.requests.length = 0;
});

function answer(encoding: string, body: Buffer): Buffer {
  const head = `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: ${encoding}\r\nContent-Length: ${body.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

describe('Content-Encoding', () => {
  it.for(['br', 'deflate', 'gzip'])(
    '%s that does not decode is a broken answer: exit 7, one request, no retry',
    async (encoding, { env, cip }) => {
      raw.respond(answer(encoding, Buffer.from('[{"id":"not compressed"}]')));
      const result = await cip(['env', 'list'], { env: atRaw(env) });
      expect(result.exitCode).toBe(7);
      expect(expectOneErrorLine(result.stderr)).toBe(
        `error: cannot list environments: the API answered with a body that is not valid ${encoding} data, though its Content-Encoding says so`,
      );
      expect(raw.requests).toHaveLength(1);
    },
  );

  it('br that decodes is read as the list', async ({ env, cip }) => {
    raw.respond(answer('br', brotliCompressSync(Buffer.from('[{"id":"e1","name":"a"}]'))));
    const result = await cip(['env', 'list', '-o', 'json'], { env: atRaw(env) });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([expect.objectContaining({ id: 'e1' })]);
  });
});

describe.skipIf(!certificate)(
  'a TLS handshake that fails before a certificate is seen: what failed and why, exit 8, one attempt, nothing sent',
  () => {
    it.for(['TLSv1', 'TLSv1.1'] as const)('a server that speaks only %s', async (version, { env, cip }) => {
      const old = await oldTlsServer(certificate!, version);
      try {
        const result = await cip(['env', 'list'], { env: { ...env, CIP_BASE_URL: old.url } });
        expect(result.exitCode).toBe(8);
        expect(expectOneErrorLine(result.stderr)).toBe(
          `error: cannot list environments: the TLS handshake with 127.0.0.1:${old.port} failed: the server offers only a TLS version ` +
            'older than 1.2 (TLS 1.0 or 1.1), which Node refuses as unsafe (OpenSSL: tlsv1 alert protocol version) ' +
            '(the server must accept TLS 1.2 or newer: tell its administrators)',
        );
        expect(old.connections()).toBe(1);
        expect(old.requests()).toBe(0);
      } finally {
        await old.close();
      }
    });

    it('an https:// base URL on a server that answers in plain HTTP', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'create', '-f', 'name=x'], {
        env: { ...env, CIP_BASE_URL: sandbox.url.replace('http:', 'https:') },
      });
      expect(result.exitCode).toBe(8);
      // A create whose request never left is not one that "may have been carried out".
      expect(expectOneErrorLine(result.stderr)).toBe(
        `error: cannot create the environment: the TLS handshake with 127.0.0.1:${sandbox.port} failed: the server did not answer in TLS ` +
          '(OpenSSL: wrong version number) (is it an http:// server? check the base URL and its port)',
      );
      expect(sandbox.requests).toEqual([]);
    });
  },
);

describe('an answer that is not HTTP', () => {
  it('another protocol on the port (an SSH banner): exit 7, the server named, one request, no retry', async ({ env, cip }) => {
    raw.respond('SSH-2.0-OpenSSH_9.6\r\n');
    const result = await cip(['env', 'list'], { env: atRaw(env) });
    expect(result.exitCode).toBe(7);
    const port = new URL(raw.url).port;
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: cannot list environments: the answer from 127.0.0.1:${port} is not HTTP that cip can read (HPE_INVALID_CONSTANT) ` +
        '(check the base URL and its port)',
    );
    expect(raw.requests).toHaveLength(1);
  });

  it('a write answered so may have been carried out, and says so', async ({ env, cip }) => {
    raw.respond('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Bad\r\n\r\n{}');
    const result = await cip(['env', 'create', '-f', 'name=x'], { env: atRaw(env) });
    expect(result.exitCode).toBe(7);
    expect(expectOneErrorLine(result.stderr)).toMatch(
      /^error: cannot create the environment: the answer from 127\.0\.0\.1:\d+ is not HTTP that cip can read \(HPE_\w+\) \(the request was sent, so it may have been carried out; check with 'cip env list' before trying again\)$/,
    );
    expect(raw.requests).toHaveLength(1);
  });

  it('a 204 that carries a body anyway is the 204: the answer was whole with its headers', async ({ env, cip }) => {
    raw.respond('HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\nhello');
    const result = await cip(['api', 'Environments/e1', '-X', 'DELETE', '-i'], { env: atRaw(env) });
    expect(result.exitCode).toBe(0);
    // -i prints the status line and headers on stderr; there is no body.
    expect(result.stderr).toMatch(/^HTTP\/1\.1 204 No Content\n/);
    expect(result.stderr).not.toContain('error');
    expect(result.stdout).toBe('');
    expect(raw.requests).toHaveLength(1);
    expect(raw.requests[0]).toMatch(/^DELETE \/ms\/Environments\/e1 HTTP\/1\.1/);
  });
});

describe('answer size and where keys came from', () => {
  // CIP_MAX_ANSWER_BYTES (src/api/connect.ts): which values set the answer limit and which are refused, as a
  // user sees it from `cip env list` against the sandbox.

  test.override({ sandboxOptions: { seed: 2 } });

  describe('CIP_MAX_ANSWER_BYTES', () => {
    it.for<[string]>([['0'], ['-1'], ['1.5'], ['9007199254740992'], ['1e3x']])(
      'refuses %j before any request, exit 2',
      async ([value], { sandbox, env, cip }) => {
        const result = await cip(['env', 'list'], { env: { ...env, CIP_MAX_ANSWER_BYTES: value } });
        expect(result.exitCode).toBe(2);
        expect(expectOneErrorLine(result.stderr)).toBe(`error: CIP_MAX_ANSWER_BYTES must be a whole number of bytes, not '${value}'`);
        expect(sandbox.requests).toHaveLength(0);
      },
    );

    it('shows a refused value trimmed and cleaned', async ({ env, cip }) => {
      const result = await cip(['env', 'list'], { env: { ...env, CIP_MAX_ANSWER_BYTES: ' 12\u001b[2Jkb ' } });
      expect(expectOneErrorLine(result.stderr)).toBe("error: CIP_MAX_ANSWER_BYTES must be a whole number of bytes, not '12?[2Jkb'");
    });

    it.for<[string]>([[''], ['   ']])('takes %j as unset: the default limit', async ([value], { env, cip }) => {
      const result = await cip(['env', 'list'], { env: { ...env, CIP_MAX_ANSWER_BYTES: value } });
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout)).toHaveLength(2);
    });

    it('takes a number with spaces around it, and a limit of one byte is a limit, not an error', async ({ sandbox, env, cip }) => {
      const roomy = await cip(['env', 'list'], { env: { ...env, CIP_MAX_ANSWER_BYTES: ' 1000000 ' } });
      expect(roomy.exitCode).toBe(0);
      const tight = await cip(['env', 'list'], { env: { ...env, CIP_MAX_ANSWER_BYTES: ' 1 ' } });
      expect(tight.exitCode).toBe(7);
      expect(expectOneErrorLine(tight.stderr)).toMatch(/answer too large/);
      expect(sandbox.requests).toHaveLength(2);
    });
  });

  describe('a 401 names where the keys came from', () => {
    const WRONG = 'wrong-key-0123456789abcdef';

    /** A config folder whose active profile 'p' holds these keys, for the sandbox. */
    function profileWith(sandbox: Sandbox, keys: { apiKey: string; subscriptionKey: string }): string {
      const configDir = tempDir();
      const profile = { baseUrl: sandbox.url, enterpriseId: sandbox.keys.enterpriseId, ...keys };
      writeFileSync(join(configDir, 'config.json'), JSON.stringify({ activeProfile: 'p', profiles: { p: profile } }), { mode: 0o600 });
      return configDir;
    }

    it('both from the profile: the profile, and how to replace them', async ({ sandbox, cip }) => {
      const configDir = profileWith(sandbox, { apiKey: WRONG, subscriptionKey: sandbox.keys.subscriptionKey });
      const result = await cip(['env', 'list'], { configDir });
      expect(result.exitCode).toBe(3);
      expect(expectOneErrorLine(result.stderr)).toMatch(/\(check the keys of profile 'p'; 'cip auth login --profile p' replaces them\)$/);
    });

    it('one from the environment, one from the profile: each source', async ({ sandbox, cip }) => {
      const configDir = profileWith(sandbox, { apiKey: sandbox.keys.apiKey, subscriptionKey: sandbox.keys.subscriptionKey });
      const apiFromEnv = await cip(['env', 'list'], { configDir, env: { CIP_API_KEY: WRONG } });
      expect(apiFromEnv.exitCode).toBe(3);
      expect(expectOneErrorLine(apiFromEnv.stderr)).toMatch(
        /\(check the keys: the API key came from CIP_API_KEY, the subscription key from profile 'p'\)$/,
      );
      const subscriptionFromEnv = await cip(['env', 'list'], { configDir, env: { CIP_SUBSCRIPTION_KEY: WRONG } });
      expect(subscriptionFromEnv.exitCode).toBe(3);
      expect(expectOneErrorLine(subscriptionFromEnv.stderr)).toMatch(
        /\(check the keys: the API key came from profile 'p', the subscription key from CIP_SUBSCRIPTION_KEY\)$/,
      );
    });
  });
});

describe('retries, broken answers, API errors', () => {
  // The HTTP contract: retries for idempotent calls only, time-outs, broken answers, redirects, and secrets
  // kept out of every output, including --verbose.

  test.override({ sandboxOptions: { seed: 2 } });

  describe('retries', () => {
    it('GET is retried after a 503 and succeeds', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 503, body: 'busy' }, times: 2 });
      const result = await cip(['env', 'list'], { env });
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout)).toHaveLength(2);
      expect(sandbox.requests).toHaveLength(3);
    });

    it('GET gives up after two retries with exit 7 and the server message', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 500, body: '{"message":"database unavailable"}' }, times: Infinity });
      const result = await cip(['env', 'list'], { env });
      expect(result.exitCode).toBe(7);
      expect(expectOneErrorLine(result.stderr)).toBe('error: cannot list environments: the API failed (HTTP 500): database unavailable');
      expect(sandbox.requests).toHaveLength(3);
    });

    it('429 with Retry-After waits as asked, then retries', async ({ sandbox, env, cip }) => {
      sandbox.inject({
        fault: {
          kind: 'status',
          status: 429,
          headers: { 'retry-after': '1' },
          body: '{"statusCode":429,"message":"Rate limit is exceeded. Try again in 1 seconds."}',
        },
      });
      const result = await cip(['env', 'list'], { env });
      expect(result.exitCode).toBe(0);
      expect(sandbox.requests).toHaveLength(2);
    });

    it('PUT and DELETE are retried after a network reset', async ({ sandbox, env, cip }) => {
      const [id] = sandbox.environments.keys();
      sandbox.inject({ fault: { kind: 'reset-before' }, method: 'PUT' }, { fault: { kind: 'reset-before' }, method: 'DELETE' });
      const updated = await cip(['env', 'update', id!, '-f', 'name=retried'], { env });
      expect(updated.exitCode).toBe(0);
      const deleted = await cip(['env', 'delete', id!, '--yes'], { env });
      expect(deleted.exitCode).toBe(0);
      // update: the list, the environment by id (405 here), then the PUT twice.
      expect(sandbox.requests.map((request) => request.method)).toEqual(['GET', 'GET', 'PUT', 'PUT', 'GET', 'DELETE', 'DELETE']);
    });

    it('POST is never retried: one request, exit 7', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 503, body: 'unavailable' }, times: Infinity });
      const before = sandbox.environments.size;
      const result = await cip(['env', 'create', '-f', 'name=once'], { env });
      expect(result.exitCode).toBe(7);
      expect(sandbox.requests).toHaveLength(1);
      expect(sandbox.environments.size).toBe(before);
      expect(expectOneErrorLine(result.stderr)).toMatch(/HTTP 503\): unavailable/);
    });

    it('POST after a connection reset is exit 8 with a single request', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'reset-before' }, times: Infinity });
      const result = await cip(['env', 'create', '-f', 'name=once'], { env });
      expect(result.exitCode).toBe(8);
      expect(sandbox.requests).toHaveLength(1);
    });
  });

  describe('broken answers', () => {
    it('a slow answer past --timeout is exit 8', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'delay', ms: 5_000 }, times: Infinity });
      const result = await cip(['env', 'list', '--timeout', '0.5'], { env });
      expect(result.exitCode).toBe(8);
      expect(expectOneErrorLine(result.stderr)).toMatch(/no answer from 127\.0\.0\.1:\d+ within 0\.5s/);
    });

    it('invalid JSON in a 200 is exit 7', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'invalid-json' }, times: Infinity });
      const result = await cip(['env', 'list'], { env });
      expect(result.exitCode).toBe(7);
      expect(expectOneErrorLine(result.stderr)).toMatch(/not valid JSON/);
      expect(result.stdout).toBe('');
    });

    it('a body cut off mid-way is retried for GET', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'reset-mid-body' } });
      const result = await cip(['env', 'list'], { env });
      expect(result.exitCode).toBe(0);
      expect(sandbox.requests).toHaveLength(2);
    });

    it('an HTML error page is summarised, never dumped', async ({ sandbox, env, cip }) => {
      sandbox.inject({
        fault: {
          kind: 'status',
          status: 502,
          body: '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><script>x</script></body></html>',
        },
        times: Infinity,
      });
      const result = await cip(['env', 'list'], { env });
      expect(result.exitCode).toBe(7);
      const line = expectOneErrorLine(result.stderr);
      expect(line).toMatch(/HTTP 502\): an HTML page titled '502 Bad Gateway'/);
      expect(line).not.toContain('<script>');
    });

    it('a redirect is not followed, so the keys never leave for another host (exit 7)', async ({ sandbox, env, cip, startSandbox }) => {
      const elsewhere = await startSandbox();
      try {
        sandbox.inject({ fault: { kind: 'status', status: 302, headers: { location: `${elsewhere.url}/Environments` } } });
        const result = await cip(['env', 'list'], { env });
        expect(result.exitCode).toBe(7);
        expect(expectOneErrorLine(result.stderr)).toMatch(/redirect \(HTTP 302\).*does not follow redirects/);
        expect(elsewhere.requests).toHaveLength(0);
      } finally {
        await elsewhere.close();
      }
    });

    it('a refused connection is exit 8', async ({ sandbox, cip }) => {
      const result = await cip(['env', 'list'], { env: sandboxEnv(sandbox, { CIP_BASE_URL: await refusedUrl('/ms') }) });
      expect(result.exitCode).toBe(8);
      expect(expectOneErrorLine(result.stderr)).toMatch(/cannot reach 127\.0\.0\.1:\d+: connection refused \(ECONNREFUSED\)/);
    });
  });

  describe('API errors', () => {
    const cases: [string, Record<string, string>, string[], number, RegExp][] = [
      [
        'a missing subscription key (APIM)',
        { CIP_SUBSCRIPTION_KEY: 'wrong-subscription-key-000' },
        ['env', 'list'],
        3,
        /HTTP 401\): Access denied due to invalid subscription key.*\(check CIP_API_KEY and CIP_SUBSCRIPTION_KEY: the keys came from the environment\)$/,
      ],
      ['a bad API key', { CIP_API_KEY: 'wrong-api-key-0000000000' }, ['env', 'list'], 3, /HTTP 401\): The API key is invalid/],
      [
        'a read-only key on a write',
        { CIP_API_KEY: 'sandbox-readonly-key-0123456789' },
        ['env', 'create', '-f', 'name=x'],
        4,
        /forbidden \(HTTP 403\): The API key lacks sufficient permissions/,
      ],
      ['another enterprise', { CIP_ENTERPRISE_ID: '99999999-9999-4999-8999-999999999999' }, ['env', 'list'], 4, /HTTP 403/],
    ];
    for (const [what, overrides, args, code, message] of cases) {
      it(`${what} is exit ${code}`, async ({ env, cip }) => {
        const result = await cip(args, { env: { ...env, ...overrides } });
        expect(result.exitCode).toBe(code);
        expect(expectOneErrorLine(result.stderr)).toMatch(message);
        expect(result.stdout).toBe('');
      });
    }

    it("a 403: the server's reason, if any, then the enterprise cip acted in and where that came from", async ({ sandbox, env, cip }) => {
      const advice = `(the enterprise id ${env.CIP_ENTERPRISE_ID} came from CIP_ENTERPRISE_ID: is it the API key's enterprise? If it is, the key lacks permission for this)`;
      const readOnly = await cip(['env', 'create', '-f', 'name=x'], { env: { ...env, CIP_API_KEY: 'sandbox-readonly-key-0123456789' } });
      expect(readOnly.exitCode).toBe(4);
      expect(expectOneErrorLine(readOnly.stderr)).toBe(
        `error: cannot create the environment: forbidden (HTTP 403): The API key lacks sufficient permissions ${advice}`,
      );
      expect(sandbox.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
      sandbox.inject({ fault: { kind: 'status', status: 403, body: '' } });
      const bare = await cip(['env', 'list'], { env });
      expect(bare.exitCode).toBe(4);
      expect(expectOneErrorLine(bare.stderr)).toBe(`error: cannot list environments: forbidden (HTTP 403) ${advice}`);
    });

    it('a 409 is exit 6', async ({ sandbox, env, cip }) => {
      sandbox.inject({
        fault: {
          kind: 'status',
          status: 409,
          body: '{"title":"Conflict","detail":"An environment with that name exists."}',
          headers: { 'content-type': 'application/problem+json' },
        },
      });
      const result = await cip(['env', 'create', '-f', 'name=dup'], { env });
      expect(result.exitCode).toBe(6);
      expect(expectOneErrorLine(result.stderr)).toMatch(/HTTP 409\): An environment with that name exists$/);
    });

    it('a bad enterprise id from the environment is exit 2 before any request', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'list'], { env: { ...env, CIP_ENTERPRISE_ID: 'acme' } });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toMatch(/CIP_ENTERPRISE_ID must be a GUID/);
      expect(sandbox.requests).toHaveLength(0);
    });

    it('http:// to a host other than this machine is refused (exit 2)', async ({ env, cip }) => {
      const result = await cip(['env', 'list', '--base-url', 'http://api.example.com/ms'], { env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toMatch(/cleartext/);
    });
  });

  describe('secrets', () => {
    it('never appear in stdout or stderr, even with --verbose and a server that echoes them', async ({ sandbox, env, cip }) => {
      const echo = JSON.stringify({ message: `bad key ${sandbox.keys.apiKey} / ${sandbox.keys.subscriptionKey}` });
      sandbox.inject({ fault: { kind: 'status', status: 400, body: echo } });
      const runs = [
        await cip(['env', 'list', '--verbose'], { env }),
        await cip(['env', 'create', '-f', 'name=x', '--verbose'], { env }),
        await cip(['env', 'list', '--verbose', '-o', 'table'], { env }),
      ];
      expect(runs[0]!.exitCode).toBe(6);
      expect(runs[0]!.stderr).toMatch(/bad key \*\*\* \/ \*\*\*/);
      for (const run of runs) {
        for (const secret of [sandbox.keys.apiKey, sandbox.keys.subscriptionKey]) {
          expect(run.stdout).not.toContain(secret);
          expect(run.stderr).not.toContain(secret);
        }
      }
      // --verbose shows what was sent, with the keys replaced.
      expect(runs[1]!.stderr).toMatch(/^> POST http:\/\/127\.0\.0\.1:\d+\/ms\/Environments$/m);
      expect(runs[1]!.stderr).toMatch(/^>\s+authorization: \*\*\*$/m);
      expect(runs[1]!.stderr).toMatch(/^>\s+ocp-apim-subscription-key: \*\*\*$/m);
      expect(runs[1]!.stderr).toMatch(/^< 201 Created \(\d+ ms, \d+ bytes\)$/m);
    });
  });

  describe('interrupts', () => {
    it('Ctrl-C during a request ends it at once (exit 130), whatever the server does', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'hold', release: new Promise<void>(() => undefined) } });
      const controller = new AbortController();
      const running = cip(['env', 'list'], { env, signal: controller.signal });
      await sandbox.waitForRequest(() => true);
      // As main.ts does on SIGINT.
      controller.abort(new InterruptedError());
      const result = await running;
      expect(result.exitCode).toBe(130);
      expect(result.stdout).toBe('');
      expect(sandbox.requests).toHaveLength(1);
    });
  });

  describe('connections', () => {
    /** A relay in front of the sandbox that counts the TCP connections cip opens; the base URL through it. */
    async function relayTo(target: Sandbox): Promise<{ baseUrl: string; connections: () => number; close: () => void }> {
      let connections = 0;
      const relay = createServer((client) => {
        connections++;
        const upstream = connect(target.port, '127.0.0.1');
        client.pipe(upstream).pipe(client);
        client.on('error', () => upstream.destroy());
        upstream.on('error', () => client.destroy());
      });
      await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
      const { port } = relay.address() as AddressInfo;
      return { baseUrl: target.url.replace(`:${target.port}`, `:${port}`), connections: () => connections, close: () => relay.close() };
    }

    it('a POST goes on a connection of its own, never on one kept alive (it is never retried)', async ({ sandbox, cip }) => {
      const relay = await relayTo(sandbox);
      try {
        const result = await cip(['env', 'create', '-f', 'name=fresh', '--if-exists', 'skip'], {
          env: sandboxEnv(sandbox, { CIP_BASE_URL: relay.baseUrl }),
        });
        expect(result.exitCode).toBe(0);
        expect(sandbox.requests.map((request) => request.method)).toEqual(['GET', 'POST']);
        expect(relay.connections()).toBe(2);
      } finally {
        relay.close();
      }
    });

    it('are kept alive and reused: 12 deletes two at a time open two connections, not thirteen', async ({ cip, startSandbox }) => {
      const many = await startSandbox({ seed: 12 });
      const relay = await relayTo(many);
      try {
        const ids = [...many.environments.keys()];
        const result = await cip(['env', 'delete', ...ids, '--yes', '--concurrency', '2'], {
          env: sandboxEnv(many, { CIP_BASE_URL: relay.baseUrl }),
        });
        expect(result.exitCode).toBe(0);
        expect(many.environments.size).toBe(0);
        expect(many.requests).toHaveLength(1 + ids.length);
        expect(relay.connections()).toBeLessThanOrEqual(2);
      } finally {
        relay.close();
        await many.close();
      }
    });
  });
});
