// The Node versions cip supports (package.json engines, read by scripts/engines.mjs), the ones CI runs the suite
// on (.ci/node-versions), and the Node a test starts: they must agree, or CI tests something users do not run.
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: scripts are plain JavaScript (checked by their own // @ts-check)
import * as engines from '../../scripts/engines.mjs';
import { ROOT } from '../helpers/cli.js';

const { SUPPORTED, lowest, supports } = engines as {
  SUPPORTED: string;
  lowest: (range: string) => string;
  supports: (range: string, version: string) => boolean;
};

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
/** The versions .ci/node-versions pins, oldest first. */
const pinned = readFileSync(join(ROOT, '.ci', 'node-versions'), 'utf8')
  .split('\n')
  .filter((line) => line !== '' && !line.startsWith('#'))
  .map((line) => line.split(' ')[0]!);
const major = (version: string) => Number(version.split('.')[0]);

describe('the supported Node versions', () => {
  it.each([
    ['20.20.2', false],
    ['22.21.0', false],
    ['22.22.1', true],
    ['22.23.5', true],
    ['23.11.1', false],
    ['24.4.1', false],
    ['24.13.0', false],
    ['24.13.1', true],
    ['25.9.0', false],
    ['26.0.0', true],
    ['27.1.0', true],
  ])('engines.node: %s is %s', (version, supported) => {
    expect(supports('^22.22.1 || ^24.13.1 || >=26.0.0', version)).toBe(supported);
  });

  it('a range the check cannot read is an error, not a pass', () => {
    expect(() => supports('>=22 <27', '24.1.0')).toThrow(/'>=22 <27' is not '\^X\.Y\.Z' or '>=X\.Y\.Z'/);
    expect(() => supports('22.x', '22.1.0')).toThrow(/is not/);
  });

  it('the lowest is the one the build targets', () => {
    expect(lowest('^24.13.1 || ^22.22.1 || >=26.0.0')).toBe('22.22.1');
  });

  it('CI runs the suite on a supported version of each release line engines names, oldest first', () => {
    for (const version of pinned) expect(supports(SUPPORTED, version), version).toBe(true);
    const lines = [...SUPPORTED.matchAll(/(\d+)\.\d+\.\d+/g)].map((match) => Number(match[1]));
    expect(pinned.map(major)).toEqual(lines);
  });

  it("@types/node is the oldest supported line's, so the type check catches an API that line lacks", () => {
    expect(pkg.devDependencies['@types/node']).toMatch(new RegExp(`^\\^${major(lowest(SUPPORTED))}\\.`));
  });

  it('this run is on a supported Node (npm test stops before the tests on another: scripts/pretest.mjs)', () => {
    expect(supports(SUPPORTED, process.versions.node), process.version).toBe(true);
  });

  it('a `node` a test starts by name is the Node the tests run on (test/helpers/global-setup.ts)', async () => {
    const { stdout } = await execa('node', ['-p', 'process.execPath'], { env: { PATH: process.env.PATH }, extendEnv: false });
    expect(realpathSync(stdout)).toBe(realpathSync(process.execPath));
  });
});
