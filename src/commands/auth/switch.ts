import type { Context } from '../../context.js';
import { requireProfile } from '../../config/settings.js';

export async function switchProfile(ctx: Context, name: string): Promise<void> {
  const store = await ctx.store();
  await store.update((data) => {
    requireProfile(data, name);
    data.activeProfile = name;
  });
  ctx.info(`Profile '${name}' is now active.`);
}
