import { defineCommand } from '../define.js';
import { argument, completedFrom } from '../../cli/options.js';
import { writeRecord } from '../../output/writer.js';
import { COLUMNS_OPTION } from '../options.js';
import { resolveOne } from '../../domain/environments/resolve.js';
import { OUTPUT_FORMATS } from '../../output/format.js';

export default defineCommand({
  name: 'get',
  description: 'show one environment, by id or name',
  outputs: OUTPUT_FORMATS,
  args: { idOrName: completedFrom('environments', argument('<id-or-name>', 'environment id, or its exact name')) },
  options: { columns: COLUMNS_OPTION },
  notes: `The API has no read of one environment, so cip reads the list and picks the one whose id is <id-or-name>,
else the one whose name is. A name that two environments share is refused (exit 2) with their ids; none is exit 5.`,
  examples: [
    'cip env get staging',
    'cip env get 7d1c... --json | jq .description',
    'cip env get staging --columns id,name,settings.retention',
  ],
  async run(ctx, { idOrName, columns }) {
    const api = await ctx.api();
    const { record } = await resolveOne(ctx, api, idOrName);
    await writeRecord(ctx.io, record, columns);
  },
});
