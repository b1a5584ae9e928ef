// The mutation entry point (mutation/run.mjs) chooses what to mutate and which tests to run from the tree; `--plan`
// prints that choice without running StrykerJS. A layout change in test/ or src/ that breaks the choice fails here,
// not hours into a run.
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const plan = (...args: string[]) => execa('node', [join(ROOT, 'mutation', 'run.mjs'), ...args], { cwd: ROOT, reject: false });

describe('npm run mutation', () => {
  it('for a module: the module, and its related tests (named for it, or importing it through src/, not through the harness)', async () => {
    const result = await plan('src/text/charset.ts', '--plan');
    expect(result.exitCode).toBe(0);
    const [head, modules, tests] = result.stdout.split(/\n(?=modules:|tests:)/);
    expect(modules).toBe('modules:\n  src/text/charset.ts');
    const files = tests!
      .split('\n')
      .slice(1)
      .map((line) => line.trim());
    expect(head).toBe(`1 modules to mutate, with ${files.length} test files (related)`);
    // Named for it, and importing a module that imports it (domain/journal/record.ts).
    expect(files).toContain('test/unit/text/charset.test.ts');
    expect(files).toContain('test/unit/domain/journal/record.test.ts');
    // Through the harness only: not related.
    expect(files).not.toContain('test/promises/faults.test.ts');
    expect(files.every((file) => /^test\/(unit|commands|promises|e2e)\//.test(file))).toBe(true);
  });

  it('without a target, or with one that names nothing, says how to use it and exits 2', async () => {
    for (const args of [[], ['src/no-such-module.ts'], ['core', '--tests', 'some']]) {
      const result = await plan(...args, '--plan');
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toContain('usage:\n  npm run mutation -- TARGET...');
      expect(result.stdout).toBe('');
    }
  });
});
