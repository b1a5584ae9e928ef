// Keys in the operating system's keychain, end to end: the built binary against a real Secret Service
// (gnome-keyring on a private D-Bus session bus, test/helpers/keychain.ts), a machine with no keychain at all,
// and a keychain that never answers.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cip, expectOneErrorLine, loginArgs, readConfig, spawnCip, tempDir } from '../helpers/cli.js';
import { epochSeconds, makeJwt } from '../helpers/jwt.js';
import { describeWithKeychain, keychainMissing, silentBus } from '../helpers/keychain.js';
import { it, test } from '../helpers/fixture.js';
import { keychainProfile, writeConfig } from '../helpers/keychain-profiles.js';

// Each test gets a sandbox of its own (test/helpers/fixture.ts), started this way.
test.override({ sandboxOptions: { seed: 2 } });

const service = (sandbox: Sandbox) => `cip:${new URL(sandbox.url).origin}`;
/** The keychain is the default: the harness's CIP_CREDENTIAL_STORE=file is taken away. */
const KEYCHAIN_DEFAULT = { CIP_CREDENTIAL_STORE: undefined };

function expectNoKeys(sandbox: Sandbox, text: string): void {
  expect(text).not.toContain(sandbox.keys.apiKey);
  expect(text).not.toContain(sandbox.keys.subscriptionKey);
}

function configText(configDir: string): string {
  return readFileSync(join(configDir, 'config.json'), 'utf8');
}

