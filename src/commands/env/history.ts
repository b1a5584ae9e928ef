import { defineCommand } from '../define.js';
import { argument, completedFrom } from '../../cli/options.js';
import { limitOption } from '../options.js';
import { DOCUMENT_FORMATS } from '../../output/format.js';
import { writeResult } from '../../output/writer.js';
import { printable } from '../../text/sanitize.js';
import { readEntries, type JournalEntry } from '../../domain/journal/entry.js';
import { historyLines } from '../../domain/journal/view.js';

const DEFAULT_LIMIT = 20;

/** Whether an entry is about the environment given by id or name, as the journal recorded it. */
function about(entry: JournalEntry, idOrName: string): boolean {
  const { id, name } = entry.environment;
  return id === idOrName || name === idOrName || entry.answeredId === idOrName;
}

export default defineCommand({
  name: 'history',
  description: 'list the changes cip sent, newest first, from the local journal (reads no network)',
  outputs: ['table', ...DOCUMENT_FORMATS],
  args: { idOrName: completedFrom('environments', argument('[id-or-name]', 'only the entries about this environment id or name')) },
  options: {
    limit: limitOption('entries', DEFAULT_LIMIT),
  },
  notes: `Every write cip sends (env create, update, delete, apply, restore, and cip api with POST, PUT, PATCH or
DELETE) is recorded in the journal before it is sent, and its outcome once it is known. RESULT is done, failed,
or unknown: cip was stopped, or the answer was lost, before the API said. 'cip env restore ENTRY' undoes an
entry. In JSON, each entry has every field recorded: the request as sent, the record as it was before, the
answer. The journal is journal.jsonl in the config folder (see 'cip help environment' for its bounds).`,
  examples: ['cip env history', 'cip env history staging --limit 5', "cip env history --json | jq '.[0].before'"],
  async run(ctx, { idOrName, limit }) {
    const all = await readEntries(ctx);
    const chosen = (idOrName === undefined ? all : all.filter((entry) => about(entry, idOrName))).reverse();
    const shown = limit === 0 ? chosen : chosen.slice(0, limit);
    if (!shown.length) {
      ctx.io.info(
        idOrName === undefined ? 'The journal holds no changes yet.' : `The journal holds no changes to '${printable(idOrName)}'.`,
      );
    } else if (shown.length < chosen.length) {
      ctx.io.info(`The newest ${shown.length} of ${chosen.length} entries; --limit 0 shows all.`);
    }
    await writeResult(ctx.io, shown, () => historyLines(shown, ctx.io));
  },
});
