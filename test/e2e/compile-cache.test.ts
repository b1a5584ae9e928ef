// The code cache that makes later runs of cip start faster on Node 20 (src/load-cli.ts): it is written once,
// reused, replaced when V8 refuses it, and never read from a folder others can write to.
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { execa } from 'execa';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { BUILD, cip, sandboxEnv, tempDir } from '../helpers/cli.js';

const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
// Node >= 22.1 brings its own cache (module.enableCompileCache), and cip uses that instead.
const ownCache = major < 22 || (major === 22 && minor < 1);
const cacheDirIn = (tmp: string) => join(tmp, `cip-compile-cache-${process.getuid?.() ?? 'user'}`);

/** The scripts a cache file holds V8's data for, as its header names them (src/load-cli.ts). */
function scriptsIn(file: string): string[] {
  const bytes = readFileSync(file);
  const names = JSON.parse(bytes.subarray(4, 4 + bytes.readUInt32LE(0)).toString('utf8')) as [string, number][];
  return names.map(([name]) => name);
}

describe.runIf(ownCache)('the compile cache', () => {
  it('is written by the first run, private, and reused by the next', async () => {
    const tmp = tempDir();
    const first = await cip(['--help'], { env: { TMPDIR: tmp } });
    expect(first.exitCode).toBe(0);
    const dir = cacheDirIn(tmp);
    // The file of this kind of run, and the shared one the first run of each kind starts from.
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    expect(files[1]).toMatch(/^cli-.*-shared\.bin$/);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const file of files) expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    const written = files.map((file) => statSync(join(dir, file)).mtimeMs);
    const second = await cip(['--help'], { env: { TMPDIR: tmp } });
    expect(second.stdout).toBe(first.stdout);
    expect(readdirSync(dir).sort()).toEqual(files);
    expect(files.map((file) => statSync(join(dir, file)).mtimeMs)).toEqual(written);
  });

  it("keeps a file per kind of command, holding that command's code and the vendor files it loads, and no other", async () => {
    const sandbox = await startSandbox({ seed: 2 });
    try {
      const tmp = tempDir();
      const env = sandboxEnv(sandbox, { TMPDIR: tmp });
      await cip(['--help'], { env });
      const dir = cacheDirIn(tmp);
      const [help] = readdirSync(dir).filter((name) => !name.endsWith('-shared.bin'));
      const helpWritten = statSync(join(dir, help!)).mtimeMs;
      const list = await cip(['env', 'list', '--json'], { env });
      expect(list.exitCode).toBe(0);
      const [listFile, ...others] = readdirSync(dir).filter((name) => !name.endsWith('-shared.bin') && name !== help);
      expect(others).toEqual([]);
      // env list's file names cli.cjs and ky's vendor file; --help's only cli.cjs, and was not written again.
      expect(scriptsIn(join(dir, listFile!))).toEqual(['cli.cjs', expect.stringMatching(/^vendor\/ky\.cjs@\d+$/)]);
      expect(scriptsIn(join(dir, help!))).toEqual(['cli.cjs']);
      expect(statSync(join(dir, help!)).mtimeMs).toBe(helpWritten);
      // The code env list ran is in its file, which is larger than --help's.
      expect(statSync(join(dir, listFile!)).size).toBeGreaterThan(statSync(join(dir, help!)).size);
      // Another env list, or --help again, finds its code in its file: nothing is written again.
      const written = readdirSync(dir).map((name) => statSync(join(dir, name)).mtimeMs);
      await cip(['env', 'list', '--json'], { env });
      await cip(['--help'], { env });
      expect(readdirSync(dir).map((name) => statSync(join(dir, name)).mtimeMs)).toEqual(written);
      expect(readdirSync(dir)).toHaveLength(3);
    } finally {
      await sandbox.close();
    }
  });

  it('a vendor file changed by hand (same length, so V8 would take the old cache) is compiled from its new text', async () => {
    const sandbox = await startSandbox({ seed: 2 });
    try {
      // A copy of the build: the shared one must not change under other tests.
      const copy = tempDir();
      cpSync(join(BUILD, 'dist'), join(copy, 'dist'), { recursive: true });
      cpSync(join(BUILD, 'bin'), join(copy, 'bin'), { recursive: true });
      const env = { ...sandboxEnv(sandbox), TMPDIR: tempDir(), PATH: process.env.PATH };
      const run = () =>
        execa('node', [join(copy, 'bin', 'cip.cjs'), 'env', 'list', '-o', 'json'], { env, extendEnv: false, reject: false });
      expect((await run()).exitCode).toBe(0);
      const ky = join(copy, 'dist', 'vendor', 'ky.cjs');
      const length = readFileSync(ky, 'utf8').length;
      const changed = 'throw new Error("hand-changed ky");\n';
      writeFileSync(ky, `${changed}/*${'x'.repeat(length - changed.length - 4)}*/`);
      const later = Date.now() / 1000 + 60;
      utimesSync(ky, later, later);
      const result = await run();
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('hand-changed ky');
    } finally {
      await sandbox.close();
    }
  });

  it('counts `env list` with any profile or output format as one kind of command', async () => {
    const tmp = tempDir();
    const env = { TMPDIR: tmp, CIP_CONFIG_DIR: tempDir() };
    for (const args of [
      ['--profile', 'one'],
      ['-p', 'two'],
      ['-o', 'table', '--profile', 'three'],
    ]) {
      // No such profile: the run fails (exit 2), and its cache is written all the same.
      expect((await cip([...args, 'env', 'list'], { env })).exitCode).toBe(2);
    }
    const kinds = readdirSync(cacheDirIn(tmp)).filter((name) => !name.endsWith('-shared.bin'));
    expect(kinds).toHaveLength(1);
  });

  it("removes another build's files once they are a week old, when it writes its own", async () => {
    const tmp = tempDir();
    const dir = cacheDirIn(tmp);
    mkdirSync(dir, { mode: 0o700 });
    const old = join(dir, 'cli-0.0.1-v20.0.0-x64-1-1-811c9dc5.bin');
    const recent = join(dir, 'cli-0.0.2-v20.0.0-x64-1-1-811c9dc5.bin');
    const notOurs = join(dir, 'notes.txt');
    // A crashed run's temporary file.
    const leftOver = join(dir, 'cli-0.0.2-v20.0.0-x64-1-1-811c9dc5.bin.4242.tmp');
    for (const file of [old, recent, notOurs, leftOver]) writeFileSync(file, 'x', { mode: 0o600 });
    const weekAgo = (Date.now() - 8 * 24 * 3600 * 1000) / 1000;
    for (const file of [old, notOurs, leftOver]) utimesSync(file, weekAgo, weekAgo);
    expect((await cip(['--help'], { env: { TMPDIR: tmp } })).exitCode).toBe(0);
    const names = readdirSync(dir);
    expect(names).not.toContain('cli-0.0.1-v20.0.0-x64-1-1-811c9dc5.bin');
    expect(names).toContain('cli-0.0.2-v20.0.0-x64-1-1-811c9dc5.bin');
    expect(names).toContain('notes.txt');
    expect(names).not.toContain('cli-0.0.2-v20.0.0-x64-1-1-811c9dc5.bin.4242.tmp');
  });

  it('a damaged cache is refused by V8 and replaced, and the command still works', async () => {
    const tmp = tempDir();
    await cip(['--help'], { env: { TMPDIR: tmp } });
    const dir = cacheDirIn(tmp);
    const files = readdirSync(dir).map((name) => join(dir, name));
    for (const file of files) writeFileSync(file, 'not a code cache');
    const result = await cip(['--help'], { env: { TMPDIR: tmp } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Usage: cip/);
    // Both are written again.
    for (const file of files) expect(scriptsIn(file)).toEqual(['cli.cjs']);
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
