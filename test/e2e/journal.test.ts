// The journal across real processes (the built binary): two cip processes writing at once keep every line
// whole, and a cip killed while its write is under way leaves an entry whose outcome is unknown.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { cip, spawnCip, tempDir } from '../helpers/cli.js';
import { cipInProcess } from '../helpers/harness.js';
import { it, test } from '../helpers/fixture.js';

// Each test gets a sandbox of its own (test/helpers/fixture.ts), started this way.
test.override({ sandboxOptions: { seed: 0 } });

describe('the journal between processes', () => {
  it('two cip processes writing at once: every line whole, every entry with its answer', async ({ env }) => {
    const configDir = tempDir();
    // Lines far longer than PIPE_BUF (4 KiB), so that a write that was not one append under the lock would tear.
    const files = ['a', 'b'].map((prefix) => {
      const path = join(tempDir(), `${prefix}.json`);
      const environments = Array.from({ length: 20 }, (_, index) => ({ name: `${prefix}-${index}`, description: prefix.repeat(20_000) }));
      writeFileSync(path, JSON.stringify({ environments }));
      return path;
    });
    const results = await Promise.all(
      files.map((file) => cip(['env', 'apply', '--file', file, '--yes', '--concurrency', '8'], { env, configDir })),
    );
    expect(results.map((result) => result.exitCode)).toEqual([0, 0]);
    const lines = readFileSync(join(configDir, 'journal.jsonl'), 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(80);
    const parsed = lines.map((line) => JSON.parse(line) as { entry: string; event: string; request?: { body: { description: string } } });
    for (const line of parsed) if (line.event === 'sent') expect(line.request!.body.description).toHaveLength(20_000);
    const history = await cipInProcess(['env', 'history', '--json', '--limit', '0'], { configDir });
    expect(history.stderr).toBe('');
    const entries = JSON.parse(history.stdout) as { result: string; environment: { name: string } }[];
    expect(entries).toHaveLength(40);
    expect(entries.every((entry) => entry.result === 'done')).toBe(true);
    expect(new Set(entries.map((entry) => entry.environment.name)).size).toBe(40);
  });

  it('two cip processes writing at once while the bound prunes: whole lines, every entry kept with its answer, within the bound', async ({
    env,
  }) => {
    const configDir = tempDir();
    const files = ['c', 'd'].map((prefix) => {
      const path = join(tempDir(), `${prefix}.json`);
      const environments = Array.from({ length: 15 }, (_, index) => ({ name: `${prefix}-${index}`, description: prefix.repeat(20_000) }));
      writeFileSync(path, JSON.stringify({ environments }));
      return path;
    });
    const bound = { ...env, CIP_JOURNAL_MAX_MB: '0.2' };
    const results = await Promise.all(
      files.map((file) => cip(['env', 'apply', '--file', file, '--yes', '--concurrency', '8'], { env: bound, configDir })),
    );
    expect(results.map((result) => result.exitCode)).toEqual([0, 0]);
    for (const result of results) expect(result.stderr).not.toContain('warning');
    const path = join(configDir, 'journal.jsonl');
    expect(statSync(path).size).toBeLessThanOrEqual(0.2 * 1024 * 1024);
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    const parsed = lines.map((line) => JSON.parse(line) as { entry: string; event: string });
    const sent = parsed.filter((line) => line.event === 'sent').map((line) => line.entry);
    expect(sent.length).toBeGreaterThan(2);
    // Every entry kept has its answer. (An entry pruned while its request was under way may leave its answer
    // alone in the file: readers skip it, and the next prune drops it.)
    const history = await cipInProcess(['env', 'history', '--json', '--limit', '0'], { configDir, env: bound });
    expect(history.stderr).toBe('');
    const entries = JSON.parse(history.stdout) as { entry: string; result: string }[];
    expect(entries.map((entry) => entry.entry).sort()).toEqual([...sent].sort());
    expect(entries.every((entry) => entry.result === 'done')).toBe(true);
  });

  it('a cip killed while its delete is under way leaves the entry "unknown"', async ({ sandbox, env }) => {
    const configDir = tempDir();
    sandbox.environments.set('k1', { id: 'k1', name: 'killed' });
    let release!: () => void;
    sandbox.inject({ fault: { kind: 'hold', release: new Promise<void>((resolve) => (release = resolve)) }, method: 'DELETE' });
    const running = spawnCip(['env', 'delete', 'killed', '--yes'], { env, configDir });
    await sandbox.waitForRequest((request) => request.method === 'DELETE');
    running.kill('SIGKILL');
    await running;
    release();
    const history = await cipInProcess(['env', 'history', '--json'], { configDir });
    expect(JSON.parse(history.stdout)).toMatchObject([
      { action: 'delete', environment: { id: 'k1', name: 'killed' }, result: 'unknown', answeredAt: null },
    ]);
    const table = await cipInProcess(['env', 'history'], { configDir, terminalColumns: 200 });
    expect(table.stdout).toMatch(/delete\s+killed \(k1\).*unknown\n$/);
  });
});
