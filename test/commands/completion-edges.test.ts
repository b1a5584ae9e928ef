// `cip __complete` at its edges, in-process: the profile names from a config file as it is (any broken,
// odd or oversized file says nothing, a FIFO does not block), and the environments' cache: whose it is, how
// old it may be, which values it may give a shell, its size limit, and a temp file planted in its place.
// The clock is faked (Date only), so the cache's age is exact.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, vi } from 'vitest';
import { MAX_CONFIG_BYTES } from '../../src/config/store.js';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
import { tempDir, type CipResult } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';

const QUIET = { exitCode: 0, stdout: '', stderr: '' };

/** JSON text padded with spaces to exactly `size` bytes. */
const padded = (value: unknown, size: number) => {
  const text = JSON.stringify(value);
  return text + ' '.repeat(size - Buffer.byteLength(text));
};

describe('cip __complete profiles', () => {
  const profile = {
    enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b',
    apiKey: 'api-key-0123456789',
    subscriptionKey: 'sub-key-0123456789',
  };
  const stored = { activeProfile: 'dev', profiles: { dev: profile, 'prod-2': profile, 'has space': profile, 'quo"te': profile } };

  it.for<[string, string | ((path: string) => void), string]>([
    ['the names cip could have stored, one a line', JSON.stringify(stored), 'dev\nprod-2\n'],
    ['a file of exactly the size limit', padded(stored, MAX_CONFIG_BYTES), 'dev\nprod-2\n'],
    ['a file one byte over the limit', padded(stored, MAX_CONFIG_BYTES + 1), ''],
    ['no profiles', '{}', ''],
    ['profiles that are a list', '{"profiles":[{"dev":{}}]}', ''],
    ['a file of null', 'null', ''],
    ['a file that is not JSON', '{"profiles":', ''],
    ['a folder in place of the file', (path) => mkdirSync(path), ''],
    ['a FIFO in place of the file, which is not opened', (path) => execFileSync('mkfifo', [path]), ''],
  ])('%s', async ([_what, content, stdout], { cip }) => {
    const configDir = tempDir();
    const path = join(configDir, 'config.json');
    if (typeof content === 'string') writeFileSync(path, content);
    else content(path);
    expect(await cip(['__complete', 'profiles'], { configDir })).toEqual({ ...QUIET, stdout });
  });

  it('says nothing without a config folder, and creates none', async ({ cip }) => {
    const configDir = join(tempDir(), 'not-yet');
    expect(await cip(['__complete', 'profiles'], { configDir })).toEqual(QUIET);
    expect(existsSync(configDir)).toBe(false);
  });
});

describe('cip __complete environments', () => {
  const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
  const TTL = 60_000;
  test.beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** `cip __complete environments` against the test's sandbox, with a config folder of its own. */
  const it = test.extend<{ cache: { complete: () => Promise<CipResult>; path: string; key: string; configDir: string } }>({
    cache: async ({ sandbox, env, cip, configDir }, use) => {
      await use({
        complete: () => cip(['__complete', 'environments'], { env, configDir }),
        path: join(configDir, 'completion-cache.json'),
        // Whose cache this is: the base URL, the enterprise and the profile (none with CIP_* variables).
        key: `${sandbox.url} ${sandbox.keys.enterpriseId} `,
        configDir,
      });
    },
  });
  it.override({ sandboxOptions: { seed: [{ id: 'e1', name: 'from-api' }] } });
  const FROM_API = { ...QUIET, stdout: 'e1\nfrom-api\n' };

  it('writes a cache of the values for these credentials, stamped with the time', async ({ cache }) => {
    expect(await cache.complete()).toEqual(FROM_API);
    expect(JSON.parse(readFileSync(cache.path, 'utf8'))).toEqual({ key: cache.key, at: NOW, values: ['e1', 'from-api'] });
  });

  it.for<[string, (whose: string) => unknown, typeof QUIET]>([
    ['a cache written just now', (whose) => ({ key: whose, at: NOW, values: ['cached'] }), { ...QUIET, stdout: 'cached\n' }],
    [
      'a cache just under a minute old',
      (whose) => ({ key: whose, at: NOW - TTL + 1, values: ['cached'] }),
      { ...QUIET, stdout: 'cached\n' },
    ],
    ['a cache exactly a minute old', (whose) => ({ key: whose, at: NOW - TTL, values: ['cached'] }), FROM_API],
    ['a cache from the future (a clock set back)', (whose) => ({ key: whose, at: NOW + 1, values: ['cached'] }), FROM_API],
    ['a cache whose time is not a number', (whose) => ({ key: whose, at: String(NOW), values: ['cached'] }), FROM_API],
    [
      'a cache for another enterprise',
      (whose) => ({
        key: whose.replace(SANDBOX_DEFAULTS.enterpriseId, '11111111-2222-4333-8444-555555555555'),
        at: NOW,
        values: ['cached'],
      }),
      FROM_API,
    ],
    ['a cache without values', (whose) => ({ key: whose, at: NOW }), FROM_API],
    [
      'a cache with values no completion may offer (not text, a line break, a tab, a control character, a leading -), which are left out',
      (whose) => ({
        key: whose,
        at: NOW,
        values: ['ok', 5, 'has space', "quo'te", 'do$llar', null, 'back\\slash', 'two\nlines', 'tab\tx', 'bell\u0007', '-x', '', 'a;b'],
      }),
      { ...QUIET, stdout: "ok\nhas space\nquo'te\ndo$llar\nback\\slash\na;b\n" },
    ],
  ])('%s', async ([_what, written, expected], { sandbox, cache }) => {
    writeFileSync(cache.path, JSON.stringify(written(cache.key)));
    expect(await cache.complete()).toEqual(expected);
    expect(sandbox.requests).toHaveLength(expected === FROM_API ? 1 : 0);
  });

  it('uses a cache of exactly the size limit, and not one byte more', async ({ sandbox, cache }) => {
    writeFileSync(cache.path, padded({ key: cache.key, at: NOW, values: ['cached'] }, MAX_CONFIG_BYTES));
    expect(await cache.complete()).toEqual({ ...QUIET, stdout: 'cached\n' });
    writeFileSync(cache.path, padded({ key: cache.key, at: NOW, values: ['cached'] }, MAX_CONFIG_BYTES + 1));
    expect(await cache.complete()).toEqual(FROM_API);
    expect(sandbox.requests).toHaveLength(1);
  });

  it('asks the API when the cache is a FIFO, without opening it', async ({ cache }) => {
    execFileSync('mkfifo', [cache.path]);
    expect(await cache.complete()).toEqual(FROM_API);
  });

  it('never writes through a file planted where its temp file goes', async ({ cache }) => {
    const victim = join(tempDir(), 'victim');
    writeFileSync(victim, 'untouched');
    symlinkSync(victim, `${cache.path}.${String(NOW)}.tmp`);
    expect(await cache.complete()).toEqual(FROM_API);
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(existsSync(cache.path)).toBe(false);
  });

  it('sends nothing once interrupted', async ({ sandbox, env, cip, configDir }) => {
    const result = await cip(['__complete', 'environments'], { env, configDir, signal: AbortSignal.abort() });
    expect(result.stdout).toBe('');
    expect(sandbox.requests).toHaveLength(0);
  });

  it('lists nothing for a word it does not know, and asks nothing', async ({ sandbox, env, cip, configDir }) => {
    expect(await cip(['__complete', 'everything'], { env, configDir })).toEqual(QUIET);
    expect(sandbox.requests).toHaveLength(0);
  });
});
