// `cip auth protect NAME`: marks a profile as production (domain/profiles/protect.ts says what that asks).
import { defineCommand } from '../define.js';
import { argument, completedFrom } from '../../cli/options.js';
import { OUTPUT_FORMATS } from '../../output/format.js';
import { printable } from '../../text/sanitize.js';
import { shellWord } from '../../domain/profiles/protect.js';
import { requireProfile } from '../../config/store.js';

export default defineCommand({
  name: 'protect',
  description: 'mark a profile as production: deletes and other wide changes in it ask for its name',
  // Writes no data on stdout: any format.
  outputs: OUTPUT_FORMATS,
  args: { name: completedFrom('profiles', argument('<name>', 'profile name')) },
  notes: `In a protected profile, 'env delete', 'env apply' with deletes or more than 10 changes, 'env update
--replace' or --unset, and 'cip api' with a method other than GET, HEAD or OPTIONS ask you to type the
profile's name at a terminal; --yes alone is not enough. A script passes --confirm NAME instead. --dry-run
asks nothing. 'cip auth unprotect' and 'cip auth logout' of a protected profile ask the same. Credentials
wholly from the environment use no profile, and nothing protects them.`,
  examples: ['cip auth protect prod', 'cip auth login --profile prod --protect'],
  async run(ctx, { name }) {
    const store = await ctx.store();
    if (requireProfile(store.read(), name).protected === true) {
      ctx.io.info(`Profile '${printable(name)}' is already protected.`);
      return;
    }
    // Only the flag changes: the profile's other fields are written back as they were read, under the lock.
    await store.update((data) => {
      requireProfile(data, name).protected = true;
    });
    ctx.io.info(
      `Profile '${printable(name)}' is now protected: deletes and other wide changes in it ask for its name (--confirm ${shellWord(name)} in a script).`,
    );
  },
});
