import { defineCommand } from '../define.js';
import { writeList } from '../../output/writer.js';
import { withSpinner } from '../../terminal/spinner.js';
import { COLUMNS_OPTION } from '../options.js';
import { OUTPUT_FORMATS } from '../../output/format.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  description: 'list all environments',
  outputs: OUTPUT_FORMATS,
  options: { columns: COLUMNS_OPTION },
  notes: `A list that the API answers in pages (@odata.nextLink, nextLink, next, or a Link header) is read to its
end; next links must stay on the base URL's origin.`,
  examples: [
    'cip env list',
    'cip env list --columns id,name,settings.retention',
    "cip env list --json | jq -r '.[].id'",
    'cip env list --json --columns id,name',
  ],
  async run(ctx, { columns }) {
    const api = await ctx.api();
    const environments = await withSpinner(ctx.io, 'Loading environments', () => api.list());
    await writeList(ctx.io, environments, { columns, emptyMessage: 'No environments yet. Create one with: cip env create -f name=<name>' });
  },
});
