// Options several env commands share: --columns (list, get), checked against the data by the writer
// (output/columns.ts), and --concurrency (delete, apply).
import { InvalidArgumentError } from 'commander';
import { option } from '../../cli/options.js';

function parseColumns(value: string): string[] {
  const columns = value
    .split(',')
    .map((column) => column.trim())
    .filter(Boolean);
  if (!columns.length) throw new InvalidArgumentError('expected a comma-separated list of field names');
  return columns;
}

export const COLUMNS_OPTION = option(
  '--columns <fields>',
  'comma-separated fields to show, in any letter case; dots reach nested fields (settings.retention); applies to JSON too',
  parseColumns,
);

const MAX_CONCURRENCY = 32;

function parseConcurrency(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > MAX_CONCURRENCY) {
    throw new InvalidArgumentError(`expected a whole number from 1 to ${MAX_CONCURRENCY}`);
  }
  return value;
}

/** --concurrency for work on many environments (commands/env/batch.ts). */
export function concurrencyOption(what: string) {
  return option('--concurrency <n>', `${what} under way at once (1-${MAX_CONCURRENCY})`, parseConcurrency, 4);
}
