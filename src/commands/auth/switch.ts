import type { Context } from '../../context.js';
import { pickProfile } from '../../config/settings.js';

export async function switchProfile(ctx: Context, name: string): Promise<void> {
  const store = await ctx.store();
  await store.update((data) => {
    pickProfile(data, name);
    data.activeProfile = name;
  });
  ctx.info(`Profile '${name}' is now active.`);
}
