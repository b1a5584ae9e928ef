// auth login/status/switch/logout, profiles, and the config file, against the sandbox.
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { type Sandbox } from '../../src/sandbox/index.js';
import { expectOneErrorLine, readConfig, sandboxEnv, tempDir } from '../helpers/cli.js';
import { refusedUrl } from '../helpers/ports.js';
import { it, test, type Cip } from '../helpers/fixture.js';

test.override({ sandboxOptions: { seed: 2 } });

const OTHER_ENTERPRISE = '11111111-2222-4333-8444-555555555555';
/** A second sandbox, of another enterprise with keys of its own. */
const OTHER = {
  seed: 5,
  enterpriseId: OTHER_ENTERPRISE,
  apiKey: 'other-api-key-abcdefghijkl',
  subscriptionKey: 'other-sub-key-mnopqrstuvwx',
};

function keyFiles(target: Sandbox): { apiKeyFile: string; subscriptionKeyFile: string } {
  const dir = tempDir();
  const apiKeyFile = join(dir, 'api-key');
  const subscriptionKeyFile = join(dir, 'sub-key');
  writeFileSync(apiKeyFile, `${target.keys.apiKey}\n`);
  writeFileSync(subscriptionKeyFile, `${target.keys.subscriptionKey}\n`);
  return { apiKeyFile, subscriptionKeyFile };
}

async function login(cip: Cip, configDir: string, target: Sandbox, extra: string[] = []) {
  const files = keyFiles(target);
  return cip(
    [
      'auth',
      'login',
      '--base-url',
      target.url,
      '--enterprise-id',
      target.keys.enterpriseId,
      '--api-key-file',
      files.apiKeyFile,
      '--subscription-key-file',
      files.subscriptionKeyFile,
      ...extra,
    ],
    { configDir },
  );
}

describe('cip auth login', () => {
  it('verifies the keys, stores the first profile as active, in a private file', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    const result = await login(cip, configDir, sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/profile 'default'.*active/);
    expect(sandbox.requests.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /ms/Environments']);
    expect(readConfig(configDir)).toEqual({
      activeProfile: 'default',
      profiles: {
        default: {
          baseUrl: sandbox.url,
          enterpriseId: sandbox.keys.enterpriseId,
          keys: 'file',
          apiKey: sandbox.keys.apiKey,
          subscriptionKey: sandbox.keys.subscriptionKey,
        },
      },
    });
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);

    const list = await cip(['env', 'list'], { configDir });
    expect(list.exitCode).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveLength(2);
  });

  it('takes keys from the environment and from stdin', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    const result = await cip(
      ['auth', 'login', '--base-url', sandbox.url, '--enterprise-id', sandbox.keys.enterpriseId, '--api-key-file', '-'],
      {
        configDir,
        input: `${sandbox.keys.apiKey}\n`,
        env: { CIP_SUBSCRIPTION_KEY: sandbox.keys.subscriptionKey },
      },
    );
    expect(result.exitCode).toBe(0);
    expect(readConfig(configDir)).toMatchObject({
      profiles: { default: { apiKey: sandbox.keys.apiKey, subscriptionKey: sandbox.keys.subscriptionKey } },
    });
  });

  it('without a terminal, a missing value is exit 2 naming it, and nothing is saved', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    const result = await cip(['auth', 'login', '--base-url', sandbox.url, '--enterprise-id', sandbox.keys.enterpriseId], {
      configDir,
      env: { CIP_API_KEY: 'x'.repeat(20) },
    });
    expect(result.exitCode).toBe(2);
    const line = expectOneErrorLine(result.stderr);
    expect(line).toMatch(/missing subscription key/);
    expect(line).not.toMatch(/missing API key/);
    expect(line).toContain('https://app.copyl.com/en/itops/secrets');
    expect(readConfig(configDir)).toBeUndefined();
    expect(sandbox.requests).toHaveLength(0);
  });

  it('refuses an enterprise id that is not a GUID (exit 2)', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    const files = keyFiles(sandbox);
    const result = await cip(
      [
        'auth',
        'login',
        '--enterprise-id',
        'not-a-guid',
        '--api-key-file',
        files.apiKeyFile,
        '--subscription-key-file',
        files.subscriptionKeyFile,
      ],
      { configDir },
    );
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(/--enterprise-id must be a GUID/);
    expect(readConfig(configDir)).toBeUndefined();
  });

  it('a 401 from the API is exit 3 and nothing is saved', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    const files = keyFiles(sandbox);
    writeFileSync(files.apiKeyFile, 'wrong-api-key-000000000000');
    const result = await cip(
      [
        'auth',
        'login',
        '--base-url',
        sandbox.url,
        '--enterprise-id',
        sandbox.keys.enterpriseId,
        '--api-key-file',
        files.apiKeyFile,
        '--subscription-key-file',
        files.subscriptionKeyFile,
      ],
      { configDir },
    );
    expect(result.exitCode).toBe(3);
    const line = expectOneErrorLine(result.stderr);
    expect(line).toMatch(/HTTP 401.*nothing was saved/);
    expect(line).not.toContain('wrong-api-key');
    expect(readConfig(configDir)).toBeUndefined();
  });

  it('a network failure is exit 8 and nothing is saved', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    const url = await refusedUrl('/ms');
    const files = keyFiles(sandbox);
    const result = await cip(
      [
        'auth',
        'login',
        '--base-url',
        url,
        '--enterprise-id',
        sandbox.keys.enterpriseId,
        '--api-key-file',
        files.apiKeyFile,
        '--subscription-key-file',
        files.subscriptionKeyFile,
      ],
      { configDir },
    );
    expect(result.exitCode).toBe(8);
    expect(expectOneErrorLine(result.stderr)).toMatch(/connection refused.*nothing was saved/);
    expect(readConfig(configDir)).toBeUndefined();
  });

  it('--no-verify saves without calling the API', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    const result = await login(cip, configDir, sandbox, ['--no-verify']);
    expect(result.exitCode).toBe(0);
    expect(sandbox.requests).toHaveLength(0);
    expect(readConfig(configDir)).toMatchObject({ activeProfile: 'default' });
  });

  it('never accepts a key as an option value', async ({ cip }) => {
    const result = await cip(['auth', 'login', '--api-key', 'secret-value'], {});
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(/unknown option '--api-key'/);
  });
});

