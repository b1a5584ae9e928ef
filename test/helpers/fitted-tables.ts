// Tables fitted to a terminal of 100 or 80 columns (the in-process harness's width), for `auth status`,
// `env history`, `env list` and `env create`: profiles and records whose columns do not fit, and how to read a table.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { tempDir } from './cli.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import type { SandboxSetup } from './fixture.js';

export const STAGING = '7d1c2b3a-1111-4222-8333-444455556666';

export const REVIEW = '9a0b1c2d-1111-4222-8333-444455556666';

export const TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/;

export const NOTE = /^\((\d+) columns? hidden to fit the terminal: ([^;]+); widen it, or use --columns or -o json\)$/m;

export function threeProfiles(sandbox: Sandbox): string {
  const configDir = tempDir();
  const { apiKey, subscriptionKey, enterpriseId } = sandbox.keys;
  const prod = { baseUrl: sandbox.url, enterpriseId, apiKey, subscriptionKey, keys: 'file', protected: true };
  const staging = { baseUrl: sandbox.url, enterpriseId: '11111111-2222-4333-8444-555555555555', apiKey, subscriptionKey, keys: 'file' };
  const ci = { kind: 'token', baseUrl: sandbox.url, keys: 'file', token: sandbox.token({ expiresIn: 3600 }), subscriptionKey };
  writeFileSync(join(configDir, 'config.json'), JSON.stringify({ activeProfile: 'prod', profiles: { prod, staging, 'ci-pipeline': ci } }), {
    mode: 0o600,
  });
  return configDir;
}

export const lines = (text: string) => text.split('\n').filter((line) => line !== '');

export function table(stdout: string, width: number) {
  const [header, ...rows] = lines(stdout);
  for (const line of [header!, ...rows]) expect(line.length, line).toBeLessThanOrEqual(width);
  return { header: header!.split(/ {2,}/), rows: rows.map((row) => row.split(/ {2,}/)) };
}

export const LONG_NAME_SANDBOX: SandboxSetup = {
  records: [
    `{"id":"${STAGING}","name":"staging-environment-eu-west-with-a-longer-name","type":"Staging"}`,
    `{"id":"${REVIEW}","name":"review-42","type":"Test"}`,
  ],
};
