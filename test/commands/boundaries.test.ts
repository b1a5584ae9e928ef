// Rules whose edge was left untested by one-fixture tests: each case here sits on the boundary a careless
// change would move (found by mutation testing).
import { mkdirSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { expectOneErrorLine, loginArgs, readConfig, sandboxEnv, tempDir } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';
import type { Sandbox } from '../../src/sandbox/index.js';

test.override({ sandboxOptions: { seed: 1 } });

interface StoredProfile {
  baseUrl?: string;
  enterpriseId: string;
  apiKey: string;
  subscriptionKey: string;
}

/** A config folder holding these profiles, written as cip writes it (folder 0700, file 0600). */
function configWith(profiles: Record<string, StoredProfile>, activeProfile?: string): string {
  const dir = tempDir();
  chmodSync(dir, 0o700);
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ activeProfile, profiles }, null, '\t'), { mode: 0o600 });
  return dir;
}

const sandboxProfile = (sandbox: Sandbox): StoredProfile => ({
  baseUrl: sandbox.url,
  enterpriseId: sandbox.keys.enterpriseId,
  apiKey: sandbox.keys.apiKey,
  subscriptionKey: sandbox.keys.subscriptionKey,
});

describe('keys read from a profile are secrets too', () => {
  it('a profile key the server echoes in an error body is shown as ***', async ({ sandbox, cip }) => {
    const configDir = configWith({ p: sandboxProfile(sandbox) }, 'p');
    sandbox.inject({
      fault: {
        kind: 'status',
        status: 400,
        body: JSON.stringify({ message: `bad key ${sandbox.keys.apiKey} for ${sandbox.keys.subscriptionKey}` }),
      },
    });
    const result = await cip(['env', 'list'], { configDir });
    expect(result.exitCode).toBe(6);
    expect(expectOneErrorLine(result.stderr)).toBe(
      'error: cannot list environments: the API rejected the request (HTTP 400): bad key *** for ***',
    );
  });

  it('a profile key the server echoes in data never reaches stdout', async ({ sandbox, cip }) => {
    const configDir = configWith({ p: sandboxProfile(sandbox) }, 'p');
    const id = [...sandbox.environments.keys()][0]!;
    const record = sandbox.environments.get(id)!;
    const saved = record.description;
    record.description = `key=${sandbox.keys.apiKey}`;
    try {
      const result = await cip(['env', 'list', '--json'], { configDir });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain('"description": "key=***"');
      expect(result.stdout).not.toContain(sandbox.keys.apiKey);
    } finally {
      record.description = saved;
    }
  });
});

describe("cip's own folder and file are private to their owner", () => {
  for (const mode of [0o750, 0o740, 0o710, 0o705]) {
    it(`a default folder with mode ${mode.toString(8)} is made 700, and said so`, async ({ cip, sandbox }) => {
      const home = tempDir();
      const configDir = join(home, '.config', 'cip');
      mkdirSync(configDir, { recursive: true });
      writeFileSync(join(configDir, 'config.json'), JSON.stringify({ activeProfile: 'p', profiles: { p: sandboxProfile(sandbox) } }), {
        mode: 0o600,
      });
      chmodSync(configDir, mode);
      const result = await cip(['auth', 'status'], { env: { XDG_CONFIG_HOME: join(home, '.config'), CIP_CONFIG_DIR: undefined } });
      expect(result.exitCode).toBe(0);
      expect(statSync(configDir).mode & 0o777).toBe(0o700);
      expect(result.stderr).toContain(`warning: ${configDir} was readable by others (mode ${mode.toString(8)}); cip made it private (700)`);
    });
  }

  it('a config file with mode 640 is made 600, and said so', async ({ cip, sandbox }) => {
    const configDir = configWith({ p: sandboxProfile(sandbox) }, 'p');
    const file = join(configDir, 'config.json');
    chmodSync(file, 0o640);
    const result = await cip(['auth', 'status'], { configDir });
    expect(result.exitCode).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(result.stderr).toContain(`warning: ${file} was readable by others (mode 640); cip made it private (600)`);
  });

  it('a folder named by CIP_CONFIG_DIR that its group can write to is refused for keys, and left as it is', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    chmodSync(configDir, 0o770);
    const result = await cip(loginArgs(sandbox, ['--no-verify']), { configDir });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(/^error: refusing to store keys in .*: others can write to it \(mode 770\)/);
    expect(statSync(configDir).mode & 0o777).toBe(0o770);
    expect(readConfig(configDir)).toBeUndefined();
  });
});

describe('auth logout', () => {
  it('of the active profile with several left activates none of them, and says how to choose', async ({ cip, sandbox }) => {
    const configDir = configWith({ a: sandboxProfile(sandbox), b: sandboxProfile(sandbox), c: sandboxProfile(sandbox) }, 'b');
    const result = await cip(['auth', 'logout'], { configDir });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe("Removed profile 'b'. No profile is active; choose one with 'cip auth use <name>'.\n");
    const config = readConfig(configDir) as { activeProfile?: string; profiles: Record<string, unknown> };
    expect(config.activeProfile).toBeUndefined();
    expect(Object.keys(config.profiles)).toEqual(['a', 'c']);
  });

  it('of the active profile with one left makes that one active', async ({ cip, sandbox }) => {
    const configDir = configWith({ a: sandboxProfile(sandbox), b: sandboxProfile(sandbox) }, 'a');
    const result = await cip(['auth', 'logout'], { configDir });
    expect(result.stderr).toBe("Removed profile 'a'. Active profile: 'b'.\n");
    expect(readConfig(configDir)).toMatchObject({ activeProfile: 'b' });
  });

  it('of another profile keeps the active one', async ({ cip, sandbox }) => {
    const configDir = configWith({ a: sandboxProfile(sandbox), b: sandboxProfile(sandbox), c: sandboxProfile(sandbox) }, 'a');
    const result = await cip(['auth', 'logout', '--profile', 'c'], { configDir });
    expect(result.stderr).toBe("Removed profile 'c'. Active profile: 'a'.\n");
    expect(readConfig(configDir)).toMatchObject({ activeProfile: 'a' });
  });
});

