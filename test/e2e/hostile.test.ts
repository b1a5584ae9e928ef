// What a broken or hostile server or input can do, and what cip does about it: answers are bounded, parsers
// of server text are linear, nothing the server chose reaches the terminal raw, and keys that could break a
// header or be redacted badly are refused before anything is sent. Servers run on 127.0.0.1; each case has a
// generous execa time-out as a safety net only (a hang on the old code), never as what is asserted.
import { execa } from 'execa';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeEach, describe, expect } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { CIP, expectOneErrorLine, readConfig, sandboxEnv, tempDir, cip as cipSpawned, noVerifyLoginArgs } from '../helpers/cli.js';
import { cipInProcess as cip } from '../helpers/harness.js';
import { rawHttpServer, type RawHttpServer } from '../helpers/raw-http.js';
import { it, test } from '../helpers/fixture.js';

// Each test gets a sandbox of its own (test/helpers/fixture.ts), started this way; the raw server is the file's.
test.override({ sandboxOptions: { seed: 1 } });
const raw: RawHttpServer = await rawHttpServer();
afterAll(async () => {
  await raw.close();
});
beforeEach(() => {
  raw.requests.length = 0;
});
/** The test's sandbox keys, sent to the raw server. */
const rawEnvOf = (env: Record<string, string | undefined>) => ({ ...env, CIP_BASE_URL: raw.url });

const GNU_TIME = '/usr/bin/time';

