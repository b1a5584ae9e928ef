// Profiles as cip stores them in its config file, written as another tool (or an older cip) would write them:
// a sandbox's profile, and a private config folder holding some.
import { writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './cli.js';
import type { Sandbox } from '../../src/sandbox/index.js';

export interface StoredProfile {
  baseUrl?: string;
  enterpriseId: string;
  apiKey: string;
  subscriptionKey: string;
}

export function configWith(profiles: Record<string, StoredProfile>, activeProfile?: string): string {
  const dir = tempDir();
  chmodSync(dir, 0o700);
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ activeProfile, profiles }, null, '\t'), { mode: 0o600 });
  return dir;
}

export const sandboxProfile = (sandbox: Sandbox): StoredProfile => ({
  baseUrl: sandbox.url,
  enterpriseId: sandbox.keys.enterpriseId,
  apiKey: sandbox.keys.apiKey,
  subscriptionKey: sandbox.keys.subscriptionKey,
});
