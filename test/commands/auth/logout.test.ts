// `cip auth logout` in-process against the sandbox: what a user sees (exit code, stdout, stderr) and what the server received.
import { readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { expectOneErrorLine, readConfig, tempDir } from '../../helpers/cli.js';
import { fakeKeychain, interruptAt } from '../../helpers/fake-keychain.js';
import { it, test } from '../../helpers/fixture.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { setup, projectTest } from '../../helpers/project-file.js';
import { configWith, sandboxProfile } from '../../helpers/stored-profiles.js';
import { service, writeConfig, keychainProfile, plainProfile, prodInKeychain } from '../../helpers/keychain-profiles.js';

describe('with the keychain and at the edges', () => {
  test.override({ sandboxOptions: { seed: 1 } });

  describe('auth logout', () => {
    it('removes a keychain profile’s entry from the keychain', async ({ cip, sandbox }) => {
      const { keychain, configDir } = prodInKeychain(sandbox, { dev: plainProfile() });
      const result = await cip(['auth', 'logout'], { keychain, configDir });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toBe("Removed profile 'prod'. Active profile: 'dev'.\n");
      expect(keychain.entries()).toEqual([]);
      expect(keychain.visits()).toEqual([`delete ${service(sandbox)} prod`]);
      expect(readConfig(configDir)).toEqual({ activeProfile: 'dev', profiles: { dev: plainProfile() } });
    });

    it('a keychain that will not remove the keys: the profile is gone all the same, exit 9, naming the entry left', async ({
      cip,
      sandbox,
    }) => {
      const { keychain, configDir } = prodInKeychain(sandbox);
      const result = await cip(['auth', 'logout', '--profile', 'prod'], { keychain, configDir, env: { FAKE_KC_FAIL: 'delete' } });
      expect(result.exitCode).toBe(9);
      expect(result.stderr).toBe(
        `error: removed profile 'prod', but not its keys from the keychain: delete refused (they are still there (service '${service(sandbox)}', account 'prod'); remove them with your keychain's own tool)\n`,
      );
      expect(readConfig(configDir)).toEqual({ profiles: {} });
    });

    it('interrupted while the keys are being removed: exit 130, the profile gone, no claim the keys are left', async ({ cip, sandbox }) => {
      const keychain = fakeKeychain();
      const configDir = tempDir();
      writeConfig(configDir, { activeProfile: 'prod', profiles: { prod: keychainProfile(sandbox) } });
      const result = await cip(['auth', 'logout'], { keychain, configDir, ...interruptAt('remove') });
      expect(result.exitCode).toBe(130);
      expect(result.stderr).not.toContain('still there');
      expect(readConfig(configDir)).toEqual({ profiles: {} });
    });

    it('a profile with its keys in the file: the keychain is not visited', async ({ cip }) => {
      const keychain = fakeKeychain();
      const configDir = tempDir();
      writeConfig(configDir, { activeProfile: 'dev', profiles: { dev: plainProfile() } });
      const result = await cip(['auth', 'logout'], { keychain, configDir });
      expect(result.exitCode).toBe(0);
      expect(keychain.visits()).toEqual([]);
    });

    const three = { a: plainProfile(), b: plainProfile(), c: plainProfile() };
    it.for<[string, { activeProfile?: string; profiles: Record<string, object> }, string, string | undefined]>([
      ['the active one, one left', { activeProfile: 'a', profiles: { a: plainProfile(), b: plainProfile() } }, 'a', 'b'],
      ['the active one, two left', { activeProfile: 'a', profiles: three }, 'a', undefined],
      ['another, the active one stays', { activeProfile: 'a', profiles: three }, 'c', 'a'],
      [
        'another, with the active one gone already and one left',
        { activeProfile: 'gone', profiles: { a: plainProfile(), b: plainProfile() } },
        'b',
        'a',
      ],
      ['another, with the active one gone already and two left', { activeProfile: 'gone', profiles: three }, 'b', undefined],
      ['another, with none active and one left', { profiles: { a: plainProfile(), b: plainProfile() } }, 'b', undefined],
    ])('logging out of %s', async ([_name, data, name, active], { cip }) => {
      const configDir = tempDir();
      writeConfig(configDir, data);
      const result = await cip(['auth', 'logout', '--profile', name], { configDir, keychain: fakeKeychain() });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toBe(
        `Removed profile '${name}'.${active ? ` Active profile: '${active}'.` : " No profile is active; choose one with 'cip auth use <name>'."}\n`,
      );
      const after = readConfig(configDir) as { activeProfile?: string; profiles: object };
      expect(after.activeProfile).toBe(active);
      expect('activeProfile' in after).toBe(active !== undefined);
      expect(Object.keys(after.profiles)).toEqual(Object.keys(data.profiles).filter((other) => other !== name));
    });
  });
});

describe('boundaries found by mutation testing', () => {
  test.override({ sandboxOptions: { seed: 1 } });

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
});

describe('the project file', () => {
  const test = projectTest();
  const it = test;

  describe('cip auth logout', () => {
    it('refuses to guess when the project file pins another profile than the active one: exit 2, both profiles kept', async ({
      dev,
      prod,
    }) => {
      const { cip, configDir } = setup({ dev, prod }, '{"profile": "prod"}');
      const before = readFileSync(join(configDir, 'config.json'), 'utf8');
      const result = await cip(['auth', 'logout']);
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe('');
      expect(expectOneErrorLine(result.stderr)).toMatch(/pins profile 'prod', but the active profile is 'dev': cip will not guess/);
      expect(result.stderr).toContain('cip auth logout --profile prod');
      expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(before);
    });

    it('removes the named profile, or the active one when the project file pins that same one', async ({ dev, prod }) => {
      const named = setup({ dev, prod }, '{"profile": "prod"}');
      expect((await named.cip(['auth', 'logout', '--profile', 'prod'])).exitCode).toBe(0);
      expect(Object.keys(JSON.parse(readFileSync(join(named.configDir, 'config.json'), 'utf8')).profiles)).toEqual(['dev']);
      const same = setup({ dev, prod }, '{"profile": "dev"}');
      const result = await same.cip(['auth', 'logout']);
      expect(result.exitCode).toBe(0);
      expect(Object.keys(JSON.parse(readFileSync(join(same.configDir, 'config.json'), 'utf8')).profiles)).toEqual(['prod']);
    });
  });
});

describe('small edges', () => {
  test.override({ sandboxOptions: { seed: [{ id: 'e1', name: 'alpha', type: 'Test' }] } });

  describe('auth logout', () => {
    const profile = (sandbox: Sandbox) => ({
      enterpriseId: sandbox.keys.enterpriseId,
      apiKey: sandbox.keys.apiKey,
      subscriptionKey: sandbox.keys.subscriptionKey,
    });
    const configWith = (data: object) => {
      const dir = tempDir();
      chmodSync(dir, 0o700);
      writeFileSync(join(dir, 'config.json'), JSON.stringify(data), { mode: 0o600 });
      return dir;
    };

    it('with no active profile and none named is exit 2, and changes nothing', async ({ cip, sandbox }) => {
      const configDir = configWith({ profiles: { a: profile(sandbox), b: profile(sandbox) } });
      const result = await cip(['auth', 'logout'], { configDir });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe('error: no active profile to log out of (name one with --profile)');
      expect(Object.keys((readConfig(configDir) as { profiles: object }).profiles)).toEqual(['a', 'b']);
    });

    it('of another profile, when the active one no longer exists, picks the one left', async ({ cip, sandbox }) => {
      const configDir = configWith({ activeProfile: 'vanished', profiles: { a: profile(sandbox), b: profile(sandbox) } });
      const result = await cip(['auth', 'logout', '--profile', 'a'], { configDir });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toBe("Removed profile 'a'. Active profile: 'b'.\n");
      expect(readConfig(configDir)).toEqual({ activeProfile: 'b', profiles: { b: profile(sandbox) } });
    });

    it('of the last profile leaves no activeProfile in the file', async ({ cip, sandbox }) => {
      const configDir = configWith({ activeProfile: 'a', profiles: { a: profile(sandbox) } });
      const result = await cip(['auth', 'logout'], { configDir });
      expect(result.stderr).toBe("Removed profile 'a'. No profile is active; choose one with 'cip auth use <name>'.\n");
      expect(readConfig(configDir)).toEqual({ profiles: {} });
    });
  });
});
