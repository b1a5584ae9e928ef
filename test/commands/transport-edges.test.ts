// What a user sees when the API's body does not decode as its Content-Encoding says (src/api/transport.ts):
// a broken answer, exit 7, after one request, whichever decoder failed. Served raw from 127.0.0.1. And what a
// TLS handshake that fails before any certificate means (an old TLS version, a server that is not TLS).
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeEach, describe, expect } from 'vitest';
import { expectOneErrorLine, tempDir } from '../helpers/cli.js';
import { rawHttpServer } from '../helpers/raw-http.js';
import { makeCertificate, oldTlsServer } from '../helpers/tls.js';
import { it } from '../helpers/fixture.js';

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
