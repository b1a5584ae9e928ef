// `cip auth use` in-process against the sandbox: what a user sees (exit code, stdout, stderr) and what the server received.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { expectOneErrorLine, readConfig, tempDir } from '../../helpers/cli.js';
import { it, test } from '../../helpers/fixture.js';
import { setup, sent, projectTest } from '../../helpers/project-file.js';
import { OTHER_ENTERPRISE, OTHER, login } from '../../helpers/profiles.js';

describe('profiles and the config file', () => {
  test.override({ sandboxOptions: { seed: 2 } });

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
});

describe('the project file', () => {
  const test = projectTest();
  const it = test;

  describe('cip auth use', () => {
    it('--here writes .cip.json in the working folder pinning the profile, and leaves the active profile', async ({ dev, prod }) => {
      const { cip, cwd, configDir } = setup({ dev, prod });
      const result = await cip(['auth', 'use', 'prod', '--here']);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe('');
      const path = join(cwd, '.cip.json');
      expect(result.stderr).toBe(`Wrote ${path}: commands run in this folder and below use profile 'prod'.\n`);
      expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ profile: 'prod' });
      expect(JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'))).toMatchObject({ activeProfile: 'dev' });
      expect((await cip(['env', 'list'])).exitCode).toBe(0);
      expect(sent({ dev, prod })).toEqual(['prod']);
    });

    it('--here replaces a project file, saying what it pinned', async ({ dev, prod }) => {
      const { cip, cwd } = setup({ dev, prod });
      writeFileSync(join(cwd, '.cip.json'), '{"profile": "prod"}');
      const result = await cip(['auth', 'use', 'dev', '--here']);
      expect(result.stderr).toBe(
        `Wrote ${join(cwd, '.cip.json')} (it pinned profile 'prod'): commands run in this folder and below use profile 'dev'.\n`,
      );
    });

    it('--here refuses a profile that does not exist, and writes nothing', async ({ dev, prod }) => {
      const { cip, cwd } = setup({ dev, prod });
      const result = await cip(['auth', 'use', 'staging', '--here']);
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe("error: unknown profile 'staging' (known profiles: dev, prod)");
      expect(existsSync(join(cwd, '.cip.json'))).toBe(false);
    });

    it('--here never overwrites a .cip.json that another tool wrote', async ({ dev, prod }) => {
      const { cip, cwd } = setup({ dev, prod });
      writeFileSync(join(cwd, '.cip.json'), '{"cip": "a different program"}');
      const result = await cip(['auth', 'use', 'prod', '--here']);
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe(
        `error: the project file ${join(cwd, '.cip.json')} has an unknown field 'cip': cip will not replace it (fix or remove it by hand)`,
      );
      expect(readFileSync(join(cwd, '.cip.json'), 'utf8')).toBe('{"cip": "a different program"}');
    });

    it('without --here makes the profile active, and warns when the project file here pins another', async ({ dev, prod }) => {
      const { cip, path, configDir } = setup({ dev, prod }, '{"profile": "prod"}');
      const result = await cip(['auth', 'use', 'dev']);
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toBe(
        `Profile 'dev' is now active.\nwarning: here, the project file ${path} pins profile 'prod': commands run under it use that one\n`,
      );
      expect(JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'))).toMatchObject({ activeProfile: 'dev' });
    });

    it('is still reached by its old name, switch', async ({ dev, prod }) => {
      const { cip, configDir } = setup({ dev, prod });
      expect(await cip(['auth', 'switch', 'prod'])).toMatchObject({ exitCode: 0, stderr: "Profile 'prod' is now active.\n" });
      expect(JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'))).toMatchObject({ activeProfile: 'prod' });
    });
  });
});
