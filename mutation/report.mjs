// @ts-check
// `npm run mutation -- report [REPORT] [--file TEXT] [--list]`: scores from a StrykerJS JSON report, per file and
// in all, and the mutants still alive. REPORT defaults to reports/mutation/mutation.json. The score is Stryker's:
// killed and timed-out mutants over those killed, timed out, survived or not covered (ignored, static and
// compile-error ones are left out).
import { readFileSync } from 'node:fs';

/** @typedef {{ line: number, column: number }} Position */
/** @typedef {{ id: string, mutatorName: string, replacement?: string, status: string, location: { start: Position, end: Position } }} Mutant */
/** @typedef {{ source: string, mutants: Mutant[] }} FileResult */

const DETECTED = new Set(['Killed', 'Timeout']);
const ALIVE = new Set(['Survived', 'NoCoverage']);

/** @param {string} name @param {FileResult} file @param {boolean} list @returns {[number, number]} detected and valid */
function reportFile(name, file, list) {
  const detected = file.mutants.filter((mutant) => DETECTED.has(mutant.status)).length;
  const alive = file.mutants.filter((mutant) => ALIVE.has(mutant.status));
  const valid = detected + alive.length;
  const score = valid === 0 ? 'n/a' : `${((100 * detected) / valid).toFixed(1)}%`;
  console.log(`${name}: ${score} (${detected}/${valid}; ${alive.filter((m) => m.status === 'NoCoverage').length} not covered)`);
  if (list) {
    const lines = file.source.split('\n');
    for (const mutant of alive.sort((a, b) => a.location.start.line - b.location.start.line)) {
      const { line, column } = mutant.location.start;
      const replacement = JSON.stringify(mutant.replacement ?? '').slice(0, 120);
      console.log(
        `  ${mutant.id} L${line}:${column} ${mutant.status} ${mutant.mutatorName}: ${replacement} | ${(lines[line - 1] ?? '').trim().slice(0, 100)}`,
      );
    }
  }
  return [detected, valid];
}

/** @param {string[]} args */
export function report(args) {
  const fileAt = args.indexOf('--file');
  const filter = fileAt >= 0 ? args[fileAt + 1] : undefined;
  const list = args.includes('--list');
  const reportPath =
    args.find((arg, index) => !arg.startsWith('--') && (fileAt < 0 || index !== fileAt + 1)) ?? 'reports/mutation/mutation.json';
  /** @type {{ files: Record<string, FileResult> }} */
  const parsed = JSON.parse(readFileSync(reportPath, 'utf8'));
  let detectedAll = 0;
  let validAll = 0;
  for (const [name, file] of Object.entries(parsed.files).sort(([a], [b]) => a.localeCompare(b))) {
    if (filter !== undefined && !name.includes(filter)) continue;
    const [detected, valid] = reportFile(name, file, list);
    detectedAll += detected;
    validAll += valid;
  }
  console.log(`all: ${validAll === 0 ? 'n/a' : `${((100 * detectedAll) / validAll).toFixed(1)}%`} (${detectedAll}/${validAll})`);
}
