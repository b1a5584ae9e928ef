// What people at a terminal see: tables by default, colour, spinners and prompts; and that none of these
// appear in a pipe, under CI, NO_COLOR or --quiet. A pseudo-terminal comes from util-linux `script`.
import { execa } from 'execa';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { CIP, readConfig, sandboxEnv, shellQuote, tempDir, TEST_CREDENTIAL_STORE } from '../helpers/cli.js';
import { cipInProcess } from '../helpers/harness.js';
import { sandboxProfile } from '../helpers/stored-profiles.js';
import { it, test } from '../helpers/fixture.js';

const SCRIPT = '/usr/bin/script';
// Each test gets a sandbox of its own (test/helpers/fixture.ts), started this way.
test.override({ sandboxOptions: { seed: 3 } });

/** Runs cip on a pseudo-terminal (stdin, stdout and stderr all terminals); returns the screen output. */
async function onTerminal(
  env: Record<string, string | undefined>,
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string; columns?: number } = {},
) {
  const command = `stty cols ${options.columns ?? 200} rows 50 2>/dev/null; exec node ${shellQuote(CIP)} ${args.map(shellQuote).join(' ')}`;
  const result = await execa(SCRIPT, ['-qfec', command, '/dev/null'], {
    env: {
      PATH: process.env.PATH,
      HOME: tempDir(),
      CIP_CONFIG_DIR: tempDir(),
      TERM: 'xterm-256color',
      ...TEST_CREDENTIAL_STORE,
      ...env,
      ...options.env,
    },
    extendEnv: false,
    reject: false,
    input: options.input ?? '',
    timeout: 30_000,
  });
  return { exitCode: result.exitCode, output: result.stdout.replace(/\r\n/g, '\n') };
}

