// Runs once per `vitest run` of either loop (vitest.config.ts, vitest.e2e.config.ts), before any test file:
// - copies the built program (bin/, dist/, package.json and what the package ships) into a folder of this run,
//   .test-build/<run>/, which every test runs: a rebuild of dist/ while the tests run (`npm run build` in
//   another shell, an editor's watcher, a second `npm test`) then cannot pull files from under a spawned cip.
//   The folder is inside the checkout, so the keychain helper still finds @napi-rs/keyring in node_modules.
//   Beside it, the cache and temp folders of this run's spawned cips (test/helpers/cli.ts).
// - puts the folder of the Node running the tests first on PATH: the tests start `node`, npm and the installed
//   cip (#!/usr/bin/env node) by name, and each must be the Node under test, also when vitest was started by a
//   node's path with another node first on PATH (CI runs the suite on several: .ci/run).
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** What a run of the tests needs of the built tree: the package as npm packs it, and the demo script. */
const SNAPSHOT = ['bin', 'dist', 'completions', 'package.json', 'README.md', 'LICENSE', join('scripts', 'demo.mjs')];

export default function setup(): () => void {
  if (!existsSync(join(ROOT, 'dist', 'main.cjs'))) throw new Error('dist/ is not built: run `npm run build` (npm test builds first)');
  const build = join(ROOT, '.test-build', `${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(join(build, 'scripts'), { recursive: true });
  for (const entry of SNAPSHOT) cpSync(join(ROOT, entry), join(build, entry), { recursive: true, preserveTimestamps: true });
  // The cache and temp folders spawned cips share (test/helpers/cli.ts), private as cip wants a cache's folder.
  for (const folder of ['cache', 'tmp']) mkdirSync(join(build, folder), { mode: 0o700 });
  // Test workers start after this and inherit these (test/helpers/cli.ts reads CIP_TEST_BUILD).
  process.env.CIP_TEST_BUILD = build;
  process.env.PATH = [dirname(process.execPath), process.env.PATH].filter(Boolean).join(delimiter);
  return () => rmSync(build, { recursive: true, force: true });
}
