import type { Context } from '../../context.js';
import { checkEnvironmentId } from '../../api/environments.js';
import { UsageError } from '../../errors.js';
import { writeRecord } from '../../output/writer.js';
import { printable } from '../../text/sanitize.js';
import { readInput } from '../io.js';
import { withSpinner } from '../spinner.js';
import { buildPayload, type PayloadOptions } from './payload.js';
import { environmentLabel, nameOf, scalarText, targetText } from './target.js';

/**
 * A payload that carries another environment's id would write that one's data over this one (the list |
 * jq | update pipe with the wrong element): refuse it. A null id is the same as none.
 */
export function checkPayloadId(payload: Record<string, unknown>, id: string): void {
  for (const key of Object.keys(payload)) {
    if (key.toLowerCase() !== 'id' || payload[key] === null) continue;
    const given = scalarText(payload[key]);
    if (given !== id) {
      throw new UsageError(
        `the payload's ${printable(key)} (${given === undefined ? 'not a string or number' : `'${printable(given)}'`}) is not the environment being updated ('${printable(id)}')`,
        'nothing was sent; remove the id from the payload, or update the environment it belongs to',
      );
    }
  }
}

export async function update(ctx: Context, id: string, options: PayloadOptions): Promise<void> {
  checkEnvironmentId(id);
  const payload = await buildPayload(options, (path) => readInput(ctx, path, '--file'));
  checkPayloadId(payload, id);
  const api = await ctx.api();
  const updated = await withSpinner(ctx, 'Updating environment', () => api.update(id, payload));
  await writeRecord(ctx, updated);
  ctx.info(`Updated ${environmentLabel(id, nameOf(updated) ?? nameOf(payload))} ${targetText(api.settings)}.`);
}