describeWithKeychain('a real keychain (Secret Service: gnome-keyring on a private bus)', (keychain) => {
  const env = (extra: Record<string, string | undefined> = {}) => ({ ...keychain().env, ...KEYCHAIN_DEFAULT, ...extra });

  it('login keeps the keys in the keychain and none in the file; list uses them; logout removes them', async ({ sandbox }) => {
    const configDir = tempDir();
    const login = await cip(loginArgs(sandbox, ['--profile', 'kc']), { configDir, env: env() });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(login.stderr).toBe(`Logged in: profile 'kc' (enterprise ${sandbox.keys.enterpriseId}, ${sandbox.url}) is active.\n`);
    expect(readConfig(configDir)).toEqual({
      activeProfile: 'kc',
      profiles: { kc: { baseUrl: sandbox.url, enterpriseId: sandbox.keys.enterpriseId, keys: 'keychain' } },
    });
    expectNoKeys(sandbox, configText(configDir));
    expect(JSON.parse(keychain().lookup(service(sandbox), 'kc')!)).toEqual({
      apiKey: sandbox.keys.apiKey,
      subscriptionKey: sandbox.keys.subscriptionKey,
    });

    sandbox.requests.length = 0;
    const list = await cip(['env', 'list'], { configDir, env: env() });
    expect(list.exitCode, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveLength(2);
    expect(sandbox.requests.at(-1)!.headers['ocp-apim-subscription-key']).toBe(sandbox.keys.subscriptionKey);

    const status = await cip(['auth', 'status', '--json'], { configDir, env: env() });
    expect(status.exitCode).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject([{ name: 'kc', keys: 'keychain', apiKey: '****6789', subscriptionKey: '****6789' }]);
    expect(status.stderr).not.toContain('warning:');
    expectNoKeys(sandbox, list.stderr + status.stdout + status.stderr);

    const logout = await cip(['auth', 'logout'], { configDir, env: env() });
    expect(logout.exitCode, logout.stderr).toBe(0);
    expect(keychain().lookup(service(sandbox), 'kc')).toBeUndefined();
    expect(readConfig(configDir)).toEqual({ profiles: {} });
  });

  it('login --token-file keeps the token and the subscription key in one entry; a command sends it as Bearer', async ({ sandbox }) => {
    const configDir = tempDir();
    const token = makeJwt({ sub: 'ci-bot', exp: epochSeconds(3600) });
    const subFile = join(configDir, 'sub.txt');
    writeFileSync(subFile, sandbox.keys.subscriptionKey);
    const login = await cip(
      [
        'auth',
        'login',
        '--profile',
        'tk',
        '--base-url',
        sandbox.url,
        '--token-file',
        '-',
        '--subscription-key-file',
        subFile,
        '--no-verify',
      ],
      { configDir, env: env(), input: token },
    );
    expect(login.exitCode, login.stderr).toBe(0);
    expect(readConfig(configDir)).toEqual({
      activeProfile: 'tk',
      profiles: { tk: { kind: 'token', baseUrl: sandbox.url, keys: 'keychain' } },
    });
    expect(configText(configDir)).not.toContain(token);
    expect(JSON.parse(keychain().lookup(service(sandbox), 'tk')!)).toEqual({ token, subscriptionKey: sandbox.keys.subscriptionKey });

    const status = await cip(['auth', 'status', '--json'], { configDir, env: env() });
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject([{ name: 'tk', kind: 'token', keys: 'keychain', token: `****${token.slice(-4)}` }]);
    sandbox.requests.length = 0;
    // Whatever the sandbox makes of the token, what it received is the token from the keychain.
    const list = await cip(['env', 'list'], { configDir, env: env() });
    expect(sandbox.requests.at(-1)!.headers.authorization).toBe(`Bearer ${token}`);
    expect(sandbox.requests.at(-1)!.headers).not.toHaveProperty('enterpriseid');
    for (const text of [login.stderr, status.stdout, status.stderr, list.stdout, list.stderr]) expect(text).not.toContain(token);
  });

  it('--migrate moves keys from the file into the keychain and leaves no copy in the file', async ({ sandbox }) => {
    const configDir = tempDir();
    const plain = await cip(loginArgs(sandbox, ['--profile', 'old', '--insecure-storage']), { configDir, env: env() });
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(configText(configDir)).toContain(sandbox.keys.apiKey);
    const before = await cip(['auth', 'status', '-o', 'table'], { configDir, env: env() });
    expect(before.stdout).toMatch(/^old\s+true\s+true\s+file\s/m);
    expect(before.stderr).toContain(`warning: profile 'old' keeps its keys in plain text`);

    const moved = await cip(['auth', 'login', '--profile', 'old', '--migrate'], { configDir, env: env() });
    expect(moved.exitCode, moved.stderr).toBe(0);
    expect(moved.stderr).toBe(
      `Moved the keys of profile 'old' into the keychain (service '${service(sandbox)}', account 'old'); ${join(configDir, 'config.json')} holds them no more.\n`,
    );
    expectNoKeys(sandbox, configText(configDir));
    expect(readConfig(configDir)).toMatchObject({ profiles: { old: { keys: 'keychain', enterpriseId: sandbox.keys.enterpriseId } } });
    expect(JSON.parse(keychain().lookup(service(sandbox), 'old')!)).toMatchObject({ apiKey: sandbox.keys.apiKey });
    // No leftover: the folder holds the config file and nothing with the keys (no temporary copy).
    for (const name of readdirSync(configDir)) expectNoKeys(sandbox, readFileSync(join(configDir, name), 'utf8'));

    const list = await cip(['env', 'list', '--profile', 'old'], { configDir, env: env() });
    expect(list.exitCode, list.stderr).toBe(0);
    const after = await cip(['auth', 'status', '-o', 'table'], { configDir, env: env() });
    expect(after.stdout).toMatch(/^old\s+true\s+true\s+keychain\s/m);
    expect(after.stderr).not.toContain('warning:');
    const again = await cip(['auth', 'login', '--profile', 'old', '--migrate'], { configDir, env: env() });
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toBe("The keys of profile 'old' are already in the keychain.\n");
    await cip(['auth', 'logout', '--profile', 'old'], { configDir, env: env() });
  });

  it('a profile whose keychain entry is gone is exit 3, naming the entry and how to log in again', async ({ sandbox }) => {
    const configDir = tempDir();
    expect((await cip(loginArgs(sandbox, ['--profile', 'gone', '--no-verify']), { configDir, env: env() })).exitCode).toBe(0);
    keychain().clear(service(sandbox), 'gone');
    sandbox.requests.length = 0;
    const list = await cip(['env', 'list'], { configDir, env: env() });
    expect(list.exitCode).toBe(3);
    expect(expectOneErrorLine(list.stderr)).toBe(
      `error: the keys of profile 'gone' are gone from the keychain (service '${service(sandbox)}', account 'gone') (log in again: cip auth login --profile gone)`,
    );
    expect(sandbox.requests).toHaveLength(0);
    const status = await cip(['auth', 'status'], { configDir, env: env() });
    expect(status.exitCode).toBe(3);
    expect(status.stderr).toContain("warning: the keys of profile 'gone' are gone from the keychain");
    // Logging in again mends it; logout of a profile whose entry is gone removes the profile, exit 0.
    const relogin = await cip(loginArgs(sandbox, ['--profile', 'gone']), { configDir, env: env() });
    expect(relogin.exitCode, relogin.stderr).toBe(0);
    expect((await cip(['env', 'list'], { configDir, env: env() })).exitCode).toBe(0);
    keychain().clear(service(sandbox), 'gone');
    expect((await cip(['auth', 'logout'], { configDir, env: env() })).exitCode).toBe(0);
  });

  it('logging in again with a new token from stdin, in a pipe: the subscription key is read from the keychain and kept there', async ({
    sandbox,
  }) => {
    const configDir = tempDir();
    const first = makeJwt({ sub: 'ci-bot', exp: epochSeconds(3600) });
    const subFile = join(configDir, 'sub.txt');
    writeFileSync(subFile, sandbox.keys.subscriptionKey);
    const base = ['auth', 'login', '--profile', 'again', '--base-url', sandbox.url, '--no-verify'];
    expect(
      (await cip([...base, '--token-file', '-', '--subscription-key-file', subFile], { configDir, env: env(), input: first })).exitCode,
    ).toBe(0);

    const second = makeJwt({ sub: 'ci-bot', exp: epochSeconds(7200) });
    const again = await cip(['auth', 'login', '--profile', 'again', '--token-file', '-', '--no-verify'], {
      configDir,
      env: env(),
      input: second,
    });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain("Profile 'again': kept its subscription key.");
    expect(again.stderr).not.toContain('warning:');
    expect(readConfig(configDir)).toEqual({
      activeProfile: 'again',
      profiles: { again: { kind: 'token', baseUrl: sandbox.url, keys: 'keychain' } },
    });
    expect(JSON.parse(keychain().lookup(service(sandbox), 'again')!)).toEqual({
      token: second,
      subscriptionKey: sandbox.keys.subscriptionKey,
    });
  });

  it('logging in again with --insecure-storage moves the keys to the file and out of the keychain', async ({ sandbox }) => {
    const configDir = tempDir();
    expect((await cip(loginArgs(sandbox, ['--profile', 'back', '--no-verify']), { configDir, env: env() })).exitCode).toBe(0);
    expect(keychain().lookup(service(sandbox), 'back')).toBeDefined();
    const plain = await cip(loginArgs(sandbox, ['--profile', 'back', '--no-verify', '--insecure-storage']), { configDir, env: env() });
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(keychain().lookup(service(sandbox), 'back')).toBeUndefined();
    expect(readConfig(configDir)).toMatchObject({ profiles: { back: { keys: 'file', apiKey: sandbox.keys.apiKey } } });
  });
});

describe.skipIf(process.platform !== 'linux')('no keychain (Linux, where it is a session bus away)', () => {
  it('a headless machine (no session bus) refuses to log in with exit 2 and saves nothing', async ({ sandbox }) => {
    const configDir = tempDir();
    const result = await cip(loginArgs(sandbox), { configDir, env: KEYCHAIN_DEFAULT });
    expect(result.exitCode).toBe(2);
    const line = expectOneErrorLine(result.stderr);
    // What happened and the fix first; the D-Bus text last.
    expect(line).toBe(
      'error: no usable keychain here: nothing was saved; use --insecure-storage or CIP_CREDENTIAL_STORE=file to keep the keys ' +
        `in plain text in ${join(configDir, 'config.json')}, or in CI set CIP_API_KEY, CIP_SUBSCRIPTION_KEY and CIP_ENTERPRISE_ID ` +
        `instead of logging in (cause: ${/ \(cause: (.+)\)$/.exec(line)?.[1] ?? 'missing'})`,
    );
    expect(readConfig(configDir)).toBeUndefined();
    // Refused before the keys were checked against the API.
    sandbox.requests.length = 0;
    await cip(loginArgs(sandbox), { configDir, env: KEYCHAIN_DEFAULT });
    expect(sandbox.requests).toHaveLength(0);
    expectNoKeys(sandbox, result.stderr);
  });

  it.for<[string, string[], Record<string, string>]>([
    ['--insecure-storage', ['--insecure-storage'], {}],
    ['CIP_CREDENTIAL_STORE=file', [], { CIP_CREDENTIAL_STORE: 'file' }],
  ])('with %s, the keys go to the 0600 file in plain text, with a warning', async ([because, extra, variables], { sandbox }) => {
    const configDir = tempDir();
    const result = await cip(loginArgs(sandbox, extra), { configDir, env: { ...KEYCHAIN_DEFAULT, ...variables } });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `warning: the keys of profile 'default' are stored in plain text in ${join(configDir, 'config.json')} (${because})\n`,
    );
    expect(readConfig(configDir)).toMatchObject({ profiles: { default: { keys: 'file', apiKey: sandbox.keys.apiKey } } });
  });

  it('--migrate without a keychain is exit 2 and leaves the file as it was, byte for byte', async ({ sandbox }) => {
    const configDir = tempDir();
    expect((await cip(loginArgs(sandbox, ['--insecure-storage', '--no-verify']), { configDir, env: KEYCHAIN_DEFAULT })).exitCode).toBe(0);
    const before = configText(configDir);
    const result = await cip(['auth', 'login', '--migrate'], { configDir, env: KEYCHAIN_DEFAULT });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(
      /^error: cannot move the keys of profile 'default' into the keychain: nothing changed; they are still in \S+ \(cause: .+\)$/,
    );
    expect(configText(configDir)).toBe(before);
  });

  it('logout of a keychain profile without the keychain removes the profile and is exit 9, naming the entry left', async ({ sandbox }) => {
    const configDir = tempDir();
    writeConfig(configDir, { activeProfile: 'kc', profiles: { kc: keychainProfile(sandbox) } });
    const result = await cip(['auth', 'logout'], { configDir, env: KEYCHAIN_DEFAULT });
    expect(result.exitCode).toBe(9);
    const line = expectOneErrorLine(result.stderr);
    expect(line).toMatch(/^error: removed profile 'kc', but not its keys from the keychain: /);
    expect(line).toContain(
      `(they are still there (service '${service(sandbox)}', account 'kc'); remove them with your keychain's own tool)`,
    );
    expect(readConfig(configDir)).toEqual({ profiles: {} });
  });

  it('a bad CIP_CREDENTIAL_STORE is exit 2', async ({ sandbox }) => {
    const result = await cip(loginArgs(sandbox), { env: { CIP_CREDENTIAL_STORE: 'vault' } });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe("error: CIP_CREDENTIAL_STORE is 'vault' (use 'keychain' (the default) or 'file')");
  });
});

