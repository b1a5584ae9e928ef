// `cip completion` in-process against the sandbox: what a user sees (exit code, stdout, stderr) and what the server received.
import { existsSync, readFileSync, statSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, afterEach, vi } from 'vitest';
import { sandboxEnv, tempDir, type CipResult } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';
import { execFileSync } from 'node:child_process';
import { MAX_CONFIG_BYTES } from '../../src/config/store.js';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
import { fileURLToPath } from 'node:url';

describe('cip __complete', () => {
  // `cip __complete environments`: the ids and names the completion scripts offer for get, update and delete.
  // A Tab must never wait long, ask anything or print an error; a second Tab within a minute asks nothing.

  test.beforeEach(({ sandbox }) => {
    sandbox.environments.clear();
    sandbox.environments.set('e1', { id: 'e1', name: 'staging' });
    sandbox.environments.set('e2', { id: 'e2', name: 'has space' });
    sandbox.environments.set('e3', { id: 'e3', name: "quo'te" });
    sandbox.environments.set('e4', { id: 'e4' });
    // Names no completion may offer: a line break (one value a line), a tab (fish's description separator),
    // another control or format character, and a leading '-' (it would be read as an option).
    sandbox.environments.set('e5', { id: 'e5', name: 'two\nlines' });
    sandbox.environments.set('e6', { id: 'e6', name: 'tab\there' });
    sandbox.environments.set('e7', { id: 'e7', name: 'esc\u001b[2J' });
    sandbox.environments.set('e8', { id: 'e8', name: 'bidi\u202eexe.txt' });
    sandbox.environments.set('e9', { id: 'e9', name: '--yes' });
    sandbox.environments.set('e10', { id: 'e10', name: 'evil;id' });
    sandbox.reset();
  });

  describe('cip __complete environments', () => {
    it('prints the ids and the names the scripts can quote for a shell, and caches them privately for the next Tab', async ({
      sandbox,
      cip,
    }) => {
      const configDir = tempDir();
      const env = sandboxEnv(sandbox);
      const first = await cip(['__complete', 'environments'], { env, configDir });
      expect(first).toEqual({
        exitCode: 0,
        stdout: "e1\nstaging\ne2\nhas space\ne3\nquo'te\ne4\ne5\ne6\ne7\ne8\ne9\ne10\nevil;id\n",
        stderr: '',
      });
      expect(sandbox.requests).toHaveLength(1);
      const cache = join(configDir, 'completion-cache.json');
      expect(statSync(cache).mode & 0o777).toBe(0o600);
      expect(readFileSync(cache, 'utf8')).not.toContain(sandbox.keys.apiKey);

      sandbox.environments.set('e11', { id: 'e11', name: 'new' });
      const again = await cip(['__complete', 'environments'], { env, configDir });
      expect(again.stdout).toBe(first.stdout);
      expect(sandbox.requests).toHaveLength(1);

      // Another enterprise is another cache.
      const other = await cip(['__complete', 'environments'], {
        env: { ...env, CIP_ENTERPRISE_ID: '11111111-2222-4333-8444-555555555555' },
        configDir,
      });
      expect(other.exitCode).toBe(0);
      expect(sandbox.requests).toHaveLength(2);
    });

    it('leaves out a name that holds a key in use, and does not cache it', async ({ sandbox, cip }) => {
      const configDir = tempDir();
      sandbox.environments.set('e20', { id: 'e20', name: `k=${sandbox.keys.apiKey}` });
      const result = await cip(['__complete', 'environments'], { env: sandboxEnv(sandbox), configDir });
      expect(result.exitCode).toBe(0);
      expect(result.stdout.split('\n').slice(-3)).toEqual(['evil;id', 'e20', '']);
      expect(readFileSync(join(configDir, 'completion-cache.json'), 'utf8')).not.toContain(sandbox.keys.apiKey);
    });

    it('says nothing without credentials, and creates no folder', async ({ cip }) => {
      const configDir = join(tempDir(), 'not-yet');
      const result = await cip(['__complete', 'environments'], { configDir });
      expect(result).toEqual({ exitCode: 0, stdout: '', stderr: '' });
      expect(existsSync(configDir)).toBe(false);
    });

    it('gives up on a server that does not answer within 2 s, saying nothing', async ({ sandbox, cip }) => {
      let release: () => void = () => undefined;
      sandbox.inject({ fault: { kind: 'hold', release: new Promise<void>((resolve) => (release = resolve)) }, times: Infinity });
      try {
        const result = await cip(['__complete', 'environments'], { env: sandboxEnv(sandbox), configDir: tempDir() });
        expect(result).toEqual({ exitCode: 0, stdout: '', stderr: '' });
      } finally {
        release();
      }
    });

    it('says nothing when the API refuses', async ({ sandbox, cip }) => {
      const result = await cip(['__complete', 'environments'], {
        env: sandboxEnv(sandbox, { CIP_API_KEY: 'wrong-key-0123456789' }),
        configDir: tempDir(),
      });
      expect(result).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    });
  });
});

