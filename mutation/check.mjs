// @ts-check
// `npm run mutation -- check REPORT src/FILE.ts [--ids 12,13] [-- TEST_FILE...]`: checks mutants by hand. For
// each mutant still alive in a StrykerJS report (or the ids given), writes it over the source file, runs the tests
// (vitest, stopping at the first failure, 120 s at most), and puts the file back. Without test files named, the
// module's related tests (mutation/tests.mjs) run. Run it with nothing else running the tests; the source file
// must still be the one the report measured. It answers far faster than a StrykerJS run for a module that every
// in-process test reaches, because only those tests run; a mutant it reports killed is killed.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { relatedTests } from './tests.mjs';

/** @typedef {{ line: number, column: number }} Position */
/** @typedef {{ id: string, mutatorName: string, replacement?: string, status: string, location: { start: Position, end: Position } }} Mutant */

/** @param {string[]} args @param {(message: string) => never} usage */
function parse(args, usage) {
  const dash = args.indexOf('--');
  const head = dash >= 0 ? args.slice(0, dash) : args;
  const [reportPath, sourcePath] = head;
  if (reportPath === undefined || sourcePath === undefined) usage('check needs a report and a source file');
  const idsAt = head.indexOf('--ids');
  const ids = idsAt >= 0 ? new Set((head[idsAt + 1] ?? '').split(',')) : undefined;
  const tests = dash >= 0 ? args.slice(dash + 1) : relatedTests([sourcePath]);
  if (tests.length === 0) usage(`no test file is related to ${sourcePath}: name some after --`);
  return { reportPath, sourcePath, ids, tests };
}

/** @param {string[]} args @param {(message: string) => never} usage */
export function check(args, usage) {
  const { reportPath, sourcePath, ids, tests } = parse(args, usage);
  /** @type {{ files: Record<string, { source: string, mutants: Mutant[] }> }} */
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  const entry = report.files[sourcePath];
  if (entry === undefined) usage(`${sourcePath} is not in ${reportPath}`);
  const original = readFileSync(sourcePath, 'utf8');
  if (original !== entry.source) usage(`${sourcePath} has changed since the report was made; measure it again`);
  const lineStarts = [0];
  for (let index = 0; index < original.length; index++) if (original[index] === '\n') lineStarts.push(index + 1);
  /** @param {Position} position */
  const offset = (position) => (lineStarts[position.line - 1] ?? 0) + position.column - 1;
  const mutants = entry.mutants.filter((mutant) =>
    ids ? ids.has(String(mutant.id)) : mutant.status === 'Survived' || mutant.status === 'NoCoverage',
  );
  const restore = () => writeFileSync(sourcePath, original);
  process.on('SIGINT', () => {
    restore();
    process.exit(130);
  });
  let killed = 0;
  try {
    for (const mutant of mutants) {
      const replacement = mutant.replacement ?? '';
      writeFileSync(
        sourcePath,
        original.slice(0, offset(mutant.location.start)) + replacement + original.slice(offset(mutant.location.end)),
      );
      const result = spawnSync('npx', ['vitest', 'run', '--bail', '1', '--reporter', 'dot', ...tests], {
        encoding: 'utf8',
        timeout: 120_000,
      });
      const dead = result.status !== 0;
      if (dead) killed++;
      const where = `L${mutant.location.start.line}:${mutant.location.start.column}`;
      console.log(
        `${dead ? 'killed  ' : 'survived'} ${mutant.id} ${where} ${mutant.mutatorName}: ${JSON.stringify(replacement).slice(0, 100)}`,
      );
    }
  } finally {
    restore();
  }
  console.log(`${killed}/${mutants.length} killed by ${tests.join(' ')}`);
}
