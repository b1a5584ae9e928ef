// The README's quick start: `npm run demo` must work offline and leave nothing behind.
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BUILD, tempDir } from '../helpers/cli.js';

describe('npm run demo', () => {
  it('creates, lists, updates and deletes an environment against the sandbox, then cleans up', async () => {
    const home = tempDir();
    const before = readdirSync(tmpdir()).filter((name) => name.startsWith('cip-demo-'));
    const result = await execa('node', [join(BUILD, 'scripts', 'demo.mjs')], {
      env: { PATH: process.env.PATH, HOME: home },
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode).toBe(0);
    const output = result.stdout;
    for (const step of [
      '$ cip auth login',
      '$ cip env create',
      '$ cip env list',
      '$ cip env update',
      '$ cip env delete',
      '$ cip auth logout',
    ]) {
      expect(output).toContain(step);
    }
    expect(output).toMatch(/demo-production\s+Promoted\s+false/);
    expect(output).toContain('Demo finished');
    expect(result.stderr).toBe('');
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith('cip-demo-'))).toEqual(before);
    expect(readdirSync(home)).toEqual([]);
  });
});