describe.skipIf(!existsSync(SCRIPT))('at a terminal', () => {
  it('env list shows a bold-headed table that fits the width, never cutting the id', async ({ env, sandbox }) => {
    const { exitCode, output } = await onTerminal(env, ['env', 'list'], { columns: 70 });
    expect(exitCode).toBe(0);
    expect(output).toContain('\u001b[1mID');
    const lines = output.split('\n').filter((line) => /^[0-9a-f]{8}-/.test(line));
    expect(lines).toHaveLength(3);
    for (const id of sandbox.environments.keys()) expect(output).toContain(id);

    for (const line of lines) expect(line.replace(/\u001b\[[0-9;]*m/g, '').length).toBeLessThanOrEqual(70);
    expect(output).toMatch(/columns? hidden to fit the terminal/);
  });

  it.for<[string, number, Record<string, string>]>([
    ['a terminal 80 columns wide', 80, {}],
    ['COLUMNS=100 where the terminal gives no width', 0, { COLUMNS: '100' }],
  ])('env history on %s: ENTRY and WHEN whole (to the second), what it hid said', async ([_case, columns, extra], { env, sandbox }) => {
    const configDir = tempDir();
    const [first, second] = sandbox.environments.keys();
    expect(
      (await cipInProcess(['env', 'update', first!, '-f', 'description=changed by a long-winded process'], { env, configDir })).exitCode,
    ).toBe(0);
    expect((await cipInProcess(['env', 'update', second!, '-f', 'description=again'], { env, configDir })).exitCode).toBe(0);
    const { exitCode, output } = await onTerminal(env, ['env', 'history'], {
      columns,
      env: { CIP_CONFIG_DIR: configDir, NO_COLOR: '1', ...extra },
    });
    expect(exitCode).toBe(0);
    const width = columns || 100;
    const rows = output.split('\n').filter((line) => /^[0-9a-z]{13} /.test(line));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.length).toBeLessThanOrEqual(width);
      expect(row).toMatch(/^[0-9a-z]{13} {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ {2}update {2}/);
    }
    if (width === 80)
      expect(output).toContain('(1 column hidden to fit the terminal: PROFILE/ENTERPRISE; widen it, or use --columns or -o json)');
  });

  it('shows a created record as field/value lines that wrap long values within the width', async ({ env }) => {
    const description = 'a long description that goes on and on so that it has to wrap at the edge of the screen';
    const { exitCode, output } = await onTerminal(env, ['env', 'create', '-f', 'name=wrapped', '-f', `description=${description}`], {
      columns: 60,
    });
    expect(exitCode).toBe(0);
    // As a terminal shows it: the spinner's line is overwritten (cursor to column 1), escape codes are invisible.
    const plain = output
      .split('\n')
      .map((line) => line.split('\u001b[1G').pop()!)
      .join('\n')

      .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
    expect(output).toContain('\u001b[1mdescription');
    expect(plain).toMatch(/^name\s+wrapped$/m);
    // The record's lines, not the closing note on stderr, which the terminal wraps as it likes.
    const lines = plain.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('Created ') && !line.startsWith('  in '));
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
    expect(plain).toMatch(
      /^Created environment 'wrapped' \([0-9a-f-]{36}\)\r?\n {2}in enterprise [0-9a-f-]{36} at 127\.0\.0\.1:\d+ \(credentials from the environment\)\.$/m,
    );
    expect(plain.replace(/\n\s+/g, ' ')).toContain(description);
  });

  it('shows a spinner on stderr while waiting, but not under CI, --quiet, NO_COLOR, nor with JSON', async ({ env, sandbox }) => {
    sandbox.inject({ fault: { kind: 'delay', ms: 600 }, times: Infinity });
    const spinning = await onTerminal(env, ['env', 'list']);
    expect(spinning.exitCode).toBe(0);
    expect(spinning.output).toContain('Loading environments');
    for (const [args, extra] of [
      [['env', 'list'], { CI: 'true' }],
      [['env', 'list', '-q'], {}],
      [['env', 'list', '--json'], {}],
      [['env', 'list'], { NO_COLOR: '1' }],
    ] as const) {
      const quiet = await onTerminal(env, [...args], { env: extra });
      expect(quiet.exitCode).toBe(0);
      expect(quiet.output).not.toContain('Loading environments');
    }
  });

  it('NO_COLOR, --no-color and CI give plain text', async ({ env }) => {
    for (const [args, extra] of [
      [[], { NO_COLOR: '1' }],
      [['--no-color'], {}],
      [[], { CI: '1' }],
    ] as const) {
      const { exitCode, output } = await onTerminal(env, ['env', 'list', ...args], { env: extra });
      expect(exitCode).toBe(0);
      expect(output).not.toContain('\u001b[1m');
      expect(output).toMatch(/^ID\s+NAME/m);
    }
  });

  it('delete asks first, and deletes only on yes', async ({ env, sandbox }) => {
    const [first, second] = sandbox.environments.keys();
    const declined = await onTerminal(env, ['env', 'delete', first!], { input: 'n\n' });
    expect(declined.output).toMatch(
      /Delete environment 'env-0001' \([0-9a-f-]{36}\) in enterprise [0-9a-f-]{36} at 127\.0\.0\.1:\d+ \(credentials from the environment\)\? It can be re-created from the journal \('cip env history', then 'cip env restore ENTRY'\), perhaps with a new id\. \[y\/N\]/,
    );
    expect(declined.exitCode).toBe(2);
    expect(sandbox.environments.has(first!)).toBe(true);
    const accepted = await onTerminal(env, ['env', 'delete', second!], { input: 'y\n' });
    expect(accepted.exitCode).toBe(0);
    expect(sandbox.environments.has(second!)).toBe(false);
  });

  it('the question names the profile and the enterprise it would delete in', async ({ env, sandbox }) => {
    const configDir = tempDir();
    const profile = sandboxProfile(sandbox);
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ activeProfile: 'prod', profiles: { prod: profile } }), { mode: 0o600 });
    const [id] = sandbox.environments.keys();
    const noCredentials = {
      CIP_BASE_URL: undefined,
      CIP_API_KEY: undefined,
      CIP_SUBSCRIPTION_KEY: undefined,
      CIP_ENTERPRISE_ID: undefined,
    };
    const declined = await onTerminal(env, ['env', 'delete', id!], { input: 'n\n', env: { ...noCredentials, CIP_CONFIG_DIR: configDir } });
    expect(declined.exitCode).toBe(2);
    expect(declined.output).toContain(
      `Delete environment '${sandbox.environments.get(id!)!.name as string}' (${id!}) in profile 'prod', enterprise ${sandbox.keys.enterpriseId} at 127.0.0.1:${sandbox.port}? It can be re-created from the journal ('cip env history', then 'cip env restore ENTRY'), perhaps with a new id. [y/N]`,
    );
    expect(sandbox.environments.has(id!)).toBe(true);
  });

  it('delete of several shows a live count, then one line per failure and a summary', async ({ env, sandbox }) => {
    for (const id of ['t1', 't2', 't3']) sandbox.environments.set(id, { id, name: id });
    sandbox.inject({
      fault: { kind: 'status', status: 500 },
      method: 'DELETE',
      match: (request) => request.url.endsWith('/t2'),
      times: Infinity,
    });
    try {
      const { exitCode, output } = await onTerminal(env, ['env', 'delete', 't1', 't2', 't3', '--yes']);
      expect(exitCode).toBe(9);
      for (const step of ['Deleting 0/3', 'Deleting 1/3', 'Deleting 2/3', 'Deleting 3/3']) expect(output).toContain(step);
      expect(output).toContain("warning: cannot delete environment 't2': the API failed (HTTP 500)");
      expect(output).toMatch(/error: partly done: 2 deleted, 1 failed of 3 /);
      expect(output).not.toContain('Deleted environment');
    } finally {
      for (const id of ['t1', 't2', 't3']) sandbox.environments.delete(id);
    }
  });

  it('a terminal that reports 0 columns gets no spinner and an 80-column table, and the run ends', async ({ env, sandbox }) => {
    sandbox.inject({ fault: { kind: 'delay', ms: 300 } });
    const { exitCode, output } = await onTerminal(env, ['env', 'list'], { columns: 0 });
    expect(exitCode).toBe(0);
    expect(output).not.toContain('Loading environments');

    const lines = output
      .split('\n')
      .map((line) => line.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''))
      .filter((line) => /^[0-9a-f]{8}-/.test(line));
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(output.length).toBeLessThan(10_000);
  });

  it('JSON at a terminal shows 8-bit controls and bidi characters escaped; the data is the same', async ({ env, sandbox }) => {
    const id = [...sandbox.environments.keys()][0]!;
    const record = sandbox.environments.get(id)!;
    const saved = record.name;
    record.name = 'csi\u009b2J osc\u009d0;t\u009c rlo\u202eexe zw\u200bx';
    try {
      const { exitCode, output } = await onTerminal(env, ['env', 'list', '--json']);
      expect(exitCode).toBe(0);
      expect(output).not.toMatch(/[\u0080-\u009f\u202e\u200b]/);
      expect(output).toContain('"name": "csi\\u009b2J osc\\u009d0;t\\u009c rlo\\u202eexe zw\\u200bx"');
      const parsed = JSON.parse(output.slice(output.indexOf('['), output.lastIndexOf(']') + 1)) as { name: string }[];
      expect(parsed.map((item) => item.name)).toContain(record.name);
    } finally {
      record.name = saved;
    }
  });

  it('auth login asks for what is missing, hiding the keys as they are typed', async ({ sandbox }) => {
    const configDir = tempDir();
    const command = `stty cols 200 rows 50 2>/dev/null; exec node ${shellQuote(CIP)} auth login --base-url ${shellQuote(sandbox.url)}`;
    const child = execa(SCRIPT, ['-qfec', command, '/dev/null'], {
      env: { PATH: process.env.PATH, HOME: tempDir(), CIP_CONFIG_DIR: configDir, TERM: 'xterm-256color', ...TEST_CREDENTIAL_STORE },
      extendEnv: false,
      reject: false,
      stdin: 'pipe',
      timeout: 30_000,
    });
    // Answer each question as soon as it is on screen: cip turns echo off before it asks.
    const answers: [string, string][] = [
      ['Enterprise id (GUID): ', `${sandbox.keys.enterpriseId}\r`],
      ['API key (hidden): ', `${sandbox.keys.apiKey}\r`],
      ['Subscription key (hidden): ', `${sandbox.keys.subscriptionKey}\r`],
    ];
    let screen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
      const next = answers[0];
      if (next && screen.includes(next[0])) {
        answers.shift();
        child.stdin.write(next[1]);
      }
    });
    const result = await child;
    expect(screen).toContain('https://app.copyl.com/en/itops/secrets');
    expect(screen).toContain('API key (hidden):');
    expect(screen).not.toContain(sandbox.keys.apiKey);
    expect(screen).not.toContain(sandbox.keys.subscriptionKey);
    expect(result.exitCode).toBe(0);
    expect(readConfig(configDir)).toMatchObject({
      profiles: {
        default: { apiKey: sandbox.keys.apiKey, subscriptionKey: sandbox.keys.subscriptionKey, enterpriseId: sandbox.keys.enterpriseId },
      },
    });
  });
});

