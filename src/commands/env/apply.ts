import { environmentUrl, type EnvironmentsApi, type ListRead } from '../../api/environments.js';
import { defineCommand } from '../define.js';
import { flag } from '../../cli/options.js';
import { ExitOnly, UsageError } from '../../errors.js';
import { OUTPUT_FORMATS } from '../../output/format.js';
import { planStyles, writeRequests, writeResult, type PlannedRequest } from '../../output/writer.js';
import { confirm } from '../../terminal/prompt.js';
import { withSpinner } from '../../terminal/spinner.js';
import { printable } from '../../text/sanitize.js';
import { finishBatch, refuseUnconfirmed, runBatch, stateError, type Batch } from '../../domain/environments/batch.js';
import { readInput } from '../io.js';
import { CONFIRM_OPTION, FILE_OPTION, FORCE_OPTION, KEY_OPTIONS, PRUNE_OPTION, concurrencyOption } from '../options.js';
import { changedError, changedIn, guardedUpdate, holdsAll, sharedRead } from '../../domain/environments/conflict.js';
import { writeTarget } from '../../domain/environments/item.js';
import { mergeDeclared } from '../../domain/environments/merge.js';
import { conflictLine, planConflicts, readExported, sinceError } from '../../domain/environments/since.js';
import { withoutItemTag } from '../../domain/environments/version.js';
import { WIDE_CHANGES, confirmsProfile, guardProtected } from '../../domain/profiles/protect.js';
import {
  SERVER_FIELDS,
  computePlan,
  keptNote,
  planCounts,
  planLines,
  planSize,
  readDocument,
  desiredIn,
  unlistedNote,
  type Plan,
} from '../../domain/environments/plan.js';
import { checkAddressable } from '../../domain/environments/resolve.js';
import { doneText, environmentLabel, idOf, itemText, nameOf, targetText } from '../../domain/environments/target.js';
import { journaledApi } from '../../domain/journal/record.js';
import { undoOfDelete } from '../../domain/journal/restore.js';
import { isRecord } from '../../json/record.js';
import type { Context } from '../../context.js';

type Step =
  | { action: 'create'; key: string; body: Record<string, unknown> }
  | {
      action: 'update';
      key: string;
      id: string;
      body: Record<string, unknown>;
      current: Record<string, unknown>;
      declared: Record<string, unknown>;
    }
  | { action: 'delete'; key: string; id: string; name: string | undefined };

/**
 * What the questions add when the plan deletes: whether the journal can undo the deletions (" Each deleted
 * environment can be re-created from the journal ..."), or that they cannot be undone, and why (no final period).
 */
function deletions(ctx: Context, deleted: readonly { id: string; name: string | undefined }[], server: readonly unknown[]): string {
  if (!deleted.length) return '';
  const records = deleted.map(({ id, name }) => ({
    label: environmentLabel(id, name).replace(/^environment /, ''),
    record: server.find((item): item is Record<string, unknown> => isRecord(item) && idOf(item) === id) ?? {},
  }));
  const one = deleted.length === 1;
  const subject = { cannot: one ? 'The deletion' : 'The deletions', can: one ? 'The deleted environment' : 'Each deleted environment' };
  return ` ${undoOfDelete(ctx, records, subject)}`;
}

/** The plan as the steps a batch runs: creates, then updates, then deletes. */
function stepsOf(plan: Plan): Step[] {
  return [
    ...plan.create.map(({ key: value, record }): Step => ({ action: 'create', key: value, body: record })),
    ...plan.update.map(({ key: value, id, merged, current, declared }): Step => ({
      action: 'update',
      key: value,
      id,
      body: merged,
      current,
      declared,
    })),
    ...plan.delete.map(({ key: value, id, name }): Step => ({ action: 'delete', key: value, id, name })),
  ];
}

/**
 * Runs one step of the plan. An update writes over no change made since the plan's read (--check compares with
 * the list read again; --force skips both), and keeps what the environment holds that the file does not declare.
 */
