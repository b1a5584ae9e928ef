import type { Context } from '../../context.js';
import { writeRecord } from '../../output/writer.js';
import { printable } from '../../text/sanitize.js';
import { readInput } from '../io.js';
import { withSpinner } from '../spinner.js';
import { buildPayload, type PayloadOptions } from './payload.js';

export async function update(ctx: Context, id: string, options: PayloadOptions): Promise<void> {
  const payload = await buildPayload(options, (path) => readInput(ctx, path, '--file'));
  const api = await ctx.api();
  const updated = await withSpinner(ctx, 'Updating environment', () => api.update(id, payload));
  await writeRecord(ctx, updated);
  ctx.info(`Environment ${printable(id)} updated.`);
}
