import { environmentUrl } from '../../api/environments.js';
import { defineCommand } from '../define.js';
import { flag } from '../../cli/options.js';
import { writeRecord, writeRequests } from '../../output/writer.js';
import { withSpinner } from '../../terminal/spinner.js';
import { readInput } from '../io.js';
import { PAYLOAD_NOTES, PAYLOAD_OPTIONS, buildPayload, payloadInput } from './payload.js';
import { environmentLabel, idOf, nameOf, targetText } from './target.js';

export default defineCommand({
  name: 'create',
  description: 'create an environment',
  options: { ...PAYLOAD_OPTIONS, dryRun: flag('--dry-run', 'print the request that would be sent, send nothing') },
  notes: PAYLOAD_NOTES,
  examples: [
    'cip env create -f name=staging -F isActive=true',
    `cip env create --data '{"name":"staging","description":"pre-production"}'`,
    'cip env create --file env.json',
    'cip env create -f name=staging --dry-run',
  ],
  async run(ctx, { dryRun, ...values }) {
    const payload = await buildPayload(payloadInput(values), (path) => readInput(ctx, path, '--file'));
    const api = await ctx.api();
    if (dryRun) {
      await writeRequests(ctx.io, [{ method: 'POST', url: environmentUrl(api.settings.baseUrl), body: payload }]);
      ctx.io.info(`Dry run: nothing was sent to create ${environmentLabel(undefined, nameOf(payload))} ${targetText(api.settings)}.`);
      return;
    }
    const created = await withSpinner(ctx.io, 'Creating environment', () => api.create(payload));
    await writeRecord(ctx.io, created);
    const label = environmentLabel(idOf(created), nameOf(created) ?? nameOf(payload));
    ctx.io.info(`Created ${label} ${targetText(api.settings)}${created === undefined ? ' (the API returned no body)' : ''}.`);
  },
});
