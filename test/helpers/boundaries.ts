// What the tests of one theme share, in the files of the verbs and promises they test. The theme:
// Rules whose edge was left untested by one-fixture tests: each case here sits on the boundary a careless
// change would move (found by mutation testing).
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
