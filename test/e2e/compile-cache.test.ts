// The code cache that makes later runs of cip start faster (src/load-cli.ts): it is written once,
// reused, replaced when V8 refuses it, kept in the user's own cache folder (src/cache-folder.ts), and never read
// from a folder others can write to. A cache that cannot be used only costs time.
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { execa } from 'execa';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { BUILD, CIP, cip, sandboxEnv, tempDir } from '../helpers/cli.js';

/** The cache folder for XDG_CACHE_HOME=xdg. */
const cacheDirIn = (xdg: string) => join(xdg, 'cip');
/** A fresh XDG_CACHE_HOME, and a fresh TMPDIR that cip must leave as it is. */
function folders() {
  const xdg = tempDir('cip-xdg-');
  const tmp = tempDir('cip-tmp-');
  return { xdg, tmp, env: { XDG_CACHE_HOME: xdg, TMPDIR: tmp } };
}
/** The notes a run said (--verbose). */
const notes = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('note: '));

/** The scripts a cache file holds V8's data for, as its header names them (src/code-cache.ts). */
function scriptsIn(file: string): string[] {
  const bytes = readFileSync(file);
  const names = JSON.parse(bytes.subarray(4, 4 + bytes.readUInt32LE(0)).toString('utf8')) as [string, number][];
  return names.map(([name]) => name);
}

