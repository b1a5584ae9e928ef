// CIP_MAX_ANSWER_BYTES (src/api/connect.ts): which values set the answer limit and which are refused, as a
// user sees it from `cip env list` against the sandbox.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { expectOneErrorLine, tempDir } from '../helpers/cli.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { it, test } from '../helpers/fixture.js';

test.override({ sandboxOptions: { seed: 2 } });

describe('CIP_MAX_ANSWER_BYTES', () => {
  it.for<[string]>([['0'], ['-1'], ['1.5'], ['9007199254740992'], ['1e3x']])(
    'refuses %j before any request, exit 2',
    async ([value], { sandbox, env, cip }) => {
      const result = await cip(['env', 'list'], { env: { ...env, CIP_MAX_ANSWER_BYTES: value } });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe(`error: CIP_MAX_ANSWER_BYTES must be a whole number of bytes, not '${value}'`);
      expect(sandbox.requests).toHaveLength(0);
    },
  );

  it('shows a refused value trimmed and cleaned', async ({ env, cip }) => {
    const result = await cip(['env', 'list'], { env: { ...env, CIP_MAX_ANSWER_BYTES: ' 12\u001b[2Jkb ' } });
    expect(expectOneErrorLine(result.stderr)).toBe("error: CIP_MAX_ANSWER_BYTES must be a whole number of bytes, not '12?[2Jkb'");
  });

  it.for<[string]>([[''], ['   ']])('takes %j as unset: the default limit', async ([value], { env, cip }) => {
    const result = await cip(['env', 'list'], { env: { ...env, CIP_MAX_ANSWER_BYTES: value } });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(2);
  });

  it('takes a number with spaces around it, and a limit of one byte is a limit, not an error', async ({ sandbox, env, cip }) => {
    const roomy = await cip(['env', 'list'], { env: { ...env, CIP_MAX_ANSWER_BYTES: ' 1000000 ' } });
    expect(roomy.exitCode).toBe(0);
    const tight = await cip(['env', 'list'], { env: { ...env, CIP_MAX_ANSWER_BYTES: ' 1 ' } });
    expect(tight.exitCode).toBe(7);
    expect(expectOneErrorLine(tight.stderr)).toMatch(/answer too large/);
    expect(sandbox.requests).toHaveLength(2);
  });
});

describe('a 401 names where the keys came from', () => {
  const WRONG = 'wrong-key-0123456789abcdef';

  /** A config folder whose active profile 'p' holds these keys, for the sandbox. */
  function profileWith(sandbox: Sandbox, keys: { apiKey: string; subscriptionKey: string }): string {
    const configDir = tempDir();
    const profile = { baseUrl: sandbox.url, enterpriseId: sandbox.keys.enterpriseId, ...keys };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ activeProfile: 'p', profiles: { p: profile } }), { mode: 0o600 });
    return configDir;
  }

  it('both from the profile: the profile, and how to replace them', async ({ sandbox, cip }) => {
    const configDir = profileWith(sandbox, { apiKey: WRONG, subscriptionKey: sandbox.keys.subscriptionKey });
    const result = await cip(['env', 'list'], { configDir });
    expect(result.exitCode).toBe(3);
    expect(expectOneErrorLine(result.stderr)).toMatch(/\(check the keys of profile 'p'; 'cip auth login --profile p' replaces them\)$/);
  });

  it('one from the environment, one from the profile: each source', async ({ sandbox, cip }) => {
    const configDir = profileWith(sandbox, { apiKey: sandbox.keys.apiKey, subscriptionKey: sandbox.keys.subscriptionKey });
    const apiFromEnv = await cip(['env', 'list'], { configDir, env: { CIP_API_KEY: WRONG } });
    expect(apiFromEnv.exitCode).toBe(3);
    expect(expectOneErrorLine(apiFromEnv.stderr)).toMatch(
      /\(check the keys: the API key came from CIP_API_KEY, the subscription key from profile 'p'\)$/,
    );
    const subscriptionFromEnv = await cip(['env', 'list'], { configDir, env: { CIP_SUBSCRIPTION_KEY: WRONG } });
    expect(subscriptionFromEnv.exitCode).toBe(3);
    expect(expectOneErrorLine(subscriptionFromEnv.stderr)).toMatch(
      /\(check the keys: the API key came from profile 'p', the subscription key from CIP_SUBSCRIPTION_KEY\)$/,
    );
  });
});
