// What the tests of one theme share, in the files of the verbs and promises they test. The theme:
// auth login, status and logout with the keys in a keychain: a stand-in keychain helper (a script that keeps its
// entries in a JSON file and logs each visit), so no D-Bus is needed. Also login's key inputs and messages,
// whether a profile becomes active, what a failed check points at, --migrate, and logout's active profile.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { tempDir } from './cli.js';
import type { Sandbox } from '../../src/sandbox/index.js';

export function keyFiles(sandbox: Sandbox, api = sandbox.keys.apiKey, sub = sandbox.keys.subscriptionKey): { api: string; sub: string } {
  const dir = tempDir();
  writeFileSync(join(dir, 'api'), api);
  writeFileSync(join(dir, 'sub'), sub);
  return { api: join(dir, 'api'), sub: join(dir, 'sub') };
}

export const configPath = (configDir: string) => join(configDir, 'config.json');

export const service = (sandbox: Sandbox) => `cip:${new URL(sandbox.url).origin}`;

export const KEYS = (sandbox: Sandbox) => ({ apiKey: sandbox.keys.apiKey, subscriptionKey: sandbox.keys.subscriptionKey });

export const FILE = { CIP_CREDENTIAL_STORE: 'file' };

export const otherUrl = (sandbox: Sandbox) => sandbox.url.replace('127.0.0.1', 'localhost');

export function noKeys(sandbox: Sandbox, result: { stdout: string; stderr: string }): void {
  for (const key of [sandbox.keys.apiKey, sandbox.keys.subscriptionKey]) {
    expect(result.stdout).not.toContain(key);
    expect(result.stderr).not.toContain(key);
  }
}

export function writeConfig(configDir: string, data: object): void {
  writeFileSync(configPath(configDir), JSON.stringify(data), { mode: 0o600 });
}

export const keychainProfile = (sandbox: Sandbox, baseUrl = sandbox.url) => ({
  baseUrl,
  enterpriseId: sandbox.keys.enterpriseId,
  keys: 'keychain',
});

export const plainProfile = (apiKey = 'dev-api-key-0123456789', subscriptionKey = 'dev-sub-key-abcdefghij') => ({
  baseUrl: 'https://api.example.com/ms',
  enterpriseId: '0b0b0b0b-1c1c-4d4d-8e8e-9f9f9f9f9f9f',
  apiKey,
  subscriptionKey,
});
