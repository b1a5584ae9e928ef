import { defineCommand } from '../define.js';
import { writeRecord } from '../../output/writer.js';
import { withSpinner } from '../../terminal/spinner.js';
import { readInput } from '../io.js';
import { PAYLOAD_NOTES, PAYLOAD_OPTIONS, buildPayload, payloadInput } from './payload.js';
import { environmentLabel, idOf, nameOf, targetText } from './target.js';

export default defineCommand({
  name: 'create',
  description: 'create an environment',
  options: PAYLOAD_OPTIONS,
  notes: PAYLOAD_NOTES,
  examples: [
    'cip env create -f name=staging -F isActive=true',
    `cip env create --data '{"name":"staging","description":"pre-production"}'`,
    'cip env create --file env.json',
  ],
  async run(ctx, values) {
    const payload = await buildPayload(payloadInput(values), (path) => readInput(ctx, path, '--file'));
    const api = await ctx.api();
    const created = await withSpinner(ctx.io, 'Creating environment', () => api.create(payload));
    await writeRecord(ctx.io, created);
    const label = environmentLabel(idOf(created), nameOf(created) ?? nameOf(payload));
    ctx.io.info(`Created ${label} ${targetText(api.settings)}${created === undefined ? ' (the API returned no body)' : ''}.`);
  },
});
