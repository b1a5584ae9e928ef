import { InvalidArgumentError } from 'commander';
import { defineCommand } from '../define.js';
import { option } from '../../cli/options.js';
import { writeList } from '../../output/writer.js';
import { withSpinner } from '../../terminal/spinner.js';

function parseColumns(value: string): string[] {
  const columns = value
    .split(',')
    .map((column) => column.trim())
    .filter(Boolean);
  if (!columns.length) throw new InvalidArgumentError('expected a comma-separated list of field names');
  return columns;
}

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  description: 'list all environments',
  options: {
    columns: option('--columns <fields>', 'comma-separated fields to show in the table', parseColumns),
  },
  examples: ['cip env list', 'cip env list --columns id,name,type', "cip env list --json | jq -r '.[].id'"],
  async run(ctx, { columns }) {
    const api = await ctx.api();
    const environments = await withSpinner(ctx.io, 'Loading environments', () => api.list());
    await writeList(ctx.io, environments, { columns, emptyMessage: 'No environments yet. Create one with: cip env create -f name=<name>' });
  },
});
