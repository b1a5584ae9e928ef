import type { Context } from '../../context.js';
import { writeRecord } from '../../output/writer.js';
import { readInput } from '../io.js';
import { withSpinner } from '../spinner.js';
import { buildPayload, type PayloadOptions } from './payload.js';
import { environmentLabel, idOf, nameOf, targetText } from './target.js';

export async function create(ctx: Context, options: PayloadOptions): Promise<void> {
  const payload = await buildPayload(options, (path) => readInput(ctx, path, '--file'));
  const api = await ctx.api();
  const created = await withSpinner(ctx, 'Creating environment', () => api.create(payload));
  await writeRecord(ctx, created);
  const label = environmentLabel(idOf(created), nameOf(created) ?? nameOf(payload));
  ctx.info(`Created ${label} ${targetText(api.settings)}${created === undefined ? ' (the API returned no body)' : ''}.`);
}
