// `cip auth unprotect NAME`: takes the mark off a profile, after the same typed confirmation a protected change asks.
import { defineCommand } from '../define.js';
import { argument, completedFrom } from '../../cli/options.js';
import { guardProfile } from '../../domain/profiles/protect.js';
import { OUTPUT_FORMATS } from '../../output/format.js';
import { printable } from '../../text/sanitize.js';
import { CONFIRM_OPTION } from '../options.js';
import { requireProfile } from '../../config/store.js';

export default defineCommand({
  name: 'unprotect',
  description: "take a profile's protection off (asks for its name, as a protected change does)",
  // Writes no data on stdout: any format.
  outputs: OUTPUT_FORMATS,
  args: { name: completedFrom('profiles', argument('<name>', 'profile name')) },
  options: { confirm: CONFIRM_OPTION },
  notes: `Asks you to type the profile's name at a terminal; without one, pass --confirm NAME.`,
  examples: ['cip auth unprotect staging', 'cip auth unprotect staging --confirm staging'],
  async run(ctx, { name, confirm }) {
    const store = await ctx.store();
    const profile = requireProfile(store.read(), name);
    if (profile.protected !== true) {
      // A --confirm given must still name it: a script that means another profile is told so.
      await guardProfile(ctx, name, profile, { change: '', confirm });
      ctx.io.info(`Profile '${printable(name)}' is not protected.`);
      return;
    }
    await guardProfile(ctx, name, profile, {
      change: `take the protection off profile '${printable(name)}'`,
      confirm,
    });
    await store.update((data) => {
      // The field goes: the profile is as it was before it was protected, every other field as it is.
      delete requireProfile(data, name).protected;
    });
    ctx.io.info(`Profile '${printable(name)}' is no longer protected.`);
  },
});
