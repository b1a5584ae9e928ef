// @ts-check
// What `npm test` runs before the tests: the type check, then the build. The type check keeps what it learnt in
// node_modules/.cache/cip/, so a second run checks only what changed. ESLint and Prettier's check are
// `npm run lint`, which CI runs before the tests (.ci/run): with type information, ESLint takes as long as the
// type check again, and on two cores that pushed `npm test` past 90 s from a clean clone.
import { spawnSync } from 'node:child_process';

for (const script of ['typecheck', 'build']) {
  const { status } = spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (status !== 0) {
    process.stderr.write(`pretest: 'npm run ${script}' failed (exit ${status ?? 'killed'})\n`);
    process.exit(status ?? 1);
  }
}