function applyStep(
  ctx: Context,
  api: EnvironmentsApi,
  {
    checked,
    validator,
    reread,
    force,
    created,
    target,
    single,
  }: {
    checked: unknown[] | undefined;
    validator: string | undefined;
    reread: () => Promise<ListRead>;
    force: boolean;
    created: Map<Step, string | undefined>;
    target: string;
    single: boolean;
  },
) {
  return async (step: Step): ReturnType<Batch<Step>['run']> => {
    if (step.action === 'create') {
      const answer = await api.create(step.body);
      const id = idOf(answer);
      created.set(step, id);
      return { state: 'done', line: itemText(`Created ${environmentLabel(id, step.key)}`, target, single) };
    }
    if (step.action === 'update') {
      const found = { id: step.id, name: nameOf(step.current), record: step.current };
      if (checked) changedIn(checked, { ...found, validator }, ctx.io.redact);
      const written = await writeTarget(api, found, validator, reread, (text) => ctx.detail(text));
      // Read by id, the environment must still hold what the plan read; what else it holds is kept.
      if (!force && written.record !== step.current && !holdsAll(written.record, step.current)) {
        throw changedError({ ...found, validator }, written.record, ctx.io.redact);
      }
      const body = written.record === step.current ? step.body : withoutItemTag(mergeDeclared(written.record, step.declared));
      await guardedUpdate(api, written, body, {
        force,
        compare: false,
        redact: ctx.io.redact,
        reread: written.reread,
        note: (text) => ctx.io.info(text),
        detail: (text) => ctx.detail(text),
      });
      return { state: 'done', line: itemText(`Updated ${environmentLabel(step.id, step.key)}`, target, single) };
    }
    await api.remove(step.id);
    return { state: 'done', line: itemText(`Deleted ${environmentLabel(step.id, step.name ?? step.key)}`, target, single) };
  };
}

