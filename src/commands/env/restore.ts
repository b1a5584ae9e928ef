import { environmentUrl, type EnvironmentsApi } from '../../api/environments.js';
import { defineCommand } from '../define.js';
import { argument, flag } from '../../cli/options.js';
import { CipError, ExitOnly, UsageError } from '../../errors.js';
import { OUTPUT_FORMATS } from '../../output/format.js';
import { writeRecord, writeRequests, writeResult } from '../../output/writer.js';
import { confirm } from '../../terminal/prompt.js';
import { withSpinner } from '../../terminal/spinner.js';
import { printable } from '../../text/sanitize.js';
import { refuseUnconfirmed } from '../../domain/environments/batch.js';
import { checkAddressable, readForLookup } from '../../domain/environments/resolve.js';
import { guardedUpdate } from '../../domain/environments/conflict.js';
import { writeTarget, type WriteTarget } from '../../domain/environments/item.js';
import { isRecord } from '../../json/record.js';
import { doneText, environmentLabel, idOf, nameOf, targetText } from '../../domain/environments/target.js';
import { readEntries } from '../../domain/journal/entry.js';
import { journaledApi } from '../../domain/journal/record.js';
import { confirmsProfile, guardProtected, refuseUnconfirmedProtected } from '../../domain/profiles/protect.js';
import { CONFIRM_OPTION } from '../options.js';
import type { Context } from '../../context.js';
import { checkScope, findEntry, outcomeRefusal, planRestore, type RestorePlan } from '../../domain/journal/restore.js';

/** What the plan does, said before the question: "re-create environment 'x' (its id may differ)". */
function planText(plan: RestorePlan): string {
  if (plan.kind === 'recreate') {
    return `Re-create the ${environmentLabel(plan.oldId, plan.name)} as it was before it was deleted (POST). The API gives it an id of its own, which may differ from ${plan.oldId === undefined ? 'the old one' : `'${printable(plan.oldId)}'`}.`;
  }
  if (plan.kind === 'revert') {
    const fields = plan.fields.length ? plan.fields.map((field) => printable(field)).join(', ') : '(none: the update changed nothing)';
    return `Write back the fields the update changed in the ${environmentLabel(plan.id, plan.name)} (PUT): ${fields}.`;
  }
  return `Delete the ${environmentLabel(plan.id, plan.name)}, which the entry created (DELETE).`;
}

/** Sends the restore the plan says: re-creates, writes back (checked as an update is) or deletes, and says so. */
async function carryOut(
  ctx: Context,
  api: EnvironmentsApi,
  { plan, written, entry, target }: { plan: RestorePlan; written: WriteTarget | undefined; entry: string; target: string },
): Promise<void> {
  if (plan.kind === 'recreate') {
    const created = await withSpinner(ctx.io, 'Re-creating environment', () => api.create(plan.body));
    await writeRecord(ctx.io, created);
    const id = idOf(created);
    const same = id !== undefined && id === plan.oldId;
    const note =
      id === undefined
        ? ' (the API returned no id)'
        : same
          ? ''
          : `; its id was '${printable(plan.oldId ?? '')}', and is now '${printable(id)}'`;
    ctx.io.info(doneText(`Re-created ${environmentLabel(id, nameOf(created) ?? plan.name)}${note}`, target));
  } else if (plan.kind === 'revert') {
    // The write back is checked as an update is (domain/environments/conflict.ts): a change made after this
    // read is refused, never overwritten. --force here is about the entry, not about that.
    const { id, body } = plan;
    const updated = await withSpinner(ctx.io, 'Restoring environment', () =>
      written
        ? guardedUpdate(api, written, body, {
            force: false,
            compare: true,
            redact: ctx.io.redact,
            reread: written.reread,
            note: (text) => ctx.io.info(text),
            detail: (text) => ctx.detail(text),
          })
        : api.update(id, body),
    );
    await writeRecord(ctx.io, updated ?? plan.body);
    ctx.io.info(doneText(`Restored ${environmentLabel(plan.id, plan.name)} as it was before entry ${printable(entry)}`, target));
  } else {
    await withSpinner(ctx.io, 'Deleting environment', () => api.remove(plan.id));
    await writeResult(ctx.io, { id: plan.id, name: plan.name ?? null, result: 'deleted' });
    ctx.io.info(doneText(`Deleted ${environmentLabel(plan.id, plan.name)}`, target));
  }
}