/** An HTTP/1.1 response with these headers and body, and a Content-Length that fits. */
function response(status: string, headers: Record<string, string>, body: Buffer | string): Buffer {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const head = Object.entries({ ...headers, 'Content-Length': String(bytes.length) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return Buffer.concat([Buffer.from(`HTTP/1.1 ${status}\r\n${head}\r\n`, 'latin1'), bytes]);
}

/** Runs cip under GNU time; returns what it printed and its peak RSS in MiB (NaN without GNU time). */
const HAS_GNU_TIME = existsSync(GNU_TIME);

async function measured(args: string[], runEnv: Record<string, string | undefined>) {
  const timeFile = join(tempDir(), 'rss');
  const command = existsSync(GNU_TIME) ? [GNU_TIME, '-f', '%M', '-o', timeFile, 'node', CIP, ...args] : ['node', CIP, ...args];
  const result = await execa(command[0]!, command.slice(1), {
    env: { PATH: process.env.PATH, HOME: tempDir(), CIP_CONFIG_DIR: tempDir(), ...runEnv },
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
  const rss = existsSync(timeFile) ? Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop()) / 1024 : Number.NaN;
  return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, rss };
}

describe('answers are bounded', () => {
  // 1 MiB of gzip that decodes to 1 GiB of spaces: 64 gzip members of 16 MiB each, one after the other.
  const bomb = () => {
    const member = gzipSync(Buffer.alloc(16 * 1024 ** 2, 0x20), { level: 9 });
    return response(
      '200 OK',
      { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      Buffer.concat(Array<Buffer>(64).fill(member)),
    );
  };

  it('a gzip bomb stops at the answer limit: exit 7, one request, peak memory well under 1 GiB', async ({ env }) => {
    raw.respond(bomb());
    const result = await measured(['env', 'list'], rawEnvOf(env));
    expect(result.exitCode).toBe(7);
    expect(expectOneErrorLine(result.stderr)).toBe(
      'error: cannot list environments: answer too large: the API sent more than 256 MiB (CIP_MAX_ANSWER_BYTES sets the limit)',
    );
    expect(raw.requests).toHaveLength(1);
    if (HAS_GNU_TIME) {
      expect(result.rss).toBeGreaterThan(10);
      expect(result.rss).toBeLessThan(700);
    }
  });
  // Said where it cannot be checked, so a run without GNU time shows what it left out.
  if (!HAS_GNU_TIME) it.skip('the peak memory of a gzip bomb (needs GNU time: apt-get install time)', () => undefined);

  it('a plain body past the limit is cut off the same way, and CIP_MAX_ANSWER_BYTES sets the limit', async ({ env }) => {
    raw.respond(response('200 OK', { 'Content-Type': 'application/json' }, `[${'"x",'.repeat(300_000)}"x"]`));
    const result = await cip(['env', 'list'], { env: { ...rawEnvOf(env), CIP_MAX_ANSWER_BYTES: '1048576' } });
    expect(result.exitCode).toBe(7);
    expect(expectOneErrorLine(result.stderr)).toMatch(/answer too large: the API sent more than 1 MiB/);
    expect(raw.requests).toHaveLength(1);
    const bad = await cip(['env', 'list'], { env: { ...rawEnvOf(env), CIP_MAX_ANSWER_BYTES: 'lots' } });
    expect(bad.exitCode).toBe(2);
    expect(expectOneErrorLine(bad.stderr)).toBe("error: CIP_MAX_ANSWER_BYTES must be a whole number of bytes, not 'lots'");
  });

  it('gzip that is not gzip is a broken answer (exit 7), not a network error retried three times', async ({ env }) => {
    raw.respond(response('200 OK', { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, '[{"id":"x"}]'));
    const result = await cip(['env', 'list'], { env: rawEnvOf(env) });
    expect(result.exitCode).toBe(7);
    expect(expectOneErrorLine(result.stderr)).toBe(
      'error: cannot list environments: the API answered with a body that is not valid gzip data, though its Content-Encoding says so',
    );
    expect(raw.requests).toHaveLength(1);
  });

  it.for([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
    ['deflate, gzip', (body: Buffer) => gzipSync(deflateSync(body))],
  ] as const)('a body in %s is decoded, and asked for as fetch asks', async ([encoding, encode], { env }) => {
    const list = '[{"id":"e1","name":"encoded"}]';
    raw.respond(response('200 OK', { 'Content-Type': 'application/json', 'Content-Encoding': encoding }, encode(Buffer.from(list))));
    const result = await cip(['env', 'list'], { env: rawEnvOf(env) });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(list));
    expect(raw.requests[0]).toMatch(/\r\naccept-encoding: gzip, deflate, br(\r\n|$)/i);
  });

  it('a gzip bomb in br stops at the answer limit too', async ({ env }) => {
    raw.respond(
      response(
        '200 OK',
        { 'Content-Type': 'application/json', 'Content-Encoding': 'br' },
        brotliCompressSync(Buffer.alloc(8 * 1024 ** 2, 0x20)),
      ),
    );
    const result = await cip(['env', 'list'], { env: { ...rawEnvOf(env), CIP_MAX_ANSWER_BYTES: '1048576' } });
    expect(result.exitCode).toBe(7);
    expect(expectOneErrorLine(result.stderr)).toMatch(/answer too large: the API sent more than 1 MiB/);
    expect(raw.requests).toHaveLength(1);
  });

  it('an HTML error page built to make a regular expression quadratic is read in linear time', async ({ env }) => {
    raw.respond(response('502 Bad Gateway', { 'Content-Type': 'text/html' }, `<html>${'<title'.repeat(300_000)}`));
    const result = await cip(['env', 'list'], { env: rawEnvOf(env) });
    expect(result.exitCode).toBe(7);
    expect(expectOneErrorLine(result.stderr)).toBe('error: cannot list environments: the API failed (HTTP 502): an HTML page');
    expect(raw.requests).toHaveLength(3);
  });

  it.for([
    ['json', []],
    ['table', ['-o', 'table']],
  ] as const)('an item nested 200,000 levels deep is a broken answer in %s output', async ([_format, args], { env }) => {
    raw.respond(
      response('200 OK', { 'Content-Type': 'application/json' }, `[{"id":"deep","nested":${'['.repeat(200_000)}${']'.repeat(200_000)}}]`),
    );
    const result = await cip(['env', 'list', ...args], { env: rawEnvOf(env) });
    expect(result.exitCode).toBe(7);
    expect(expectOneErrorLine(result.stderr)).toBe(
      'error: cannot list environments: the API answered HTTP 200 with JSON nested deeper than 1000 levels',
    );
    expect(result.stdout).toBe('');
  });

  // Spawned: each run of cip opens its own connections; in one process they would be pooled across runs.
  it('an unparseable Retry-After means normal backoff, not the longest wait', async ({ env }) => {
    raw.respond(response('503 Busy', { 'Retry-After': 'soon' }, 'busy'));
    const result = await cipSpawned(['env', 'list', '--verbose'], { env: rawEnvOf(env) });
    expect(result.exitCode).toBe(7);
    expect(raw.requests).toHaveLength(3);
    expect(result.stderr.match(/retry \d of 2 after HTTP 503/g)).toHaveLength(2);
  });
});

describe('nothing the server chose reaches the terminal raw', () => {
  it('--verbose shows a reason phrase without its escape sequences', async ({ env }) => {
    raw.respond(response('500 Oops\u001b]0;PWNED\u0007\u001b[2J', { 'Content-Type': 'text/plain' }, 'down'));
    const result = await cip(['env', 'list', '--verbose'], { env: rawEnvOf(env) });
    expect(result.exitCode).toBe(7);
    expect(result.stderr).toContain('< 500 Oops?]0;PWNED??[2J (');
    expect(result.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it('bidi overrides and zero-width characters are shown escaped in tables and error lines', async ({ env, sandbox }) => {
    sandbox.environments.set('x\u202egnp.exe', {
      id: 'x\u202egnp.exe',
      name: 'zero\u200bwidth',
      csi: 'a\u009b31mred',
      osc: '\u009d0;t\u009c',
    });
    try {
      const table = await cip(['env', 'list', '-o', 'table', '--columns', 'id,name,csi,osc'], { env });
      expect(table.stdout).toContain('x\\u202egnp.exe');
      expect(table.stdout).toContain('zero\\u200bwidth');
      expect(table.stdout).toContain('a\\u009b31mred');
      expect(table.stdout).not.toMatch(/[\u009b\u009d\u202e\u200b]/);
      // In a pipe, JSON is the exact data.
      const json = await cip(['env', 'list', '--json'], { env });
      expect(JSON.parse(json.stdout)).toContainEqual(expect.objectContaining({ id: 'x\u202egnp.exe', name: 'zero\u200bwidth' }));
      expect(json.stdout).toContain('\u202e');
    } finally {
      sandbox.environments.delete('x\u202egnp.exe');
    }
    sandbox.inject({ fault: { kind: 'status', status: 400, body: JSON.stringify({ detail: 'bad \u202eeman\u200b \u009b2J' }) } });
    const error = await cip(['env', 'create', '-f', 'name=x'], { env });
    expect(expectOneErrorLine(error.stderr)).toMatch(/bad \?eman\? \?2J$/);
  });
});

describe('keys that could break a header or a redaction are refused before anything is sent', () => {
  const bad: [string, string][] = [
    ['a line feed', 'First-key-0123456789\nSecond-key-0123456789'],
    ['a carriage return', 'First-key-0123456789\rX'],
    ['a control character', 'key-with-bell-\u0007-0123456789'],
    ['a non-Latin-1 character', 'key-with-\u4e2d\u6587-0123456789'],
    ['a space inside', 'Kq7wQ Zx9pL 0123456789ab'],
    ['fewer than 16 characters', 'short-key-123'],
  ];

  it.for(bad)('a key with %s in the environment is exit 2, without showing the key', async ([_what, key], { env, sandbox }) => {
    const result = await cip(['env', 'list'], { env: { ...env, CIP_API_KEY: key } });
    expect(result.exitCode).toBe(2);
    const line = expectOneErrorLine(result.stderr);
    expect(line).toMatch(/^error: the API key from CIP_API_KEY is not a valid key: /);
    for (const part of key.split(/[\s\u0007]/)) if (part.length > 3) expect(result.stderr).not.toContain(part);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('a bad key in a key file, or in the environment for auth login --no-verify, is never stored', async ({ sandbox }) => {
    const configDir = tempDir();
    const dir = tempDir();
    writeFileSync(join(dir, 'api'), 'line-one-0123456789\nline-two-0123456789\n');
    writeFileSync(join(dir, 'sub'), sandbox.keys.subscriptionKey);
    const fromFile = await cip(noVerifyLoginArgs(sandbox.keys.enterpriseId, join(dir, 'api'), join(dir, 'sub')), { configDir });
    expect(fromFile.exitCode).toBe(2);
    expect(expectOneErrorLine(fromFile.stderr)).toMatch(/^error: the API key from --api-key-file .* is not a valid key/);
    const fromEnv = await cip(['auth', 'login', '--no-verify', '--enterprise-id', sandbox.keys.enterpriseId], {
      configDir,
      env: { CIP_API_KEY: 'key-with-\u00e9-accent-0123456789', CIP_SUBSCRIPTION_KEY: sandbox.keys.subscriptionKey },
    });
    expect(fromEnv.exitCode).toBe(2);
    expect(readConfig(configDir)).toBeUndefined();
  });

  it('a bad key stored by hand in a profile is exit 2 naming the profile', async ({ sandbox }) => {
    const configDir = tempDir();
    const profile = {
      baseUrl: sandbox.url,
      enterpriseId: sandbox.keys.enterpriseId,
      apiKey: 'stored\nkey-0123456789',
      subscriptionKey: sandbox.keys.subscriptionKey,
    };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ activeProfile: 'p', profiles: { p: profile } }), { mode: 0o600 });
    const result = await cip(['env', 'list'], { configDir });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(/^error: the API key from profile 'p' is not a valid key/);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('a key echoed inside the data of a success never reaches stdout', async ({ env, sandbox }) => {
    sandbox.environments.set('echo', { id: 'echo', name: 'echo', note: `key ${sandbox.keys.apiKey} here` });
    try {
      for (const args of [['--json'], ['-o', 'table']]) {
        const result = await cip(['env', 'list', ...args], { env });
        expect(result.exitCode).toBe(0);
        expect(result.stdout).toContain('key *** here');
        expect(result.stdout).not.toContain(sandbox.keys.apiKey);
      }
    } finally {
      sandbox.environments.delete('echo');
    }
  });

  it('an echo of the keys is redacted whole, longest first, raw, URL-encoded and JSON-escaped', async () => {
    const apiKey = 'k3y-Alpha-01/+"x\\y-0001';
    const subscriptionKey = `${apiKey}-SUBSCRIPTION-TAIL-7777`;
    const custom = await startSandbox({ apiKey, subscriptionKey });
    try {
      const echo = `raw ${subscriptionKey} | ${apiKey} | url ${encodeURIComponent(apiKey)} | ${encodeURIComponent(subscriptionKey).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())} | json ${JSON.stringify(apiKey)}`;
      custom.inject({ fault: { kind: 'status', status: 400, body: JSON.stringify({ message: echo }) } });
      const result = await cip(['env', 'create', '-f', 'name=x', '--verbose'], { env: sandboxEnv(custom) });
      expect(result.exitCode).toBe(6);
      const line = expectOneErrorLine(result.stderr);
      expect(line).toContain('raw *** | *** | url *** | *** | json "***"');
      for (const leak of ['SUBSCRIPTION-TAIL', 'Alpha', 'k3y']) expect(result.stderr).not.toContain(leak);
    } finally {
      await custom.close();
    }
  });
});
