import type { Context } from '../../context.js';
import { writeList } from '../../output/writer.js';
import { withSpinner } from '../spinner.js';

export interface ListOptions {
  columns?: string[];
}

export async function list(ctx: Context, options: ListOptions): Promise<void> {
  const api = await ctx.api();
  const environments = await withSpinner(ctx, 'Loading environments', () => api.list());
  await writeList(ctx, environments, { columns: options.columns, emptyMessage: 'No environments yet. Create one with: cip env create -f name=<name>' });
}