export default defineCommand({
  name: 'restore',
  description: 'put an environment back as it was before a change in the journal (asks first at a terminal)',
  outputs: OUTPUT_FORMATS,
  args: { entry: argument('<entry>', "the journal entry ('cip env history' lists them), or the start of its id") },
  options: {
    yes: flag('-y, --yes', 'do not ask for confirmation (required without a terminal)'),
    dryRun: flag('--dry-run', 'print the request that would be sent, send nothing'),
    force: flag('--force', 'restore even if the environment changed since the entry, or the entry has no known outcome'),
    confirm: CONFIRM_OPTION,
  },
  notes: `Undoes one entry of the journal: a delete by creating the environment again from the record as it was
(without id, createdAt and updatedAt: the API gives it a new id, which may differ from the old one); an update
by writing back the fields it changed (fields it added are removed); a create by deleting what it created.
cip reads the list first, shows the plan and asks. It refuses (exit 6) when the environment changed since the
entry (for a delete: one with that id or name exists again) or the entry's outcome is unknown, unless --force.
It acts only where the entry was made: another profile, enterprise or base URL is refused (exit 2).
The restore is itself an entry of the journal, with the new id of an environment it re-created.
In a protected profile ('cip auth protect'), undoing an update or a create (a PUT or a DELETE) asks for the
profile's name, --yes or not; a script passes --confirm NAME. Re-creating a deleted environment does not.`,
  examples: ['cip env restore 0mfx3k2a1q7zk', 'cip env restore 0mfx3k2a --dry-run', 'cip env restore 0mfx3k2a1q7zk --yes'],
  async run(ctx, { entry: given, yes, dryRun, force, confirm: confirmName }) {
    if (given.trim() === '') throw new UsageError('a journal entry cannot be empty');
    const entries = readEntries(ctx);
    const entry = findEntry(entries, given);
    const plain = await ctx.api();
    checkScope(entry, plain.settings);
    const refusal = outcomeRefusal(entry, force);
    if (refusal) throw refusal;
    const target = targetText(plain.settings);
    // Undoing an update or a create writes over or deletes what is there: a protected profile asks for its name.
    // A script without --confirm learns it before anything is read.
    const destructive = entry.action !== 'delete';
    const guarded = { change: `restore entry ${printable(entry.entry)}`, confirm: confirmName, dryRun, yes };
    const named = destructive ? refuseUnconfirmedProtected(ctx, plain.settings, guarded) : confirmsProfile(plain.settings, confirmName);
    if (!yes && !named && !dryRun && !ctx.io.canPrompt) throw refuseUnconfirmed(ctx, `restore entry ${printable(entry.entry)} ${target}`);
    const api = journaledApi(ctx, plain, 'env restore', entry.entry);
    const read = await readForLookup(ctx, api);
    let plan = planRestore(entry, read.items, entries);
    // An update is written back over the environment as its own read by id gives it, where the API has one
    // (item.ts): then the plan is made from that record, and its validator guards the write.
    const reverted = plan.kind === 'revert' ? { id: plan.id, name: plan.name } : undefined;
    const current = reverted && read.items.find((item) => idOf(item) === reverted.id);
    let written: WriteTarget | undefined;
    if (reverted && isRecord(current)) {
      checkAddressable(reverted);
      written = await writeTarget(
        api,
        { ...reverted, record: current },
        read.validator,
        () => api.read(),
        (text) => ctx.detail(text),
      );
      const own = written.record;
      if (own !== current)
        plan = planRestore(
          entry,
          read.items.map((item) => (item === current ? own : item)),
          entries,
        );
    }
    if (plan.kind !== 'recreate') checkAddressable({ id: plan.id, name: plan.name });
    if (plan.drift !== undefined) {
      const what =
        plan.kind === 'recreate'
          ? plan.drift
          : `the ${environmentLabel(plan.id, plan.name)} changed since entry ${printable(entry.entry)}: ${plan.drift}`;
      if (!force) {
        throw new CipError('rejected', what, "nothing was sent; look at it with 'cip env get', and pass --force to restore anyway");
      }
      ctx.io.warn(`${what}; restoring anyway (--force)`);
    }
    const base = plain.settings.baseUrl;
    if (dryRun) {
      if (plan.kind === 'recreate') await writeRequests(ctx.io, [{ method: 'POST', url: environmentUrl(base), body: plan.body }]);
      else if (plan.kind === 'revert')
        await writeRequests(ctx.io, [{ method: 'PUT', url: environmentUrl(base, plan.id), body: plan.body }]);
      else await writeRequests(ctx.io, [{ method: 'DELETE', url: environmentUrl(base, plan.id) }]);
      ctx.io.info(doneText(`Dry run: nothing was sent. ${planText(plan)}`, target));
      return;
    }
    ctx.io.info(planText(plan));
    const question =
      plan.kind === 'remove'
        ? `Delete the ${environmentLabel(plan.id, plan.name)} ${target}?`
        : `Restore the ${environmentLabel(plan.kind === 'recreate' ? plan.oldId : plan.id, plan.name)} ${target}?`;
    const byName =
      named ||
      (destructive &&
        (await guardProtected(ctx, plain.settings, {
          ...guarded,
          change: planText(plan)
            .replace(/^./, (first) => first.toLowerCase())
            .replace(/\.$/, ''),
        })));
    if (!yes && !byName && !(await confirm(ctx.io, question))) {
      ctx.io.info('Nothing was changed.');
      throw new ExitOnly('usage', 'nothing changed: not confirmed');
    }
    await carryOut(ctx, api, { plan, written, entry: entry.entry, target });
  },
});
