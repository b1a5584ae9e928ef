import { checkEnvironmentId } from '../../api/environments.js';
import { defineCommand } from '../define.js';
import { argument } from '../../cli/options.js';
import { UsageError } from '../../errors.js';
import { writeRecord } from '../../output/writer.js';
import { withSpinner } from '../../terminal/spinner.js';
import { printable } from '../../text/sanitize.js';
import { readInput } from '../io.js';
import { PAYLOAD_NOTES, PAYLOAD_OPTIONS, buildPayload, payloadInput } from './payload.js';
import { environmentLabel, nameOf, scalarText, targetText } from './target.js';

/**
 * A payload that carries another environment's id would write that one's data over this one (the list |
 * jq | update pipe with the wrong element): refuse it. A null id is the same as none.
 */
function checkPayloadId(payload: Record<string, unknown>, id: string): void {
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

export default defineCommand({
  name: 'update',
  description: 'replace an environment (HTTP PUT)',
  args: { id: argument('<id>', 'environment id') },
  options: PAYLOAD_OPTIONS,
  notes: `${PAYLOAD_NOTES}
A payload whose id differs from <id> is refused: it would write one environment's data over another's.`,
  examples: [
    'cip env update 7d1c... -f name=staging -F isActive=false',
    `cip env list --json | jq '.[] | select(.id == "7d1c...") | .description = "new"' | cip env update 7d1c... --file -`,
  ],
  async run(ctx, { id, ...values }) {
    checkEnvironmentId(id);
    const payload = await buildPayload(payloadInput(values), (path) => readInput(ctx, path, '--file'));
    checkPayloadId(payload, id);
    const api = await ctx.api();
    const updated = await withSpinner(ctx.io, 'Updating environment', () => api.update(id, payload));
    await writeRecord(ctx.io, updated);
    ctx.io.info(`Updated ${environmentLabel(id, nameOf(updated) ?? nameOf(payload))} ${targetText(api.settings)}.`);
  },
});
