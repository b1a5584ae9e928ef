// auth login at a terminal (questions answered as they appear) and the edges of its inputs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { expectOneErrorLine, loginArgs, readConfig, tempDir } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';

test.override({ sandboxOptions: { seed: 1 } });

const GUID_Q = 'Enterprise id (GUID): ';
const API_Q = 'API key (hidden): ';
const SUB_Q = 'Subscription key (hidden): ';

describe('auth login asks for what is missing', () => {
  it('asks for the enterprise and both keys, never shows the keys, and saves them', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    const result = await cip(['auth', 'login', '--base-url', sandbox.url], {
      configDir,
      answers: [
        [GUID_Q, `${sandbox.keys.enterpriseId}\n`],
        [API_Q, `${sandbox.keys.apiKey}\r`],
        [SUB_Q, `${sandbox.keys.subscriptionKey}\r`],
      ],
    });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('Find your API key and subscription key at https://app.copyl.com/en/itops/secrets');
    expect(result.stderr).not.toContain(sandbox.keys.apiKey);
    expect(result.stderr).not.toContain(sandbox.keys.subscriptionKey);
    expect(result.stderr).toContain(`Logged in: profile 'default' (enterprise ${sandbox.keys.enterpriseId}, ${sandbox.url}) is active.`);
    expect(readConfig(configDir)).toMatchObject({
      activeProfile: 'default',
      profiles: { default: { apiKey: sandbox.keys.apiKey, subscriptionKey: sandbox.keys.subscriptionKey } },
    });
  });

  it('asks again after an enterprise id that is not a GUID, and after a key that is too short or empty', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    const result = await cip(['auth', 'login', '--base-url', sandbox.url, '--no-verify'], {
      configDir,
      answers: [
        [GUID_Q, 'not-a-guid\n'],
        [GUID_Q, `${sandbox.keys.enterpriseId}\n`],
        [API_Q, 'short\r'],
        [API_Q, '\r'],
        [API_Q, `x\u007fy\u007f${sandbox.keys.apiKey}\r`],
        [SUB_Q, `${sandbox.keys.subscriptionKey}\n`],
      ],
    });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain("the enterprise id must be a GUID like 3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b, not 'not-a-guid'");
    expect(result.stderr.split(API_Q)).toHaveLength(4);
    expect(readConfig(configDir)).toMatchObject({
      profiles: { default: { apiKey: sandbox.keys.apiKey, enterpriseId: sandbox.keys.enterpriseId } },
    });
  });

  it.for<[string, string]>([
    ['Ctrl-C', '\u0003'],
    ['Ctrl-D on an empty line', '\u0004'],
  ])('%s at a hidden question stops: exit 130, nothing saved', async ([_name, key], { sandbox, cip }) => {
    const configDir = tempDir();
    const result = await cip(['auth', 'login', '--base-url', sandbox.url, '--enterprise-id', sandbox.keys.enterpriseId], {
      configDir,
      answers: [[API_Q, key]],
    });
    expect(result.exitCode).toBe(130);
    expect(readConfig(configDir)).toBeUndefined();
  });
});

describe('auth login inputs', () => {
  it('an empty key file is exit 2, naming it', async ({ sandbox, cip }) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'empty'), '\n');
    writeFileSync(join(dir, 'sub'), sandbox.keys.subscriptionKey);
    const result = await cip(
      [
        'auth',
        'login',
        '--enterprise-id',
        sandbox.keys.enterpriseId,
        '--api-key-file',
        join(dir, 'empty'),
        '--subscription-key-file',
        join(dir, 'sub'),
      ],
      {},
    );
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(`error: --api-key-file ${join(dir, 'empty')} is empty`);
  });

  it('both keys from stdin is refused', async ({ cip }) => {
    const result = await cip(['auth', 'login', '--api-key-file', '-', '--subscription-key-file', '-'], { input: 'x' });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe('error: only one of --api-key-file and --subscription-key-file can read stdin');
  });

  it('keys the API accepts but that may not list (403) are saved, with a warning', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    sandbox.inject({ fault: { kind: 'status', status: 403, body: '{"message":"no list"}' } });
    const result = await cip(loginArgs(sandbox), { configDir });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('warning: the keys were accepted, but they may not list environments (HTTP 403)');
    expect(readConfig(configDir)).toMatchObject({ activeProfile: 'default' });
  });

  it('a second profile is saved but not made active, and says how to switch', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    expect((await cip(loginArgs(sandbox, ['--no-verify']), { configDir })).exitCode).toBe(0);
    const second = await cip(loginArgs(sandbox, ['--no-verify', '--profile', 'qa']), { configDir });
    expect(second.stderr).toBe(
      `Saved (not checked): profile 'qa' (enterprise ${sandbox.keys.enterpriseId}, ${sandbox.url}); make it active with 'cip auth use qa'.\n` +
        `warning: the keys of profile 'qa' are stored in plain text in ${join(configDir, 'config.json')} (CIP_CREDENTIAL_STORE=file)\n`,
    );
    expect(readConfig(configDir)).toMatchObject({ activeProfile: 'default' });
  });

  it('logging in again keeps the base URL and enterprise the profile has', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    expect((await cip(loginArgs(sandbox, ['--no-verify']), { configDir })).exitCode).toBe(0);
    const dir = tempDir();
    writeFileSync(join(dir, 'api'), `${sandbox.keys.apiKey}\n`);
    writeFileSync(join(dir, 'sub'), `${sandbox.keys.subscriptionKey}\n`);
    const again = await cip(['auth', 'login', '--api-key-file', join(dir, 'api'), '--subscription-key-file', join(dir, 'sub')], {
      configDir,
    });
    expect(again.exitCode).toBe(0);
    expect(readConfig(configDir)).toMatchObject({
      profiles: { default: { baseUrl: sandbox.url, enterpriseId: sandbox.keys.enterpriseId } },
    });
    expect(sandbox.requests.at(-1)?.url).toBe('/ms/Environments');
  });
});

describe('auth login --migrate', () => {
  it('moves keys only: other login options are refused (exit 2) and nothing changes', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    expect((await cip(loginArgs(sandbox, ['--no-verify']), { configDir })).exitCode).toBe(0);
    const before = readConfig(configDir);
    const result = await cip(loginArgs(sandbox, ['--migrate', '--no-verify']), { configDir });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      'error: --migrate moves the keys a profile has; it takes no --api-key-file, --subscription-key-file, --no-verify, --base-url, --enterprise-id (log in without --migrate to change them)',
    );
    expect(readConfig(configDir)).toEqual(before);
  });

  it('an unknown profile is exit 2 and lists the known ones', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    expect((await cip(loginArgs(sandbox, ['--no-verify']), { configDir })).exitCode).toBe(0);
    const result = await cip(['auth', 'login', '--profile', 'nope', '--migrate'], { configDir });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe("error: unknown profile 'nope' (known profiles: default)");
  });
});