describe('auth status masks keys', () => {
  it.for<[string, string]>([
    ['abcdefghijklmnopqrst', '****qrst'],
    ['abcdefghijklmnop', '****mnop'],
    ['abcdefghijklmno', '****no'],
    ['abcdefgh', '****gh'],
    ['abcdefg', '****'],
  ])('%s (hand-written in the file) is shown as %s', async ([key, masked], { sandbox, cip }) => {
    const configDir = configWith({ p: { enterpriseId: sandbox.keys.enterpriseId, apiKey: key, subscriptionKey: key } }, 'p');
    const result = await cip(['auth', 'status', '--json'], { configDir });
    const [row] = JSON.parse(result.stdout) as { apiKey: string; subscriptionKey: string }[];
    expect(row).toMatchObject({ apiKey: masked, subscriptionKey: masked });
    expect(result.stdout).not.toContain(key.slice(0, -4));
  });
});

describe('--quiet', () => {
  it('silences the lines for people, and keeps data and warnings', async ({ sandbox, cip }) => {
    const env = sandboxEnv(sandbox);
    const created = await cip(['env', 'create', '-f', 'name=quiet', '--quiet'], { env });
    expect(created.exitCode).toBe(0);
    expect(created.stderr).toBe('');
    const { id } = JSON.parse(created.stdout) as { id: string };
    expect(await cip(['env', 'update', id, '-f', 'name=quieter', '-q'], { env })).toMatchObject({ exitCode: 0, stderr: '' });
    const deleted = await cip(['env', 'delete', id, '--yes', '-q'], { env });
    expect(deleted).toMatchObject({ exitCode: 0, stderr: '' });
    expect(JSON.parse(deleted.stdout)).toEqual([{ given: id, id, name: 'quieter', result: 'deleted', error: null }]);
    const configDir = configWith({ a: sandboxProfile(sandbox), b: sandboxProfile(sandbox) }, 'a');
    expect(await cip(['auth', 'switch', 'b', '--quiet'], { configDir })).toMatchObject({ exitCode: 0, stderr: '' });
    const warned = await cip(['env', 'list', '--quiet'], { configDir, env: { CIP_API_KEY: sandbox.keys.apiKey } });
    expect(warned.stderr).toBe("warning: CIP_API_KEY from the environment overrides profile 'b'\n");
  });

  it('without it, the same commands say what they did', async ({ cip, sandbox }) => {
    const configDir = configWith({ a: sandboxProfile(sandbox), b: sandboxProfile(sandbox) }, 'a');
    expect(await cip(['auth', 'switch', 'b'], { configDir })).toMatchObject({ exitCode: 0, stderr: "Profile 'b' is now active.\n" });
    const created = await cip(['env', 'create', '-f', 'name=loud'], { configDir });
    expect(created.stderr).toMatch(/^Created environment 'loud' \([0-9a-f-]{36}\)\n {2}in profile 'b', enterprise /);
  });
});

describe('the list envelope', () => {
  it.for(['value', 'Items', 'DATA', 'results'])('{"%s": [...]} is unwrapped', async (envelope, { sandbox, cip }) => {
    sandbox.inject({ fault: { kind: 'status', status: 200, body: JSON.stringify({ [envelope]: [{ id: 'x1', name: 'one' }] }) } });
    const result = await cip(['env', 'list', '--json'], { env: sandboxEnv(sandbox) });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([{ id: 'x1', name: 'one' }]);
  });

  it.for(['errors', 'warnings', 'environmentsList'])(
    'an object whose only array is "%s" is not a list: exit 7',
    async (field, { sandbox, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 200, body: JSON.stringify({ [field]: [{ id: 'x1' }] }) } });
      const result = await cip(['env', 'list', '--json'], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(7);
      expect(expectOneErrorLine(result.stderr)).toBe('error: cannot list environments: the API answered with something that is not a list');
      expect(result.stdout).toBe('');
    },
  );
});

describe('--verbose', () => {
  it('shows the reason phrase on one line, its control characters replaced', async ({ sandbox, cip }) => {
    sandbox.inject({
      fault: { kind: 'raw', response: 'HTTP/1.1 200 OK\u001b[2J\tNow\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]' },
    });
    const result = await cip(['env', 'list', '--verbose'], { env: sandboxEnv(sandbox) });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/^< 200 OK\?\[2J Now \(\d+ ms, 2 bytes\)$/m);
    expect(result.stderr).not.toContain('\u001b');
  });
});

describe('an empty value for an option that takes a number', () => {
  it.for<[string, string, string]>([
    ['sandbox', '--port', ''],
    ['sandbox', '--count', ' '],
    ['sandbox', '--seed', ' '],
    ['env list', '--timeout', ''],
  ])('cip %s %s %j is exit 2, nothing started or sent', async ([command, flag, value], { sandbox, cip }) => {
    const result = await cip([...command.split(' '), flag, value], { env: sandboxEnv(sandbox) });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(
      new RegExp(`^error: option '${flag} <[a-z]+>' argument '${value}' is invalid\\. an empty value is refused`),
    );
    expect(result.stdout).toBe('');
    expect(sandbox.requests).toHaveLength(0);
  });
});
