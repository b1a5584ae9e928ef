// --columns, as list and get take it: checked against the data by the writer (output/columns.ts).
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
