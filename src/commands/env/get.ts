import { defineCommand } from '../define.js';
import { argument, completedFrom } from '../../cli/options.js';
import { writeRecord } from '../../output/writer.js';
import { COLUMNS_OPTION } from '../options.js';
import { resolveOne } from '../../domain/environments/resolve.js';
import { itemView } from '../../domain/environments/item.js';
import { DOCUMENT_FORMATS, OUTPUT_FORMATS } from '../../output/format.js';

export default defineCommand({
  name: 'get',
  description: 'show one environment, by id or name',
  outputs: OUTPUT_FORMATS,
  args: { idOrName: completedFrom('environments', argument('<id-or-name>', 'environment id, or its exact name')) },
  options: { columns: COLUMNS_OPTION },
  notes: `The published API has no read of one environment, so cip reads the list and picks the one whose id is
<id-or-name>, else the one whose name is. A name that two environments share is refused (exit 2) with their ids;
none is exit 5. Where the record carries no version of its own (an updatedAt, a rowVersion, ...) and the API has
GET {base}/Environments/{id}, the environment is read there too, and JSON or YAML shows its ETag as @odata.etag:
'env update --file' from such a file refuses to undo a change made since.`,
  examples: [
    'cip env get staging',
    'cip env get 7d1c... --json | jq .description',
    'cip env get staging --columns id,name,settings.retention',
  ],
  async run(ctx, { idOrName, columns }) {
    const api = await ctx.api();
    const found = await resolveOne(ctx, api, idOrName);
    await writeRecord(ctx.io, await itemView(api, found, (DOCUMENT_FORMATS as readonly string[]).includes(ctx.io.outputFormat)), columns);
  },
});
