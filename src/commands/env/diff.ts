import { defineCommand } from '../define.js';
import { flag } from '../../cli/options.js';
import { CipError, ExitOnly } from '../../errors.js';
import { DOCUMENT_FORMATS } from '../../output/format.js';
import { planStyles, writeResult } from '../../output/writer.js';
import { withSpinner } from '../../terminal/spinner.js';
import { readInput } from '../io.js';
import { FILE_OPTION, KEY_OPTIONS, PRUNE_OPTION } from '../options.js';
import {
  SERVER_FIELDS,
  computePlan,
  keptNote,
  planCounts,
  planData,
  planLines,
  planSize,
  readDocument,
  desiredIn,
  unlistedNote,
} from '../../domain/environments/plan.js';
import { conflictLine, planConflicts, readExported } from '../../domain/environments/since.js';

export default defineCommand({
  name: 'diff',
  aliases: ['plan'],
  description: 'show what apply would change to make the environments match a file',
  // A plan is no rows: lines for people, or a document.
  outputs: ['table', ...DOCUMENT_FORMATS],
  options: {
    file: FILE_OPTION,
    ...KEY_OPTIONS,
    prune: PRUNE_OPTION,
    exitCode: flag('--exit-code', 'exit 10 when there are changes, 0 when the environments match'),
  },
  notes: `Records are matched by --key (default name). Only the fields the file declares are compared: a field the
server has and the file does not is left alone, and a value the file shows masked (***, as 'env export' writes a
key) is the server's. Deletes are planned only with --prune. At a terminal the plan is
coloured (+ create, ~ update with each field's old → new, - delete); otherwise it is JSON:
{"create": [...], "update": [{"key", "id", "changes": {"field": {"old", "new"}}}], "delete": [{"key", "id", "name"}],
"unlisted": [{"key", "id", "name"}], "conflicts": [{"key", "id", "reason"}]}: "unlisted" holds, without --prune, the
environments the file does not list (left alone; --prune would delete them), and a note on stderr counts them;
"conflicts" the changes apply would refuse to make, since they would undo a change made after the file was
written (its 'exported:' section, docs/concurrency.md).`,
  examples: [
    'cip env diff --file environments.yaml',
    'cip env diff --file environments.yaml --prune --exit-code',
    "cip env plan --file environments.json --json | jq '.update[].key'",
  ],
  async run(ctx, { file, key, ignoreFields, prune, exitCode }) {
    if (file === undefined) throw new CipError('usage', 'give the file of environments with --file');
    const { document, source } = await readDocument((path) => readInput(ctx, path, '--file'), file);
    const desired = desiredIn(document, source, key);
    const exported = readExported(document, source);
    const api = await ctx.api();
    const server = await withSpinner(ctx.io, 'Loading environments', () => api.list());
    const ignored = ignoreFields ?? SERVER_FIELDS;
    const plan = computePlan(desired, server, { key, ignored, prune, redact: ctx.io.redact });
    const conflicts = planConflicts(ctx, plan, exported, api.settings, { key, ignored, server });
    const data = { ...(planData(plan) as Record<string, unknown>), conflicts };
    await writeResult(ctx.io, data, async () => {
      const styles = await planStyles(ctx.io, ctx.io.stdoutIsTTY);
      return [
        ...planLines(plan, key, styles, ctx.io),
        ...conflicts.map((conflict) => (conflict.refused ? styles.remove : styles.change)(`! ${conflictLine(conflict, key)}`)),
      ];
    });
    const refused = conflicts.filter((conflict) => conflict.refused).length;
    if (refused) {
      const count = refused === 1 ? '1 change' : `${refused} changes`;
      ctx.io.info(`${count} would undo what was changed since the file was written: apply would refuse (--force applies the file anyway).`);
    }
    const kept = keptNote(plan, key);
    if (kept) ctx.io.info(kept);
    ctx.io.info(planSize(plan) ? `Plan: ${planCounts(plan)}.` : 'No changes: the environments match the file.');
    const unlisted = unlistedNote(plan);
    if (unlisted) ctx.io.info(unlisted);
    // Drift is what --exit-code looks for, not a failure: the plan line above says it, the code tells a script.
    if (exitCode && planSize(plan)) throw new ExitOnly('changes', `the environments differ from the file: ${planCounts(plan)}`);
  },
});