export default defineCommand({
  name: 'apply',
  description: 'make the environments match a file: create, update (merging the declared fields) and, with --prune, delete',
  outputs: OUTPUT_FORMATS,
  options: {
    file: FILE_OPTION,
    ...KEY_OPTIONS,
    prune: PRUNE_OPTION,
    yes: flag('-y, --yes', 'do not ask for confirmation (required without a terminal)'),
    dryRun: flag('--dry-run', 'print the requests that would be sent, send nothing'),
    concurrency: concurrencyOption('changes'),
    force: FORCE_OPTION,
    check: flag(
      '--check',
      'without an ETag from the API, read the list again after the question and fail the updates whose environment changed since the plan',
    ),
    confirm: CONFIRM_OPTION,
  },
  notes: `The plan is the one 'env diff' shows, from one read of the list. It is shown, then asked about once at a
terminal (without one, --yes is required). Creates are POSTed; updates send the server's record with the declared
fields set over it (objects field by field, so undeclared fields are kept); deletes happen only with --prune. A second apply of the same
file changes nothing. A value the file shows as the server's value with its keys masked (***), as 'env export'
writes it, is sent back as the server holds it. In JSON output, stdout gets one result per change:
[{"action": "create" | "update" | "delete", "key", "id", "result": "done" | "failed", "error"}].
An update sends the environment's own ETag as If-Match where the API gives one (else the list's): an environment
changed since the plan was read is that update's failure (exit 6), never overwritten. Without an ETag, --check
reads the list once more after the question and fails the updates whose environment changed. A file from 'env
export' says what it read ('exported:'): a plan that would put back a field changed on the server since, or
--prune an environment created or changed since, is refused before anything is sent (exit 6). --force skips all
of these (docs/concurrency.md).
Exit codes: 0 when every change was made; 9 when some failed; when all failed, the failure's code.
In a protected profile ('cip auth protect'), a plan that deletes or makes more than 10 changes asks for the
profile's name, --yes or not; a script passes --confirm NAME.`,
  examples: [
    'cip env apply --file environments.yaml',
    'cip env apply --file environments.yaml --prune --yes',
    'cip env apply --file environments.yaml --dry-run',
  ],
  async run(ctx, { file, key, ignoreFields, prune, yes, dryRun, concurrency, force, check, confirm: confirmName }) {
    if (force && check) throw new UsageError('--force and --check cannot be combined', '--force skips the check');
    if (file === undefined) throw new UsageError('give the file of environments with --file');
    const { document, source } = await readDocument((path) => readInput(ctx, path, '--file'), file);
    const desired = desiredIn(document, source, key);
    const exported = readExported(document, source);
    const api = journaledApi(ctx, await ctx.api(), 'env apply');
    const target = targetText(api.settings);
    const named = confirmsProfile(api.settings, confirmName);
    if (!yes && !named && !dryRun && !ctx.io.canPrompt) {
      throw refuseUnconfirmed(ctx, `apply changes ${target}`, "pass --yes to confirm, or see the plan with 'cip env diff'");
    }
    const { items: server, validator } = await withSpinner(ctx.io, 'Loading environments', () => api.read());
    const plan = computePlan(desired, server, { key, ignored: ignoreFields ?? SERVER_FIELDS, prune, redact: ctx.io.redact });
    for (const { id, current } of plan.update) checkAddressable({ id, name: nameOf(current) });
    for (const { id, name } of plan.delete) checkAddressable({ id, name });
    // A file written before someone changed what it declares would undo that change: refused, nothing sent.
    if (!force) {
      const ignored = ignoreFields ?? SERVER_FIELDS;
      const conflicts = planConflicts(ctx, plan, exported, api.settings, { key, ignored, server });
      const refused = conflicts.filter((conflict) => conflict.refused);
      for (const conflict of conflicts) if (!conflict.refused) ctx.io.info(`Note: ${conflictLine(conflict, key)}.`);
      if (refused.length > 1) for (const conflict of refused) ctx.io.warn(conflictLine(conflict, key));
      if (refused.length) throw sinceError(refused, key);
    }
    const kept = keptNote(plan, key);
    if (kept) ctx.io.info(kept);
    // Said after the plan, before any question: what the file leaves out stays (only --prune deletes).
    const unlisted = unlistedNote(plan);
    if (!planSize(plan)) {
      ctx.io.info(`No changes: the environments ${target} match the file.`);
      if (unlisted) ctx.io.info(unlisted);
      if (!dryRun) await writeResult(ctx.io, []);
      return;
    }
    const steps = stepsOf(plan);
    if (dryRun) {
      const base = api.settings.baseUrl;
      const requests = steps.map((step): PlannedRequest => {
        if (step.action === 'create') return { method: 'POST', url: environmentUrl(base), body: step.body };
        if (step.action === 'update') return { method: 'PUT', url: environmentUrl(base, step.id), body: step.body };
        return { method: 'DELETE', url: environmentUrl(base, step.id) };
      });
      await writeRequests(ctx.io, requests);
      ctx.io.info(doneText(`Dry run: nothing was sent. Plan: ${planCounts(plan)}`, target));
      if (unlisted) ctx.io.info(unlisted);
      return;
    }
    const styles = await planStyles(ctx.io, ctx.io.stderrIsTTY);
    ctx.io.info(`${planLines(plan, key, styles, ctx.io).join('\n')}\nPlan: ${planCounts(plan)}.`);
    if (unlisted) ctx.io.info(unlisted);
    // A plan that deletes, or changes more than a few, asks a protected profile's name instead, whatever --yes says.
    const wide = plan.delete.length > 0 || planSize(plan) > WIDE_CHANGES;
    const undo = deletions(ctx, plan.delete, server);
    const change = `apply this plan (${planCounts(plan)})${undo ? `.${undo}` : ''}`;
    const typed = wide && (await guardProtected(ctx, api.settings, { change, confirm: confirmName, yes }));
    if (!yes && !named && !typed && !(await confirm(ctx.io, `Apply ${planCounts(plan)} ${target}?${undo}${undo ? '.' : ''}`))) {
      ctx.io.info('Nothing was changed.');
      throw new ExitOnly('usage', 'nothing changed: not confirmed');
    }

    const reread = sharedRead(() => api.read());
    // --check without a validator: the list once more, after the question, for every update to compare with.
    const checked =
      check && validator === undefined && plan.update.length
        ? (await withSpinner(ctx.io, 'Reading the environments again', reread)).items
        : undefined;
    const labelOf = (step: Step) => `${step.action} ${printable(key)} '${printable(step.key)}'`;
    const created = new Map<Step, string | undefined>();
    const single = steps.length === 1;
    const { states, interrupted } = await runBatch(ctx, {
      items: steps,
      concurrency,
      verb: 'Applying',
      describe: labelOf,
      run: applyStep(ctx, api, { checked, validator, reread, force, created, target, single }),
    });
    await writeResult(
      ctx.io,
      steps.map((step, index) => {
        const state = states[index]!;
        return {
          action: step.action,
          key: step.key,
          id: step.action === 'create' ? (created.get(step) ?? null) : step.id,
          result: state.state === 'failed' || state.state === 'under-way' || state.state === 'not-attempted' ? 'failed' : 'done',
          error: stateError(ctx, state, 'applied'),
        };
      }),
    );
    finishBatch(ctx, { names: steps.map(labelOf), states, interrupted, doneWord: 'applied', target });
  },
});
