// Inputs that are pipes, as the built binary meets them: keys from process substitution (`<(pass show cip/key)`)
// and /dev/stdin in a pipe, a payload from a named FIFO, Ctrl-C while a FIFO's writer has yet to write, and
// /dev/stdin at a terminal. Each gate is an event: opening a FIFO for writing returns only once cip has it open.
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { CIP, expectOneErrorLine, readConfig, sandboxEnv, shellQuote, spawnCip, tempDir, TEST_CREDENTIAL_STORE } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';

// Each test gets a sandbox of its own (test/helpers/fixture.ts), started this way.
test.override({ sandboxOptions: { seed: 0 } });

function fifo(): string {
  const path = join(tempDir(), 'fifo');
  execFileSync('mkfifo', [path]);
  return path;
}

/** The login ended clean and stored these keys in the default profile. */
function expectStored(
  result: { exitCode?: number; stderr: unknown },
  configDir: string,
  keys: { apiKey: string; subscriptionKey: string },
) {
  expect(result.stderr).not.toContain('error');
  expect(result.exitCode).toBe(0);
  expect(readConfig(configDir)).toMatchObject({ profiles: { default: keys } });
}

describe('keys from pipes', () => {
  it('auth login reads both keys from process substitution, as from `pass show`', async ({ sandbox }) => {
    const configDir = tempDir();
    const { apiKey, subscriptionKey, enterpriseId } = sandbox.keys;
    // The keys reach bash through its environment, never through an argument list.
    const script =
      `exec node ${shellQuote(CIP)} auth login --base-url ${shellQuote(sandbox.url)} --enterprise-id ${enterpriseId} ` +
      `--api-key-file <(printf '%s\\n' "$API") --subscription-key-file <(printf '%s\\n' "$SUB")`;
    const result = await execa('bash', ['-c', script], {
      env: {
        PATH: process.env.PATH,
        HOME: configDir,
        CIP_CONFIG_DIR: configDir,
        ...TEST_CREDENTIAL_STORE,
        API: apiKey,
        SUB: subscriptionKey,
      },
      extendEnv: false,
      reject: false,
      timeout: 30_000,
    });
    expectStored(result, configDir, { apiKey, subscriptionKey });
    // The keys were checked against the API: cip sent them.
    expect(sandbox.requests.at(-1)?.headers['ocp-apim-subscription-key']).toBe(subscriptionKey);
  });

  it('--api-key-file /dev/stdin reads a real pipe', async ({ sandbox }) => {
    const configDir = tempDir();
    const { apiKey, subscriptionKey, enterpriseId } = sandbox.keys;
    const keys = tempDir();
    writeFileSync(join(keys, 'sub'), subscriptionKey);
    // A shell's | is a pipe (Node gives a child a socket as stdin, which /dev/stdin cannot open).
    const script =
      `printf '%s\\n' "$API" | exec node ${shellQuote(CIP)} auth login --base-url ${shellQuote(sandbox.url)} --enterprise-id ${enterpriseId} ` +
      `--api-key-file /dev/stdin --subscription-key-file ${shellQuote(join(keys, 'sub'))}`;
    const result = await execa('bash', ['-c', script], {
      env: { PATH: process.env.PATH, HOME: configDir, CIP_CONFIG_DIR: configDir, ...TEST_CREDENTIAL_STORE, API: apiKey },
      extendEnv: false,
      reject: false,
      timeout: 30_000,
    });
    expectStored(result, configDir, { apiKey, subscriptionKey });
  });

  it('/dev/stdin that is a socket (a child of Node) cannot be opened: exit 2, saying to give -', async ({ sandbox }) => {
    const keys = tempDir();
    writeFileSync(join(keys, 'sub'), sandbox.keys.subscriptionKey);
    const args = ['auth', 'login', '--base-url', sandbox.url, '--enterprise-id', sandbox.keys.enterpriseId];
    const result = await spawnCip([...args, '--api-key-file', '/dev/stdin', '--subscription-key-file', join(keys, 'sub')], {
      input: `${sandbox.keys.apiKey}\n`,
    });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      "error: cannot read --api-key-file /dev/stdin: it is a socket (to read stdin, give '-')",
    );
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe('a payload from a named FIFO', () => {
  it('is read once its writer has written and gone', async ({ sandbox }) => {
    const path = fifo();
    const child = spawnCip(['env', 'create', '--file', path], { env: sandboxEnv(sandbox) });
    const writer = await open(path, 'w');
    await writer.write('{"name":"from-a-fifo"}');
    await writer.close();
    const result = await child;
    expect(result.exitCode).toBe(0);
    const posts = sandbox.requests.filter((request) => request.method === 'POST');
    expect(posts.map((request) => request.body)).toEqual(['{"name":"from-a-fifo"}']);
  });

  it('Ctrl-C while the writer has not written ends cip at once with 130, and nothing is sent', async ({ sandbox }) => {
    const path = fifo();
    const child = spawnCip(['env', 'create', '--file', path], { env: sandboxEnv(sandbox) });
    // Returns once cip has opened the FIFO; the writer then writes nothing, as `pass` waiting for a passphrase.
    const writer = await open(path, 'w');
    child.kill('SIGINT');
    const result = await child;
    await writer.close();
    expect(result.exitCode).toBe(130);
    expect(result.stderr).not.toContain('error');
    expect(sandbox.requests).toHaveLength(0);
  });
});

const SCRIPT = '/usr/bin/script';

describe.skipIf(!existsSync(SCRIPT))('at a terminal', () => {
  it('--file /dev/stdin is the terminal itself: exit 2 at once, nothing read or sent', async ({ sandbox }) => {
    const command = `exec node ${shellQuote(CIP)} env create --file /dev/stdin`;
    const result = await execa(SCRIPT, ['-qfec', command, '/dev/null'], {
      env: { PATH: process.env.PATH, HOME: tempDir(), CIP_CONFIG_DIR: tempDir(), TERM: 'dumb', ...sandboxEnv(sandbox) },
      extendEnv: false,
      reject: false,
      input: '',
      timeout: 30_000,
    });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stdout.replace(/\r\n/g, '\n'))).toBe(
      'error: cannot read --file /dev/stdin: it is a terminal; pipe the input in',
    );
    expect(sandbox.requests).toHaveLength(0);
  });
});
