import { checkEnvironmentId, type EnvironmentsApi } from '../../api/environments.js';
import { defineCommand } from '../define.js';
import { argument, flag } from '../../cli/options.js';
import type { Context } from '../../context.js';
import { CipError, InterruptedError, UsageError } from '../../errors.js';
import { confirm } from '../../terminal/prompt.js';
import { withSpinner } from '../../terminal/spinner.js';
import { printable } from '../../text/sanitize.js';
import { environmentLabel, idOf, nameOf, targetText } from './target.js';

/** Names of the given ids from one list read, so the question names what it deletes; none if the list fails. */
async function namesOf(ctx: Context, api: EnvironmentsApi, ids: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  let items: unknown[];
  try {
    items = await withSpinner(ctx.io, 'Looking up the environments', () => api.list());
  } catch (error) {
    if (error instanceof InterruptedError || !(error instanceof CipError)) throw error;
    ctx.io.warn(`cannot look up the names of the environments, so only their ids are shown: ${error.message}`);
    return names;
  }
  const wanted = new Set(ids);
  for (const item of items) {
    const id = idOf(item);
    const name = nameOf(item);
    if (id !== undefined && name !== undefined && wanted.has(id)) names.set(id, name);
  }
  return names;
}

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  description: 'delete environments (asks first at a terminal)',
  args: { ids: argument('<id...>', 'environment ids') },
  options: { yes: flag('-y, --yes', 'do not ask for confirmation (required without a terminal)') },
  notes: `The question names each environment, the profile and the enterprise. Ids are deleted in order; after a
failure or an interrupt, cip says which were deleted, which was under way and which were not attempted.`,
  examples: ['cip env delete 7d1c...', 'cip env delete 7d1c... 9a0b... --yes'],
  run: remove,
});

async function remove(ctx: Context, { ids, yes }: { ids: string[]; yes: boolean }): Promise<void> {
  const unique = [...new Set(ids)];
  for (const id of unique) checkEnvironmentId(id);
  const api = await ctx.api();
  const target = targetText(api.settings);
  let names = new Map<string, string>();
  const label = (id: string) => environmentLabel(id, names.get(id));
  if (!yes) {
    if (!ctx.io.canPrompt) {
      const what = unique.length === 1 ? `environment ${printable(unique[0]!)}` : `${unique.length} environments`;
      throw new UsageError(`refusing to delete ${what} ${target} without confirmation`, 'pass --yes to confirm');
    }
    names = await namesOf(ctx, api, unique);
    const what =
      unique.length === 1
        ? label(unique[0]!)
        : `${unique.length} environments: ${unique.map((id) => label(id).replace(/^environment /, '')).join(', ')}`;
    if (!(await confirm(ctx.io, `Delete ${what} ${target}? This cannot be undone.`))) {
      throw new UsageError('nothing deleted: not confirmed');
    }
  }

  const deleted: string[] = [];
  let inFlight: string | undefined;
  try {
    for (const id of unique) {
      if (ctx.signal.aborted) throw new InterruptedError();
      inFlight = id;
      const { alreadyGone } = await withSpinner(ctx.io, `Deleting ${label(id)}`, () => api.remove(id));
      inFlight = undefined;
      deleted.push(id);
      ctx.io.info(
        alreadyGone
          ? `The ${label(id)} ${target} was already gone: an earlier attempt deleted it, but its answer was lost.`
          : `Deleted ${label(id)} ${target}.`,
      );
    }
  } catch (error) {
    // With several ids, say exactly what happened to each: a script must know what is left to do.
    if (unique.length > 1) reportProgress(ctx, unique, deleted, inFlight, error instanceof InterruptedError || ctx.signal.aborted);
    throw error;
  }
}

function reportProgress(
  ctx: Context,
  ids: readonly string[],
  deleted: readonly string[],
  current: string | undefined,
  interrupted: boolean,
): void {
  const list = (items: readonly string[]) => (items.length ? items.map((id) => printable(id)).join(', ') : 'none');
  const notAttempted = ids.filter((id) => id !== current && !deleted.includes(id));
  const currentText =
    current === undefined
      ? ''
      : interrupted
        ? ` ${printable(current)} may or may not have been deleted (its request was under way);`
        : ` ${printable(current)} failed (see below);`;
  ctx.io.warn(`${interrupted ? 'interrupted' : 'stopped'}: deleted ${list(deleted)};${currentText} not attempted: ${list(notAttempted)}`);
}
