import type { Context } from '../../context.js';
import { AuthError } from '../../errors.js';
import { DEFAULT_BASE_URL } from '../../config/validate.js';
import { namedProfile } from '../../config/settings.js';
import { writeList } from '../../output/writer.js';

/** At most the last 4 characters, and never more than a quarter of the key. */
function maskKey(key: string): string {
  const shown = key.length >= 16 ? 4 : key.length >= 8 ? 2 : 0;
  return `****${shown ? key.slice(-shown) : ''}`;
}

const OVERRIDES = ['CIP_API_KEY', 'CIP_SUBSCRIPTION_KEY', 'CIP_ENTERPRISE_ID', 'CIP_BASE_URL'] as const;

export async function status(ctx: Context): Promise<void> {
  const data = (await ctx.store()).read();
  const inUse = namedProfile(ctx) ?? data.activeProfile;
  const overrides = OVERRIDES.filter((name) => (ctx.env[name] ?? '').trim() !== '');
  const rows = Object.entries(data.profiles).map(([name, profile]) => ({
    name,
    active: name === data.activeProfile,
    baseUrl: profile.baseUrl ?? DEFAULT_BASE_URL,
    enterpriseId: profile.enterpriseId,
    apiKey: maskKey(profile.apiKey),
    subscriptionKey: maskKey(profile.subscriptionKey),
    overriddenBy: name === inUse ? overrides : [],
  }));
  await writeList(ctx, rows, {
    columns: ['name', 'active', 'baseUrl', 'enterpriseId', 'apiKey', 'subscriptionKey'],
    emptyMessage: "No profiles. Run 'cip auth login' to create one.",
  });
  if (overrides.length) {
    ctx.info(`Environment variables ${overrides.join(', ')} are set and override ${inUse ? `profile '${inUse}'` : 'any profile'}.`);
  }
  const envComplete = ['CIP_API_KEY', 'CIP_SUBSCRIPTION_KEY', 'CIP_ENTERPRISE_ID'].every((name) => overrides.includes(name as (typeof OVERRIDES)[number]));
  if (rows.length === 0 && !envComplete) throw new AuthError('not logged in: no profiles and no credentials in the environment');
}
