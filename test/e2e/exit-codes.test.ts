// The exit-code contract, pinned: each documented code from a real run, and the table in --help and the
// README equal to the one in src/errors.ts.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { EXIT_CODES } from '../../src/errors.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { execa } from 'execa';
import { CIP, ROOT, cip, expectOneErrorLine, spawnCip, tempDir } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';

// Each test gets a sandbox of its own (test/helpers/fixture.ts), started this way.
test.override({ sandboxOptions: { seed: 1 } });

type Env = Record<string, string | undefined>;

describe('every exit code from a real run', () => {
  const scenarios: [number, string, (sandbox: Sandbox, env: Env) => Promise<{ exitCode: number; stderr: string }>][] = [
    [0, 'success', (_sandbox, env) => cip(['env', 'list'], { env })],
    [2, 'an unknown option', (_sandbox, env) => cip(['env', 'list', '--nope'], { env })],
    [2, 'bad JSON', (_sandbox, env) => cip(['env', 'create', '--data', '{'], { env })],
    [2, 'a bad GUID', (_sandbox, env) => cip(['env', 'list'], { env: { ...env, CIP_ENTERPRISE_ID: 'x' } })],
    [2, 'a missing confirmation', (_sandbox, env) => cip(['env', 'delete', 'x'], { env })],
    [3, 'no credentials', () => cip(['env', 'list'], {})],
    [3, 'a 401', (_sandbox, env) => cip(['env', 'list'], { env: { ...env, CIP_API_KEY: 'bad-key-1234567890' } })],
    [
      4,
      'a 403',
      (sandbox, env) =>
        cip(['env', 'delete', [...sandbox.environments.keys()][0]!, '-y'], { env: { ...env, CIP_API_KEY: sandbox.keys.readOnlyApiKey } }),
    ],
    [5, 'a 404', (_sandbox, env) => cip(['env', 'delete', 'x', '-y'], { env })],
    [6, 'a 400', (_sandbox, env) => cip(['env', 'create', '-F', 'name=42'], { env })],
    [
      7,
      'a 500',
      (sandbox, env) => {
        sandbox.inject({ fault: { kind: 'status', status: 500 }, method: 'POST' });
        return cip(['env', 'create', '-f', 'name=x'], { env });
      },
    ],
    [
      9,
      'a delete of several where some failed',
      (sandbox, env) => {
        sandbox.environments.set('p1', { id: 'p1', name: 'partly-1' });
        sandbox.environments.set('p2', { id: 'p2', name: 'partly-2' });
        sandbox.inject({
          fault: { kind: 'status', status: 500 },
          method: 'DELETE',
          match: (request) => request.url.endsWith('/p2'),
          times: Infinity,
        });
        return cip(['env', 'delete', 'partly-1', 'partly-2', '-y'], { env });
      },
    ],
    [
      10,
      'a plan that finds changes, with --exit-code',
      (_sandbox, env) => {
        const path = join(tempDir(), 'environments.yaml');
        writeFileSync(path, 'environments:\n  - name: not-there-yet\n');
        return cip(['env', 'diff', '--file', path, '--exit-code'], { env });
      },
    ],
    [12, 'a --jq filter that fails at run time', (_sandbox, env) => cip(['env', 'list', '--jq', '.[0].id, error("x")'], { env })],
    [
      8,
      'a refused connection',
      (_sandbox, env) => cip(['env', 'create', '-f', 'name=x'], { env: { ...env, CIP_BASE_URL: 'http://127.0.0.1:1/ms' } }),
    ],
    [
      11,
      'a full disk under stdout',
      (_sandbox, env) =>
        execa('bash', ['-c', `exec node ${CIP} env list > /dev/full`], {
          env: { PATH: process.env.PATH, HOME: tempDir(), CIP_CONFIG_DIR: tempDir(), ...env },
          extendEnv: false,
          reject: false,
        }) as Promise<{ exitCode: number; stderr: string }>,
    ],
    [
      11,
      'a full disk under the stdout of --version (written straight to its file descriptor)',
      () =>
        execa('bash', ['-c', `exec node ${CIP} --version > /dev/full`], {
          env: { PATH: process.env.PATH, HOME: tempDir(), CIP_CONFIG_DIR: tempDir() },
          extendEnv: false,
          reject: false,
        }) as Promise<{ exitCode: number; stderr: string }>,
    ],
  ];
  for (const [code, what, run] of scenarios) {
    it(`${code}: ${what}`, async ({ sandbox, env }) => {
      const result = await run(sandbox, env);
      expect(result.exitCode).toBe(code);
      if (code === 0) expect(result.stderr).toBe('');
      // Changes found are what --exit-code asks about, not a failure: the plan line, and no error line.
      else if (code === 10) expect(result.stderr).toMatch(/^Plan: 1 to create, 0 to update, 0 to delete\.\n(?![^]*error:)/);
      else expectOneErrorLine(result.stderr);
    });
  }

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${code}: ${signal} during a request ends the run at once, without a stack trace or a config write`, async ({ sandbox, env }) => {
      sandbox.inject({ fault: { kind: 'delay', ms: 20_000 } });
      const configDir = tempDir();
      const child = spawnCip(['env', 'list'], { env, configDir });
      await sandbox.waitForRequest(() => true);
      child.kill(signal);
      const result = await child;
      expect(result.exitCode).toBe(code);
      expect(result.stderr).not.toMatch(/^\s+at /m);
      expect(result.stdout).toBe('');
      expect(readdirSync(configDir)).toEqual([]);
    });
  }

  // jq runs in a thread of its own: the process still hears signals while a filter runs. The filter's first
  // output proves that it runs (jq prints results as they come); range(1e9) would run for minutes.
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${code}: ${signal} while a --jq filter runs ends the run at once`, async ({ env }) => {
      const child = spawnCip(['env', 'list', '--jq', 'range(1e9)'], { env });
      await new Promise((resolve) => child.stdout.once('data', resolve));
      child.kill(signal);
      const result = await child;
      expect(result.exitCode).toBe(code);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(/^0\n1\n/);
    });
  }

  it('0: a reader that goes away (`| head -1`) ends a --jq filter; the command did its work', async ({ env }) => {
    const result = await execa('bash', ['-c', `node ${CIP} env list --jq 'range(1e9)' | head -1; exit "\${PIPESTATUS[0]}"`], {
      env: { PATH: process.env.PATH, HOME: tempDir(), CIP_CONFIG_DIR: tempDir(), ...env },
      extendEnv: false,
      reject: false,
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: '0', stderr: '' });
  });

  it('1 is kept for bugs; --help, the README and errors.ts agree on the whole table', async () => {
    const help = await cip(['--help']);
    expect(help.exitCode).toBe(0);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    // A meaning wider than the help's 80 columns goes on under itself, 7 spaces in.
    const table = help.stdout.replace(/\n {7}(?=\S)/g, ' ');
    for (const { code, meaning } of EXIT_CODES) {
      expect(table).toMatch(new RegExp(`^\\s+${code}  ${escape(meaning)}$`, 'm'));
      expect(readme).toMatch(new RegExp(`^\\| ${code} \\| ${escape(meaning)} \\|$`, 'm'));
    }
    expect(EXIT_CODES.map(({ code }) => code)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 130, 143]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
