// Small edges of list, update and logout.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { expectOneErrorLine, readConfig, sandboxEnv, tempDir } from '../helpers/cli.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { it, test } from '../helpers/fixture.js';

test.override({ sandboxOptions: { seed: [{ id: 'e1', name: 'alpha', type: 'Test' }] } });

describe('env list --columns', () => {
  it('takes a list with spaces and empty items', async ({ sandbox, cip }) => {
    const result = await cip(['env', 'list', '-o', 'table', '--columns', ' name , ,type '], { env: sandboxEnv(sandbox) });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\n')[0]).toMatch(/^NAME\s+TYPE$/);
  });

  it.for([',', ' , ', ''])('refuses %j: exit 2', async (value, { sandbox, cip }) => {
    const result = await cip(['env', 'list', '--columns', value], { env: sandboxEnv(sandbox) });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(/^error: option '--columns <fields>' argument '.*' is invalid\./);
  });
});

describe('env update --file', () => {
  it('names --file when the file cannot be read', async ({ sandbox, cip }) => {
    const missing = join(tempDir(), 'missing.json');
    const result = await cip(['env', 'update', 'e1', '--file', missing], { env: sandboxEnv(sandbox) });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(
      new RegExp(`^error: cannot read --file ${missing.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`),
    );
  });
});

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
