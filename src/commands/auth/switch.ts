import { defineCommand } from '../define.js';
import { argument, completedFrom } from '../../cli/options.js';
import { requireProfile } from '../../config/settings.js';
import { OUTPUT_FORMATS } from '../../output/format.js';

export default defineCommand({
  name: 'switch',
  description: 'make a profile the active one',
  // Writes no data on stdout: any format.
  outputs: OUTPUT_FORMATS,
  args: { name: completedFrom('profiles', argument('<name>', 'profile name')) },
  examples: ['cip auth switch staging'],
  async run(ctx, { name }) {
    const store = await ctx.store();
    await store.update((data) => {
      requireProfile(data, name);
      data.activeProfile = name;
    });
    ctx.io.info(`Profile '${name}' is now active.`);
  },
});
