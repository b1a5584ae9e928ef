// @ts-check
// What `npm test` runs before the tests: the type check, then the build. The type check keeps what it learnt in
// node_modules/.cache/cip/, so a second run checks only what changed. ESLint and Prettier's check are
// `npm run lint`, which CI runs before the tests (.ci/run): with type information, ESLint takes as long as the
// type check again, and on two cores that pushed `npm test` past 90 s from a clean clone.
// First, the Node it runs on: on one cip does not support (package.json's engines), the suite would fail in
// hundreds of places for one reason, so it stops here and says how to run it on a supported one.
import { spawnSync } from 'node:child_process';
import { SUPPORTED, supports } from './engines.mjs';

if (!supports(SUPPORTED, process.versions.node)) {
  process.stderr.write(
    `pretest: cip supports Node ${SUPPORTED} (package.json engines), and this is Node ${process.versions.node}: ` +
      'put a supported node first on PATH and run npm test again, or run `npm run test:node -- 24` ' +
      '(on Linux x64: fetches the Node 24 that CI pins in .ci/node-versions and runs npm test on it)\n',
  );
  process.exit(1);
}

for (const script of ['typecheck', 'build']) {
  const { status } = spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (status !== 0) {
    process.stderr.write(`pretest: 'npm run ${script}' failed (exit ${status ?? 'killed'})\n`);
    process.exit(status ?? 1);
  }
}
