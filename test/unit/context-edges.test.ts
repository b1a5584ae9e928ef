// The factory (src/context.ts): what it builds once per run, so a warning is said once however many times a
// command asks, and what goes to stderr with and without --verbose.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GLOBALS } from '../../src/cli/globals.js';
import type { Env } from '../../src/env.js';
import { tempDir } from '../helpers/cli.js';
import { drain, fakeIO, testContext } from '../helpers/io.js';
import { fromFlat } from '../helpers/settings.js';

const profile = {
  baseUrl: 'https://profile.example.com/ms',
  enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b',
  apiKey: 'context-edges-api-key-0123456789',
  subscriptionKey: 'context-edges-sub-key-0123456789',
};

function contextFor(env: Env) {
  const stderr = new PassThrough();
  const ctx = testContext(fakeIO({ stderr }), env, '1.2.3');
  ctx.globals = { ...DEFAULT_GLOBALS };
  return { ctx, stderr: () => drain(stderr) };
}

describe('Context', () => {
  it('opens the store once: a folder warning is said once however often a command asks', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o777);
    const { ctx, stderr } = contextFor({ CIP_CONFIG_DIR: dir });
    const first = await ctx.store();
    expect(await ctx.store()).toBe(first);
    expect(stderr()).toBe(
      `warning: the config folder ${dir} is not private: others can write to it (mode 777); cip will not store keys in it\n`,
    );
  });

  it('resolves the settings once: an override warning is said once', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ activeProfile: 'p', profiles: { p: profile } }), { mode: 0o600 });
    const { ctx, stderr } = contextFor({ CIP_CONFIG_DIR: dir, CIP_BASE_URL: 'https://env.example.com/ms' });
    const settings = await ctx.settings();
    expect(await ctx.settings()).toBe(settings);
    await ctx.api();
    expect(stderr()).toBe("warning: CIP_BASE_URL from the environment overrides profile 'p'\n");
  });

  it('builds the API client once', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ activeProfile: 'p', profiles: { p: profile } }), { mode: 0o600 });
    const { ctx } = contextFor({ CIP_CONFIG_DIR: dir });
    const api = await ctx.api();
    expect(await ctx.api()).toBe(api);
  });

  it("redacts a profile's keys once a client was built for them, and the environment's from the start", async () => {
    const { ctx } = contextFor({ CIP_API_KEY: 'environment-api-key-0123456789' });
    expect(ctx.redact('environment-api-key-0123456789')).toBe('***');
    expect(ctx.redact(profile.apiKey)).toBe(profile.apiKey);
    await ctx.apiFor(
      fromFlat({
        profile: 'p',
        baseUrl: profile.baseUrl,
        enterpriseId: profile.enterpriseId,
        apiKey: profile.apiKey,
        subscriptionKey: profile.subscriptionKey,
        sources: { baseUrl: "profile 'p'", enterpriseId: "profile 'p'", apiKey: "profile 'p'", subscriptionKey: "profile 'p'" },
      }),
    );
    expect(ctx.redact(`${profile.apiKey} ${profile.subscriptionKey}`)).toBe('*** ***');
  });

  it('gives every context its own signal when none is handed in, not yet aborted', () => {
    const { ctx } = contextFor({});
    expect(ctx.signal.aborted).toBe(false);
    expect(contextFor({}).ctx.signal).not.toBe(ctx.signal);
  });
});
