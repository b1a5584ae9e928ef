// The code cache that makes later runs of cip start faster on Node 20 (src/load-cli.ts): it is written once,
// reused, replaced when V8 refuses it, and never read from a folder others can write to.
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { cip, sandboxEnv, tempDir } from '../helpers/cli.js';

const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
// Node >= 22.1 brings its own cache (module.enableCompileCache), and cip uses that instead.
const ownCache = major < 22 || (major === 22 && minor < 1);
const cacheDirIn = (tmp: string) => join(tmp, `cip-compile-cache-${process.getuid?.() ?? 'user'}`);

describe.runIf(ownCache)('the compile cache', () => {
  it('is written by the first run, private, and reused by the next', async () => {
    const tmp = tempDir();
    const first = await cip(['--help'], { env: { TMPDIR: tmp } });
    expect(first.exitCode).toBe(0);
    const dir = cacheDirIn(tmp);
    const [file] = readdirSync(dir);
    expect(file).toMatch(/^cli-.*\.bin$/);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);
    const written = statSync(join(dir, file!)).mtimeMs;
    const second = await cip(['--help'], { env: { TMPDIR: tmp } });
    expect(second.stdout).toBe(first.stdout);
    expect(statSync(join(dir, file!)).mtimeMs).toBe(written);
  });

  it("is written again after the first run of another kind of command, so that it holds that command's code too", async () => {
    const sandbox = await startSandbox({ seed: 2 });
    try {
      const tmp = tempDir();
      const env = sandboxEnv(sandbox, { TMPDIR: tmp });
      await cip(['--help'], { env });
      const dir = cacheDirIn(tmp);
      const file = join(dir, readdirSync(dir)[0]!);
      const afterHelp = readFileSync(file);
      const list = await cip(['env', 'list', '--json'], { env });
      expect(list.exitCode).toBe(0);
      const afterList = readFileSync(file);
      // The code env list ran is in it now, beside --help's.
      expect(afterList.length).toBeGreaterThan(afterHelp.length);
      // Another env list, or --help again, finds its code there: the file is not written again.
      const written = statSync(file).mtimeMs;
      await cip(['env', 'list', '--json'], { env });
      await cip(['--help'], { env });
      expect(statSync(file).mtimeMs).toBe(written);
      expect(readdirSync(dir)).toHaveLength(1);
    } finally {
      await sandbox.close();
    }
  });

  it('a damaged cache is refused by V8 and replaced, and the command still works', async () => {
    const tmp = tempDir();
    await cip(['--help'], { env: { TMPDIR: tmp } });
    const dir = cacheDirIn(tmp);
    const file = join(dir, readdirSync(dir)[0]!);
    writeFileSync(file, 'not a code cache');
    const result = await cip(['--help'], { env: { TMPDIR: tmp } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Usage: cip/);
    expect(readFileSync(file, 'utf8')).not.toBe('not a code cache');
  });

  it('is neither read nor written in a folder that others can write to', async () => {
    const tmp = tempDir();
    const dir = cacheDirIn(tmp);
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const result = await cip(['--help'], { env: { TMPDIR: tmp } });
    expect(result.exitCode).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('NODE_DISABLE_COMPILE_CACHE turns it off', async () => {
    const tmp = tempDir();
    const result = await cip(['--help'], { env: { TMPDIR: tmp, NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(result.exitCode).toBe(0);
    expect(readdirSync(tmp)).toEqual([]);
  });
});
