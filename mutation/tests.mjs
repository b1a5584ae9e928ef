// @ts-check
// Which test files a mutation run uses, derived from the tree: the files that can kill a mutant at all, the unit
// tests, and the tests related to the modules mutated (those that import them, and those named for them).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The tests that can kill a mutant: unit and in-process tests, which run src/. Two end-to-end files with many
 * in-process cases come along; the other end-to-end files run only the built binary (dist/, which no mutant
 * reaches), and some of them need more than Stryker's sandbox copy gives.
 */
export const TEST_GLOBS = [
  'test/unit/**/*.test.ts',
  'test/commands/**/*.test.ts',
  'test/promises/**/*.test.ts',
  'test/e2e/safety.test.ts',
  'test/e2e/hostile.test.ts',
];
/**
 * architecture.test.ts reads the source as text, so no mutant can fail it. (The checks of the repository's own
 * tooling, test/tooling/, are not in TEST_GLOBS: they read the build and the scripts.)
 */
export const TEST_EXCLUDES = ['test/promises/architecture.test.ts'];

/** @param {string} dir @returns {string[]} files under dir, relative to the root, with / between names */
function filesUnder(dir) {
  const full = join(ROOT, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** @returns {string[]} the files of TEST_GLOBS, less TEST_EXCLUDES */
export function mutationTests() {
  const tests = [...filesUnder('test/unit'), ...filesUnder('test/commands'), ...filesUnder('test/promises')].filter((file) =>
    file.endsWith('.test.ts'),
  );
  tests.push('test/e2e/safety.test.ts', 'test/e2e/hostile.test.ts');
  return tests.filter((file) => !TEST_EXCLUDES.includes(file)).sort();
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:[^'";]*?\sfrom\s)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** @param {string} file @returns {string[]} the files of this repository that file imports */
function localImports(file) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(IMPORT)]
    .map((match) => match[1] ?? match[2] ?? '')
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) =>
      relative(ROOT, resolve(dirname(join(ROOT, file)), specifier.replace(/\.js$/, '.ts')))
        .split('\\')
        .join('/'),
    );
}

/**
 * The modules of src/ that import one of `modules`, directly or through others, and those modules themselves.
 * @param {string[]} modules
 */
function importers(modules) {
  const sources = filesUnder('src').filter((file) => file.endsWith('.ts'));
  const importedBy = new Map(sources.map((file) => [file, /** @type {string[]} */ ([])]));
  for (const file of sources) for (const target of localImports(file)) importedBy.get(target)?.push(file);
  const found = new Set(modules);
  const queue = [...modules];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const importer of importedBy.get(file) ?? []) {
      if (!found.has(importer)) {
        found.add(importer);
        queue.push(importer);
      }
    }
  }
  return found;
}

/**
 * The tests related to `modules`: those that import one of them, directly or through other modules of src/, and
 * those named for one (`x.ts`: `x.test.ts`, `x-more.test.ts`). Imports through test/helpers/ are not followed:
 * the in-process harness runs the whole program, so every in-process test would count for every module.
 * @param {string[]} modules
 */
export function relatedTests(modules) {
  const reached = importers(modules);
  const names = modules.map((module) => basename(module, '.ts')).filter((name) => name !== 'index');
  return mutationTests().filter((test) => {
    const name = basename(test, '.test.ts');
    if (names.some((module) => name === module || name.startsWith(`${module}-`))) return true;
    return localImports(test).some((file) => reached.has(file));
  });
}

/** @param {'unit' | 'related' | 'all'} kind @param {string[]} modules */
export function testsFor(kind, modules) {
  if (kind === 'all') return mutationTests();
  if (kind === 'unit') return mutationTests().filter((file) => file.startsWith('test/unit/'));
  return relatedTests(modules);
}

/** The modules of src/ a list of Stryker `mutate` patterns names (globs with * and **; `!` leaves out). */
/** @param {string[]} patterns */
export function modulesOf(patterns) {
  /** @param {string} glob */
  const matcher = (glob) =>
    new RegExp(
      `^${glob
        .split(/(\*\*\/|\*\*|\*)/)
        .map((part) =>
          part === '**/' ? '(?:.*/)?' : part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('')}$`,
    );
  const include = patterns.filter((pattern) => !pattern.startsWith('!')).map(matcher);
  const exclude = patterns.filter((pattern) => pattern.startsWith('!')).map((pattern) => matcher(pattern.slice(1)));
  return filesUnder('src').filter(
    (file) => file.endsWith('.ts') && include.some((re) => re.test(file)) && !exclude.some((re) => re.test(file)),
  );
}