describe('the compile cache', () => {
  it("is written by the first run into the user's cache folder, private, and reused by the next; the temp folder is left alone", async () => {
    const { xdg, tmp, env } = folders();
    const first = await cip(['help', 'env'], { env });
    expect(first.exitCode).toBe(0);
    const dir = cacheDirIn(xdg);
    // The file of this kind of run, and the shared one the first run of each kind starts from.
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    expect(files[1]).toMatch(/^cli-.*-shared\.bin$/);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const file of files) expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    const written = files.map((file) => statSync(join(dir, file)).mtimeMs);
    const second = await cip(['help', 'env'], { env });
    expect(second.stdout).toBe(first.stdout);
    expect(readdirSync(dir).sort()).toEqual(files);
    expect(files.map((file) => statSync(join(dir, file)).mtimeMs)).toEqual(written);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('without XDG_CACHE_HOME, is kept in ~/.cache/cip', async () => {
    const home = tempDir();
    const { tmp } = folders();
    expect((await cip(['help', 'env'], { env: { HOME: home, XDG_CACHE_HOME: undefined, TMPDIR: tmp } })).exitCode).toBe(0);
    expect(readdirSync(join(home, '.cache', 'cip'))).toHaveLength(2);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("keeps a file per kind of command, holding that command's code and the vendor files it loads, and no other", async () => {
    const sandbox = await startSandbox({ seed: 2 });
    try {
      const { xdg, env: folderEnv } = folders();
      const env = sandboxEnv(sandbox, folderEnv);
      await cip(['help', 'env'], { env });
      const dir = cacheDirIn(xdg);
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
      await cip(['help', 'env'], { env });
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
      const env = { ...sandboxEnv(sandbox), ...folders().env, PATH: process.env.PATH };
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
    const { xdg, env: folderEnv } = folders();
    const env = { ...folderEnv, CIP_CONFIG_DIR: tempDir() };
    for (const args of [
      ['--profile', 'one'],
      ['-p', 'two'],
      ['-o', 'table', '--profile', 'three'],
    ]) {
      // No such profile: the run fails (exit 2), and its cache is written all the same.
      expect((await cip([...args, 'env', 'list'], { env })).exitCode).toBe(2);
    }
    const kinds = readdirSync(cacheDirIn(xdg)).filter((name) => !name.endsWith('-shared.bin'));
    expect(kinds).toHaveLength(1);
  });

  it("removes another build's files once they are a week old, when it writes its own", async () => {
    const { xdg, env } = folders();
    const dir = cacheDirIn(xdg);
    mkdirSync(dir, { mode: 0o700 });
    const old = join(dir, 'cli-0.0.1-v20.0.0-x64-1-1-811c9dc5.bin');
    const recent = join(dir, 'cli-0.0.2-v20.0.0-x64-1-1-811c9dc5.bin');
    const notOurs = join(dir, 'notes.txt');
    // A crashed run's temporary file.
    const leftOver = join(dir, 'cli-0.0.2-v20.0.0-x64-1-1-811c9dc5.bin.4242.tmp');
    for (const file of [old, recent, notOurs, leftOver]) writeFileSync(file, 'x', { mode: 0o600 });
    const weekAgo = (Date.now() - 8 * 24 * 3600 * 1000) / 1000;
    for (const file of [old, notOurs, leftOver]) utimesSync(file, weekAgo, weekAgo);
    expect((await cip(['help', 'env'], { env })).exitCode).toBe(0);
    const names = readdirSync(dir);
    expect(names).not.toContain('cli-0.0.1-v20.0.0-x64-1-1-811c9dc5.bin');
    expect(names).toContain('cli-0.0.2-v20.0.0-x64-1-1-811c9dc5.bin');
    expect(names).toContain('notes.txt');
    expect(names).not.toContain('cli-0.0.2-v20.0.0-x64-1-1-811c9dc5.bin.4242.tmp');
  });

  it('a damaged cache is refused by V8 and replaced, and the command still works', async () => {
    const { xdg, env } = folders();
    await cip(['help', 'env'], { env });
    const dir = cacheDirIn(xdg);
    const files = readdirSync(dir).map((name) => join(dir, name));
    for (const file of files) writeFileSync(file, 'not a code cache');
    const result = await cip(['help', 'env'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Usage: cip/);
    // Both are written again.
    for (const file of files) expect(scriptsIn(file)).toEqual(['cli.cjs']);
  });

  it('a FIFO or a folder in place of a cache file never holds the run: the FIFO is replaced, the folder left as it is', async () => {
    const { xdg, env } = folders();
    await cip(['help', 'env'], { env });
    const dir = cacheDirIn(xdg);
    const [own, shared] = readdirSync(dir).sort();
    rmSync(join(dir, own!));
    rmSync(join(dir, shared!));
    // Another tool's: a named pipe nobody writes to, which a plain read would wait on for ever.
    execFileSync('mkfifo', [join(dir, own!)]);
    mkdirSync(join(dir, shared!));
    const result = await cip(['help', 'env'], { env });
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout).toMatch(/^Usage: cip/);
    expect(scriptsIn(join(dir, own!))).toEqual(['cli.cjs']);
    expect(statSync(join(dir, shared!)).isDirectory()).toBe(true);
    // Nothing half-written is left beside them.
    expect(readdirSync(dir).sort()).toEqual([own, shared]);
  });

  it('a disk that is full (a file-size limit of 0): the command works, nothing is left half-written, and --verbose says so once', async () => {
    const { xdg, env } = folders();
    const result = await execa('sh', ['-c', 'ulimit -f 0; exec node "$@"', 'sh', CIP, 'completion', 'bash', '--verbose'], {
      env: { PATH: process.env.PATH, HOME: tempDir(), CIP_CONFIG_DIR: tempDir(), ...env },
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('complete ');
    expect(notes(result.stderr)).toEqual([
      `note: the code cache cannot be written in ${cacheDirIn(xdg)} (EFBIG): the next run compiles cip again`,
    ]);
    expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(readdirSync(cacheDirIn(xdg))).toEqual([]);
  });

  it('is not used, nor written, where it is not private, and --verbose says why, once', async () => {
    for (const [arrange, why] of [
      [(xdg: string) => chmodSync(xdg, 0o777), (xdg: string) => `its folder ${xdg}: others can write to it (mode 777)`],
      [
        (xdg: string) => {
          mkdirSync(cacheDirIn(xdg));
          chmodSync(cacheDirIn(xdg), 0o755);
        },
        () => 'it is not private (mode 755; `chmod 700` it to use it)',
      ],
      [(xdg: string) => writeFileSync(cacheDirIn(xdg), 'a file where the folder should be'), () => 'it is not a folder'],
    ] as const) {
      const { xdg, env } = folders();
      arrange(xdg);
      const quiet = await cip(['completion', 'bash'], { env });
      expect(quiet).toMatchObject({ exitCode: 0, stderr: '' });
      const verbose = await cip(['completion', 'bash', '--verbose'], { env });
      expect(verbose.exitCode).toBe(0);
      expect(verbose.stdout).toBe(quiet.stdout);
      expect(verbose.stderr).toBe(`note: the cache folder ${cacheDirIn(xdg)} is not used: ${why(xdg)}\n`);
      expect(readdirSync(xdg).filter((name) => name !== 'cip')).toEqual([]);
      if (statSync(cacheDirIn(xdg), { throwIfNoEntry: false })?.isDirectory()) expect(readdirSync(cacheDirIn(xdg))).toEqual([]);
    }
  });

  it.runIf(process.getuid?.() === 0)('is not used in a folder another user owns (root can make one)', async () => {
    const { xdg, env } = folders();
    mkdirSync(cacheDirIn(xdg), { mode: 0o700 });
    execFileSync('chown', ['12345:12345', cacheDirIn(xdg)]);
    const result = await cip(['completion', 'bash', '--verbose'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(`note: the cache folder ${cacheDirIn(xdg)} is not used: it belongs to another user (uid 12345)\n`);
    expect(readdirSync(cacheDirIn(xdg))).toEqual([]);
  });

  it("removes the old layout (the temp folder's cip-compile-cache-<uid>) when it makes the cache folder", async () => {
    const { xdg, tmp, env } = folders();
    const old = join(tmp, `cip-compile-cache-${process.getuid?.() ?? 'user'}`);
    mkdirSync(join(old, 'sea-0.1.0-v20.20.2-x64-1-2', 'vendor'), { recursive: true, mode: 0o700 });
    writeFileSync(join(old, 'sea-0.1.0-v20.20.2-x64-1-2', 'vendor', 'jq-wasm-inline.cjs'), '');
    writeFileSync(join(old, 'cli-0.1.0-v20.20.2-x64-1-2-shared.bin'), '');
    expect((await cip(['help', 'env'], { env })).exitCode).toBe(0);
    expect(readdirSync(tmp)).toEqual([]);
    expect(existsSync(cacheDirIn(xdg))).toBe(true);
  });

  it('is neither read nor written in a folder that others can write to', async () => {
    const { xdg, env } = folders();
    const dir = cacheDirIn(xdg);
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const result = await cip(['help', 'env'], { env });
    expect(result.exitCode).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('NODE_DISABLE_COMPILE_CACHE turns it off', async () => {
    const { xdg, tmp, env } = folders();
    const result = await cip(['help', 'env'], { env: { ...env, NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(result.exitCode).toBe(0);
    expect(readdirSync(xdg)).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
  });
});