describe.skipIf(process.platform !== 'linux' || keychainMissing?.startsWith('@napi-rs') === true)('a keychain that never answers', () => {
  it('is cut off after 3 s: login exit 2, a keychain profile exit 3, no key in any process argv meanwhile', async ({ sandbox }) => {
    const bus = await silentBus();
    try {
      const configDir = tempDir();
      const env = { ...KEYCHAIN_DEFAULT, DBUS_SESSION_BUS_ADDRESS: bus.address };
      const started = Date.now();
      const login = spawnCip(loginArgs(sandbox), { configDir, env });
      let ended = false;
      void login.finally(() => (ended = true));
      const commandLines = () =>
        readdirSync('/proc')
          .filter((name) => /^\d+$/.test(name))
          .map((pid) => {
            try {
              return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
            } catch {
              return '';
            }
          });
      // While the helper waits on the bus (from when it shows up until cip cuts it off), no process on the
      // machine has a key in its command line.
      let seen = commandLines();
      while (!ended && !seen.some((line) => line.includes('keychain-helper.cjs'))) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        seen = commandLines();
      }
      expect(seen.some((line) => line.includes('keychain-helper.cjs'))).toBe(true);
      for (const line of seen) expectNoKeys(sandbox, line);
      const result = await login;
      const seconds = (Date.now() - started) / 1000;
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toMatch(
        /^error: no usable keychain here: nothing was saved; .+ \(cause: it did not answer within 3 s /,
      );
      expect(seconds).toBeGreaterThanOrEqual(2.9);
      // Cut off, not left to hang: the bound is for a hang, not for the speed of a busy machine.
      expect(seconds).toBeLessThan(60);
      expect(readConfig(configDir)).toBeUndefined();

      writeConfig(configDir, { activeProfile: 'kc', profiles: { kc: keychainProfile(sandbox) } });
      const list = await cip(['env', 'list'], { configDir, env });
      expect(list.exitCode).toBe(3);
      expect(expectOneErrorLine(list.stderr)).toMatch(
        /^error: cannot read the keys of profile 'kc' from the keychain: unlock it and try again; .+ \(cause: it did not answer within 3 s /,
      );
      // status reads the keychain for the table and for the profile in use: it waits once, not twice.
      // With a longer limit, so that one wait and two are far apart whatever the machine's load.
      const statusStarted = Date.now();
      const status = await cip(['auth', 'status'], { configDir, env: { ...env, CIP_KEYCHAIN_TIMEOUT: '8' } });
      expect(status.exitCode).toBe(3);
      expect(status.stderr).toContain("warning: cannot read the keys of 'kc' from the keychain: it did not answer within 8 s");
      expect((Date.now() - statusStarted) / 1000).toBeLessThan(16);
    } finally {
      await bus.close();
    }
  });
});
