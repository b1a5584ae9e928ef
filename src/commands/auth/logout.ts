import { defineCommand } from '../define.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { getProfile, namedProfile, requireProfile } from '../../config/settings.js';

export default defineCommand({
  name: 'logout',
  description: 'remove a profile (default: the active one; name another with --profile)',
  examples: ['cip auth logout', 'cip auth logout --profile staging'],
  run: logout,
});

async function logout(ctx: Context): Promise<void> {
  const store = await ctx.store();
  let removed = '';
  let nowActive: string | undefined;
  await store.update((data) => {
    const name = namedProfile(ctx) ?? data.activeProfile;
    if (!name) throw new UsageError('no active profile to log out of', 'name one with --profile');
    requireProfile(data, name);
    removed = name;
    data.profiles = Object.fromEntries(Object.entries(data.profiles).filter(([profile]) => profile !== removed));
    const remaining = Object.keys(data.profiles);
    if (data.activeProfile === removed || (data.activeProfile !== undefined && !getProfile(data, data.activeProfile))) {
      // With one profile left there is no doubt which to use; with several, the user chooses.
      data.activeProfile = remaining.length === 1 ? remaining[0] : undefined;
      if (data.activeProfile === undefined) delete data.activeProfile;
    }
    nowActive = data.activeProfile;
  });
  ctx.io.info(
    `Removed profile '${removed}'.${nowActive ? ` Active profile: '${nowActive}'.` : " No profile is active; choose one with 'cip auth switch <name>'."}`,
  );
}
