// Small edges of list, update and logout.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { expectOneErrorLine, readConfig, sandboxEnv, tempDir } from '../helpers/cli.js';
import { cipInProcess as cip } from '../helpers/harness.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: [{ id: 'e1', name: 'alpha', type: 'Test' }] });
});
afterAll(async () => {
  await sandbox.close();
});

describe('env list --columns', () => {
  it('takes a list with spaces and empty items', async () => {
    const result = await cip(['env', 'list', '-o', 'table', '--columns', ' name , ,type '], { env: sandboxEnv(sandbox) });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\n')[0]).toMatch(/^NAME\s+TYPE$/);
  });

  it.each([',', ' , ', ''])('refuses %j: exit 2', async (value) => {
    const result = await cip(['env', 'list', '--columns', value], { env: sandboxEnv(sandbox) });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(/^error: option '--columns <fields>' argument '.*' is invalid\./);
  });
});

describe('env update --file', () => {
  it('names --file when the file cannot be read', async () => {
    const missing = join(tempDir(), 'missing.json');
    const result = await cip(['env', 'update', 'e1', '--file', missing], { env: sandboxEnv(sandbox) });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(
      new RegExp(`^error: cannot read --file ${missing.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`),
    );
  });
});

describe('auth logout', () => {
  const profile = () => ({
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

  it('with no active profile and none named is exit 2, and changes nothing', async () => {
    const configDir = configWith({ profiles: { a: profile(), b: profile() } });
    const result = await cip(['auth', 'logout'], { configDir });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe('error: no active profile to log out of (name one with --profile)');
    expect(Object.keys((readConfig(configDir) as { profiles: object }).profiles)).toEqual(['a', 'b']);
  });

  it('of another profile, when the active one no longer exists, picks the one left', async () => {
    const configDir = configWith({ activeProfile: 'vanished', profiles: { a: profile(), b: profile() } });
    const result = await cip(['auth', 'logout', '--profile', 'a'], { configDir });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe("Removed profile 'a'. Active profile: 'b'.\n");
    expect(readConfig(configDir)).toEqual({ activeProfile: 'b', profiles: { b: profile() } });
  });

  it('of the last profile leaves no activeProfile in the file', async () => {
    const configDir = configWith({ activeProfile: 'a', profiles: { a: profile() } });
    const result = await cip(['auth', 'logout'], { configDir });
    expect(result.stderr).toBe("Removed profile 'a'. No profile is active; choose one with 'cip auth use <name>'.\n");
    expect(readConfig(configDir)).toEqual({ profiles: {} });
  });
});
