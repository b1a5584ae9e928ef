// The package as npm publishes it: `npm pack` of the built tree, installed globally into a fresh prefix, then
// run from that prefix's bin folder against the sandbox. dist/ bundles everything cip runs, so the package
// declares no runtime dependencies and the install adds cip alone. Skipped, saying why, where npm is missing.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect } from 'vitest';
import { BUILD, sandboxEnv, tempDir } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';

// Each test gets a sandbox of its own (test/helpers/fixture.ts), started this way.
test.override({ sandboxOptions: { seed: 3 } });

function npmVersion(): string | undefined {
  try {
    return execFileSync('npm', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}
const npm = npmVersion();

describe.skipIf(!npm)('the published package', () => {
  it('installs globally from its tarball with nothing else, and runs', { timeout: 120_000 }, async ({ sandbox }) => {
    const work = tempDir('cip-package-');
    // npm's own files (cache, logs) stay in the temporary folder, and nothing asks the registry.
    const env = { PATH: process.env.PATH, HOME: work, npm_config_cache: join(work, 'cache'), npm_config_update_notifier: 'false' };
    // The tree is built already (npm test builds first): --ignore-scripts keeps `prepare` from rebuilding
    // dist/ under the other tests' feet.
    await execa('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: BUILD, env, extendEnv: false });
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    expect(tarball).toBeDefined();
    const prefix = join(work, 'prefix');
    // Optional dependencies (a native keyring) are left out: cip must run without them, and the install stays offline.
    const install = await execa(
      'npm',
      ['install', '--global', '--prefix', prefix, '--offline', '--omit=optional', '--no-audit', '--no-fund', join(work, tarball!)],
      { cwd: work, env, extendEnv: false },
    );
    expect(install.stdout).toMatch(/added 1 package/);

    const installed = join(prefix, 'lib', 'node_modules', 'cip-cli');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { dependencies?: object };
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(existsSync(join(installed, 'node_modules'))).toBe(false);

    const bin = join(prefix, 'bin', 'cip');
    const version = await execa(bin, ['--version'], { env, extendEnv: false });
    expect(version.stdout).toBe(JSON.parse(readFileSync(join(BUILD, 'package.json'), 'utf8')).version as string);
    const list = await execa(bin, ['env', 'list'], {
      env: { ...sandboxEnv(sandbox), ...env, CIP_CONFIG_DIR: join(work, 'config') },
      extendEnv: false,
    });
    expect((JSON.parse(list.stdout) as { id: string }[]).map(({ id }) => id).sort()).toEqual([...sandbox.environments.keys()].sort());
    // --jq runs in a thread of its own (dist/jq-worker.cjs), which ships too.
    const filtered = await execa(bin, ['env', 'list', '--jq', 'length'], {
      env: { ...sandboxEnv(sandbox), ...env, CIP_CONFIG_DIR: join(work, 'config') },
      extendEnv: false,
    });
    expect(filtered.stdout).toBe(String(sandbox.environments.size));
  });
});
if (!npm) it.skip('the published package installs from its tarball (needs npm on PATH)', () => undefined);
