// A second enterprise's profile, key files, and `auth login` against a sandbox, for the auth verbs' tests.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Sandbox } from '../../src/sandbox/index.js';
import { loginArgs, tempDir } from './cli.js';
import { type Cip } from './fixture.js';

export const OTHER_ENTERPRISE = '11111111-2222-4333-8444-555555555555';

export const OTHER = {
  seed: 5,
  enterpriseId: OTHER_ENTERPRISE,
  apiKey: 'other-api-key-abcdefghijkl',
  subscriptionKey: 'other-sub-key-mnopqrstuvwx',
};

export function keyFiles(target: Sandbox): { apiKeyFile: string; subscriptionKeyFile: string } {
  const dir = tempDir();
  const apiKeyFile = join(dir, 'api-key');
  const subscriptionKeyFile = join(dir, 'sub-key');
  writeFileSync(apiKeyFile, `${target.keys.apiKey}\n`);
  writeFileSync(subscriptionKeyFile, `${target.keys.subscriptionKey}\n`);
  return { apiKeyFile, subscriptionKeyFile };
}

export async function login(cip: Cip, configDir: string, target: Sandbox, extra: string[] = []) {
  return cip(loginArgs(target, extra), { configDir });
}
