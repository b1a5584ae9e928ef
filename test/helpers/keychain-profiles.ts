// Profiles with their keys in a keychain (the stand-in helper of fake-keychain.ts, so no D-Bus): key files,
// the keychain's service name, profiles as stored, and a check that output holds no key.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { tempDir } from './cli.js';
import { fakeKeychain, type FakeKeychain } from './fake-keychain.js';
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

/** A config folder whose active profile 'prod' keeps its keys in a stand-in keychain, beside the profiles given. */
export function prodInKeychain(sandbox: Sandbox, others: Record<string, object> = {}): { keychain: FakeKeychain; configDir: string } {
  const keychain = fakeKeychain();
  const configDir = tempDir();
  writeConfig(configDir, { activeProfile: 'prod', profiles: { prod: keychainProfile(sandbox), ...others } });
  keychain.put(service(sandbox), 'prod', KEYS(sandbox));
  return { keychain, configDir };
}
