// `cip __complete environments`: the ids and names the completion scripts offer for get, update and delete.
// A Tab must never wait long, ask anything or print an error; a second Tab within a minute asks nothing.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';

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
