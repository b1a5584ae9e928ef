import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { printable } from '../../text/sanitize.js';
import { confirm } from '../prompt.js';
import { withSpinner } from '../spinner.js';

export interface DeleteOptions {
  yes?: boolean;
}

export async function remove(ctx: Context, ids: string[], options: DeleteOptions): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.some((id) => id.trim() === '')) throw new UsageError('an environment id cannot be empty');
  const api = await ctx.api();
  if (!options.yes) {
    const what = unique.length === 1 ? `environment ${printable(unique[0]!)}` : `${unique.length} environments (${unique.map((id) => printable(id)).join(', ')})`;
    if (!ctx.canPrompt) {
      throw new UsageError(`refusing to delete ${what} without confirmation`, 'pass --yes to confirm');
    }
    if (!(await confirm(ctx, `Delete ${what}? This cannot be undone.`))) {
      throw new UsageError('nothing deleted: not confirmed');
    }
  }
  for (const id of unique) {
    await withSpinner(ctx, `Deleting ${printable(id)}`, () => api.remove(id));
    ctx.info(`Deleted environment ${printable(id)}.`);
  }
}
