// The project file between processes: cip processes writing it at once (`auth use --here`) leave one whole
// project file, never a mix or a stray temporary file, and a reader at the same time sees a whole one.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cip, tempDir } from '../helpers/cli.js';

const profile = (name: string) => ({
  baseUrl: 'https://api.example.com/ms',
  enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b',
  keys: 'file',
  apiKey: `${name}-api-key-0123456789`,
  subscriptionKey: `${name}-sub-key-0123456789`,
});

describe('auth use --here from several processes at once', () => {
  it('leaves one whole project file, and readers see a whole one', async () => {
    const configDir = tempDir();
    writeFileSync(
      join(configDir, 'config.json'),
      JSON.stringify({ activeProfile: 'a', profiles: { a: profile('a'), b: profile('b'), c: profile('c') } }),
      { mode: 0o600 },
    );
    const project = tempDir();
    writeFileSync(join(project, '.cip.json'), '{"profile": "a"}');
    const options = { configDir, cwd: project, env: { HOME: project } };
    const results = await Promise.all([
      cip(['auth', 'use', 'b', '--here'], options),
      cip(['auth', 'use', 'c', '--here'], options),
      cip(['auth', 'status', '--json'], options),
      cip(['auth', 'use', 'b', '--here'], options),
    ]);
    for (const result of results) expect(result.exitCode, result.stderr).toBe(0);
    // The reader used one whole file: b, c or a, never an error.
    const inUse = (JSON.parse(results[2]!.stdout) as { name: string; inUse: boolean }[]).filter((row) => row.inUse);
    expect(inUse.map((row) => row.name)).toEqual([expect.stringMatching(/^[abc]$/)]);
    expect(['{\n  "profile": "b"\n}\n', '{\n  "profile": "c"\n}\n']).toContain(readFileSync(join(project, '.cip.json'), 'utf8'));
    expect(readdirSync(project)).toEqual(['.cip.json']);
  });
});