describe('profiles', () => {
  it('status shows every profile with masked keys; switch and --profile choose the enterprise sent', async ({
    sandbox,
    cip,
    startSandbox,
  }) => {
    const other = await startSandbox(OTHER);
    const configDir = tempDir();
    expect((await login(cip, configDir, sandbox)).exitCode).toBe(0);
    expect((await login(cip, configDir, other, ['--profile', 'prod'])).exitCode).toBe(0);
    expect(readConfig(configDir)).toMatchObject({ activeProfile: 'default' });

    const status = await cip(['auth', 'status', '--json'], { configDir });
    expect(status.exitCode).toBe(0);
    expect(JSON.parse(status.stdout)).toEqual([
      {
        name: 'default',
        active: true,
        inUse: true,
        protected: false,
        keys: 'file',
        baseUrl: sandbox.url,
        enterpriseId: sandbox.keys.enterpriseId,
        apiKey: '****6789',
        subscriptionKey: '****6789',
        overriddenBy: [],
      },
      {
        name: 'prod',
        active: false,
        inUse: false,
        protected: false,
        keys: 'file',
        baseUrl: other.url,
        enterpriseId: OTHER_ENTERPRISE,
        apiKey: '****ijkl',
        subscriptionKey: '****uvwx',
        overriddenBy: [],
      },
    ]);
    const table = await cip(['auth', 'status', '-o', 'table'], { configDir });
    expect(table.stdout).toMatch(/^NAME\s+ACTIVE\s+IN USE\s+KEYS\s+BASE URL\s+ENTERPRISE ID\s+API KEY\s+SUBSCRIPTION KEY$/m);
    // One warning for both; the harness keeps keys in the file (CIP_CREDENTIAL_STORE=file), so no --migrate.
    expect(table.stderr).toContain(
      `warning: profiles 'default', 'prod' keep their keys in plain text in ${join(configDir, 'config.json')}, readable only by you (mode 0600), as CIP_CREDENTIAL_STORE=file asks\n`,
    );
    expect(table.stdout).toMatch(/^prod\s+false\s+false\s+/m);
    for (const secret of [sandbox.keys.apiKey, sandbox.keys.subscriptionKey, 'other-api-key-abcdefghijkl']) {
      expect(status.stdout + status.stderr + table.stdout + table.stderr).not.toContain(secret);
    }

    const viaFlag = await cip(['env', 'list', '--profile', 'prod'], { configDir });
    expect(JSON.parse(viaFlag.stdout)).toHaveLength(5);
    expect(other.requests.at(-1)!.headers.enterpriseid).toBe(OTHER_ENTERPRISE);
    const viaEnv = await cip(['env', 'list'], { configDir, env: { CIP_PROFILE: 'prod' } });
    expect(JSON.parse(viaEnv.stdout)).toHaveLength(5);

    const switched = await cip(['auth', 'switch', 'prod'], { configDir });
    expect(switched.exitCode).toBe(0);
    expect(readConfig(configDir)).toMatchObject({ activeProfile: 'prod' });
    const afterSwitch = await cip(['env', 'list'], { configDir });
    expect(JSON.parse(afterSwitch.stdout)).toHaveLength(5);
  });

  it('switch to an unknown profile is exit 2 and lists the known ones', async ({ sandbox, cip, startSandbox }) => {
    const other = await startSandbox(OTHER);
    const configDir = tempDir();
    await login(cip, configDir, sandbox, ['--no-verify']);
    await login(cip, configDir, other, ['--no-verify', '--profile', 'prod']);
    const result = await cip(['auth', 'switch', 'nope'], { configDir });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe("error: unknown profile 'nope' (known profiles: default, prod)");
    expect(readConfig(configDir)).toMatchObject({ activeProfile: 'default' });
  });

  it('an unknown --profile on env commands is exit 2 and sends nothing', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    await login(cip, configDir, sandbox, ['--no-verify']);
    const result = await cip(['env', 'list', '-p', 'ghost'], { configDir });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(/unknown profile 'ghost'/);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('environment variables override the profile, value by value, and status says so', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    await login(cip, configDir, sandbox, ['--no-verify']);
    const result = await cip(['env', 'list'], { configDir, env: { CIP_API_KEY: sandbox.keys.readOnlyApiKey } });
    expect(result.exitCode).toBe(0);
    expect(sandbox.requests.at(-1)!.headers.authorization).toBe(`ApiKey ${sandbox.keys.readOnlyApiKey}`);
    expect(sandbox.requests.at(-1)!.headers['ocp-apim-subscription-key']).toBe(sandbox.keys.subscriptionKey);
    const status = await cip(['auth', 'status', '--json'], { configDir, env: { CIP_API_KEY: 'x'.repeat(20) } });
    expect(JSON.parse(status.stdout)[0].overriddenBy).toEqual(['CIP_API_KEY']);
    expect(status.stderr).toContain("warning: CIP_API_KEY from the environment overrides profile 'default'\n");
    expect(status.stderr).toMatch(/^ {2}API key +\*\*\*\*xxxx {2}\(from CIP_API_KEY\)$/m);
    // A flag beats the environment.
    const flagged = await cip(['env', 'list', '--enterprise-id', OTHER_ENTERPRISE], {
      configDir,
      env: { CIP_ENTERPRISE_ID: sandbox.keys.enterpriseId },
    });
    expect(flagged.exitCode).toBe(4);
    expect(sandbox.requests.at(-1)!.headers.enterpriseid).toBe(OTHER_ENTERPRISE);
  });

  it('logout removes the active profile, or the one named', async ({ sandbox, cip, startSandbox }) => {
    const other = await startSandbox(OTHER);
    const configDir = tempDir();
    await login(cip, configDir, sandbox, ['--no-verify']);
    await login(cip, configDir, other, ['--no-verify', '--profile', 'prod']);
    await login(cip, configDir, other, ['--no-verify', '--profile', 'qa']);
    const named = await cip(['auth', 'logout', '--profile', 'qa'], { configDir });
    expect(named.exitCode).toBe(0);
    expect(Object.keys((readConfig(configDir) as { profiles: object }).profiles)).toEqual(['default', 'prod']);
    const active = await cip(['auth', 'logout'], { configDir });
    expect(active.exitCode).toBe(0);
    expect(active.stderr).toMatch(/Removed profile 'default'/);
    expect(readConfig(configDir)).toEqual({ activeProfile: 'prod', profiles: { prod: expect.any(Object) } });
  });

  it('with no profile and no credentials, commands are exit 3 with a hint to log in', async ({ cip }) => {
    const configDir = tempDir();
    for (const args of [
      ['env', 'list'],
      ['auth', 'status'],
    ]) {
      const result = await cip(args, { configDir });
      expect(result.exitCode).toBe(3);
      expect(expectOneErrorLine(result.stderr)).toMatch(/not logged in.*cip auth login/);
    }
  });
});

