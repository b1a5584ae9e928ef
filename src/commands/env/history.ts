import { defineCommand } from '../define.js';
import { argument, completedFrom } from '../../cli/options.js';
import { COLUMNS_OPTION, limitOption } from '../options.js';
import { OUTPUT_FORMATS } from '../../output/format.js';
import { writeList } from '../../output/writer.js';
import { printable } from '../../text/sanitize.js';
import { readEntries, type JournalEntry } from '../../domain/journal/entry.js';
import { historyLines } from '../../domain/journal/view.js';

const DEFAULT_LIMIT = 20;

/** The fields -o tsv writes when --columns names none: what the table shows, as data. */
const TSV_COLUMNS = [
  'entry',
  'at',
  'action',
  'command',
  'environment.id',
  'environment.name',
  'profile',
  'enterprise',
  'result',
  'status',
  'answeredId',
];

/** Whether an entry is about the environment given by id or name, as the journal recorded it. */
function about(entry: JournalEntry, idOrName: string): boolean {
  const { id, name } = entry.environment;
  return id === idOrName || name === idOrName || entry.answeredId === idOrName;
}

export default defineCommand({
  name: 'history',
  description: 'list the changes cip sent, newest first, from the local journal (reads no network)',
  outputs: OUTPUT_FORMATS,
  args: { idOrName: completedFrom('environments', argument('[id-or-name]', 'only the entries about this environment id or name')) },
  options: {
    limit: limitOption('entries', DEFAULT_LIMIT),
    columns: COLUMNS_OPTION,
  },
  notes: `Every write cip sends (env create, update, delete, apply, restore, and cip api with POST, PUT, PATCH or
DELETE) is recorded in the journal before it is sent, and its outcome once it is known. RESULT is done, failed,
or unknown: cip was stopped, or the answer was lost, before the API said. 'cip env restore ENTRY' undoes an
entry. WHEN is in UTC, to the second. In JSON and YAML, each entry has every field recorded: the request as sent,
the record as it was before, the answer. -o tsv writes ${TSV_COLUMNS.join(', ')}; --columns names other fields
(environment.name, request.method, ...) for every format, the table too. The journal is journal.jsonl in the
config folder (see 'cip help environment' for its bounds).`,
  examples: [
    'cip env history',
    'cip env history staging --limit 5',
    "cip env history --json | jq '.[0].before'",
    'cip env history -o tsv --columns entry,at,action,result',
  ],
  async run(ctx, { idOrName, limit, columns }) {
    const all = readEntries(ctx);
    const chosen = (idOrName === undefined ? all : all.filter((entry) => about(entry, idOrName))).reverse();
    const shown = limit === 0 ? chosen : chosen.slice(0, limit);
    if (!shown.length) {
      ctx.io.info(
        idOrName === undefined ? 'The journal holds no changes yet.' : `The journal holds no changes to '${printable(idOrName)}'.`,
      );
    } else if (shown.length < chosen.length) {
      ctx.io.info(`The newest ${shown.length} of ${chosen.length} entries; --limit 0 shows all.`);
    }
    await writeList(ctx.io, shown, { columns, tableColumns: TSV_COLUMNS, view: () => historyLines(shown, ctx.io) });
  },
});
