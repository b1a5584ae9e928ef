// @ts-check
// What `npm test` runs before the tests: ESLint in one chain; the type check and the build in another, side by
// side (they use different cores). Each chain's output is shown when it ends; any failure fails the run.
// Both keep what they learnt in node_modules/.cache/cip/, so a second run checks only what changed.
// Prettier's check (layout, not correctness) is `npm run lint`, which CI runs too (.ci/run).
import { spawn } from 'node:child_process';

/** @param {string} name @param {string[][]} steps */
async function chain(name, steps) {
  let output = '';
  for (const [command, ...args] of steps) {
    const code = await new Promise((resolve) => {
      const child = spawn(command ?? 'npm', args, { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('close', resolve);
    });
    if (code !== 0) {
      process.stderr.write(`${output}\n${name}: '${[command, ...args].join(' ')}' failed (exit ${code})\n`);
      return false;
    }
  }
  process.stdout.write(output);
  return true;
}

const results = await Promise.all([
  chain('eslint', [['npm', 'run', '--silent', 'lint:code']]),
  chain('typecheck, build', [
    ['npm', 'run', '--silent', 'typecheck'],
    ['npm', 'run', '--silent', 'build'],
  ]),
]);
process.exitCode = results.every(Boolean) ? 0 : 1;