describe('the config file', () => {
  it('a corrupted file is never overwritten: every command stops with an error naming it', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    const path = join(configDir, 'config.json');
    const broken = '{"activeProfile": "default", "profiles": {';
    writeFileSync(path, broken, { mode: 0o600 });
    for (const args of [
      ['env', 'list'],
      ['auth', 'status'],
      ['auth', 'switch', 'x'],
      ['auth', 'logout'],
    ]) {
      const result = await cip(args, { configDir });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toContain(path);
    }
    const files = keyFiles(sandbox);
    const relogin = await cip(
      [
        'auth',
        'login',
        '--no-verify',
        '--enterprise-id',
        sandbox.keys.enterpriseId,
        '--api-key-file',
        files.apiKeyFile,
        '--subscription-key-file',
        files.subscriptionKeyFile,
      ],
      { configDir },
    );
    expect(relogin.exitCode).toBe(2);
    expect(readFileSync(path, 'utf8')).toBe(broken);
  });

  it('a hand-broken shape is reported, not reset', async ({ cip }) => {
    const configDir = tempDir();
    const path = join(configDir, 'config.json');
    writeFileSync(path, '{"profiles": {"default": {"apiKey": 1}}}');
    const result = await cip(['auth', 'status'], { configDir });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(/profile 'default' has no enterpriseId/);
    expect(readFileSync(path, 'utf8')).toBe('{"profiles": {"default": {"apiKey": 1}}}');
  });

  it('the CI path needs no config at all, even an unreadable one', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    writeFileSync(join(configDir, 'config.json'), 'garbage');
    chmodSync(join(configDir, 'config.json'), 0o000);
    const result = await cip(['env', 'list'], { configDir, env: sandboxEnv(sandbox) });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(2);
  });
});