describe('cip __complete at its edges', () => {
  // `cip __complete` at its edges, in-process: the profile names from a config file as it is (any broken,
  // odd or oversized file says nothing, a FIFO does not block), and the environments' cache: whose it is, how
  // old it may be, which values it may give a shell, its size limit, and a temp file planted in its place.
  // The clock is faked (Date only), so the cache's age is exact.

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
});

describe('cip completion <shell>', () => {
  // `cip completion <shell>` in-process: it prints exactly the script committed under completions/ (the one
  // packaged and documented), with the values each option and argument is completed from.

  const COMMITTED = { bash: 'cip.bash', zsh: '_cip', fish: 'cip.fish', powershell: 'cip.ps1' } as const;

  const committed = (shell: keyof typeof COMMITTED) =>
    readFileSync(fileURLToPath(new URL(`../../completions/${COMMITTED[shell]}`, import.meta.url)), 'utf8');

  // What each shell does with the values the command tree knows: profiles, environments, files, choices.
  const LINES: Record<keyof typeof COMMITTED, string[]> = {
    bash: [
      `    */-p|*/--profile) __cip_profiles "$3" ;;`,
      `    */-o|*/--output) __cip_words "$3" table json yaml tsv ;;`,
      `    'cip env create'/--file|'cip env create '*/--file) __cip_files "$3" ;;`,
      `    'cip env get/0') __cip_environments "$3" ;;`,
      `    'cip env delete/'*) __cip_environments "$3" ;;`,
      `    'cip auth use/0') __cip_profiles "$3" ;;`,
      `    'cip completion/0') __cip_words "$3" bash zsh fish powershell ;;`,
    ],
    zsh: [
      `'(-p --profile)--profile=[profile to use (default\\: the active one)]:name:_cip_profiles'`,
      `:_cip_environments'`,
      `:(bash zsh fish powershell)'`,
    ],
    fish: [
      `complete -c cip -s o -l output -d 'output format (default: table on a terminal, json otherwise)' -x -a 'table json yaml tsv'`,
      `complete -c cip -n '__cip_argument \\'cip env get\\' 0' -a '(cip __complete environments 2>/dev/null)' -d 'environment id, or its exact name'`,
      `complete -c cip -n '__cip_argument \\'cip env delete\\' 0 or-later' -a '(cip __complete environments 2>/dev/null)' -d`,
      `complete -c cip -n '__cip_argument \\'cip auth use\\' 0' -a '(cip __complete profiles 2>/dev/null)' -d 'profile name'`,
      `complete -c cip -n '__cip_under \\'cip env create\\'' -l file -d `,
    ],
    powershell: [
      `    $values['cip/-p'] = 'profiles'`,
      `    $values['cip/--output'] = 'choices', 'table', 'json', 'yaml', 'tsv'`,
      `    $values['cip env create/--file'] = 'files'`,
      `    $values['cip env delete/--confirm'] = 'profiles'`,
      `    $arguments['cip env get/0'] = 'environments'`,
      `    $arguments['cip env delete/0+'] = 'environments'`,
      `    $arguments['cip auth use/0'] = 'profiles'`,
      `    $arguments['cip completion/0'] = 'choices', 'bash', 'zsh', 'fish', 'powershell'`,
      `cip __complete profiles 2>$null`,
      `cip __complete environments 2>$null`,
    ],
  };

  it.for(Object.keys(COMMITTED) as (keyof typeof COMMITTED)[])(
    '%s completes profiles, environments, files and choices',
    async (shell, { cip }) => {
      const { stdout } = await cip(['completion', shell]);
      for (const line of LINES[shell]) expect(stdout, line).toContain(line);
    },
  );

  describe.each(Object.keys(COMMITTED) as (keyof typeof COMMITTED)[])('cip completion %s', (shell) => {
    it('prints the committed script, and nothing on stderr', async ({ cip }) => {
      expect(await cip(['completion', shell])).toEqual({ exitCode: 0, stdout: committed(shell), stderr: '' });
    });
  });
});