describe('in a pipe', () => {
  // In-process: a pipe needs no terminal; the run is the same as the binary's.
  it('FORCE_COLOR colours a table even in a pipe; nothing else does', async ({ env }) => {
    const forced = await cipInProcess(['env', 'list', '-o', 'table'], { env: { ...env, FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain('\u001b[1mID');
    const plain = await cipInProcess(['env', 'list', '-o', 'table'], { env });
    expect(plain.stdout).not.toContain('\u001b[');
  });

  it('a table in a pipe is never cut', async () => {
    const long = 'x'.repeat(300);
    const wide = await startSandbox({ seed: [{ id: 'one', name: 'wide', description: long }] });
    try {
      const result = await cipInProcess(['env', 'list', '-o', 'table'], { env: sandboxEnv(wide) });
      expect(result.stdout).toContain(long);
    } finally {
      await wide.close();
    }
  });

  it('control characters and ANSI escapes from the server are neutralised in tables', async () => {
    const hostile = await startSandbox({ seed: [{ id: 'evil', name: 'a\u001b[31mred\u001b]0;pwned\u0007', description: 'line1\nline2' }] });
    try {
      const result = await cipInProcess(['env', 'list', '-o', 'table'], { env: sandboxEnv(hostile) });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).not.toContain('\u001b');
      expect(result.stdout).not.toContain('\u0007');
      expect(result.stdout).toContain('a\\u001b[31mred');
      expect(result.stdout).toContain('line1\\nline2');
    } finally {
      await hostile.close();
    }
  });

  it('a reader that goes away (| head) ends quietly', async () => {
    const big = await startSandbox({ seed: 20_000 });
    try {
      const result = await execa('bash', ['-o', 'pipefail', '-c', `node ${shellQuote(CIP)} env list -o table | head -n 2`], {
        env: { PATH: process.env.PATH, HOME: tempDir(), CIP_CONFIG_DIR: tempDir(), ...sandboxEnv(big) },
        extendEnv: false,
        reject: false,
      });
      expect(result.stdout.split('\n')).toHaveLength(2);
      expect(result.stderr).toBe('');
      expect(result.exitCode).toBe(0);
    } finally {
      await big.close();
    }
  });
});
