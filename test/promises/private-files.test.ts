// The promise "private-files", across the commands that keep it: in-process against the sandbox.
import { chmodSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { expectOneErrorLine, readConfig, sandboxEnv, tempDir, loginArgs, noVerifyLoginArgs } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';
import { configWith, sandboxProfile } from '../helpers/stored-profiles.js';
import { keyFiles } from '../helpers/profiles.js';

describe('profiles and the config file', () => {
  test.override({ sandboxOptions: { seed: 2 } });

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
      const relogin = await cip(noVerifyLoginArgs(sandbox.keys.enterpriseId, files.apiKeyFile, files.subscriptionKeyFile), { configDir });
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
});

describe('boundaries found by mutation testing', () => {
  test.override({ sandboxOptions: { seed: 1 } });

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
        expect(result.stderr).toContain(
          `warning: ${configDir} was readable by others (mode ${mode.toString(8)}); cip made it private (700)`,
        );
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
});
