import { defineCommand } from '../define.js';
import type { Context } from '../../context.js';
import { DEFAULT_BASE_URL } from '../../config/validate.js';
import { namedProfile, profileNamedBy, type ResolvedSettings } from '../../config/settings.js';
import { writeList } from '../../output/writer.js';

/** At most the last 4 characters, and never more than a quarter of the key. */
function maskKey(key: string): string {
  const shown = key.length >= 16 ? 4 : key.length >= 8 ? 2 : 0;
  return `****${shown ? key.slice(-shown) : ''}`;
}

export default defineCommand({
  name: 'status',
  description: 'show every profile, with keys masked',
  notes: 'Then, on stderr, which profile and values a command run now would use, and where each comes from.',
  run: status,
});

/** Every profile, then (on stderr) what a command run now would use and where each value comes from. */
async function status(ctx: Context): Promise<void> {
  const data = (await ctx.store()).read();
  let settings: ResolvedSettings | undefined;
  let problem: unknown;
  try {
    settings = await ctx.settings();
  } catch (error) {
    problem = error;
  }
  const overrides = settings ? Object.values(settings.sources).filter((source) => source.startsWith('CIP_')) : [];
  const rows = Object.entries(data.profiles).map(([name, profile]) => ({
    name,
    active: name === data.activeProfile,
    inUse: name === settings?.profile,
    baseUrl: profile.baseUrl ?? DEFAULT_BASE_URL,
    enterpriseId: profile.enterpriseId,
    apiKey: maskKey(profile.apiKey),
    subscriptionKey: maskKey(profile.subscriptionKey),
    overriddenBy: name === settings?.profile ? overrides : [],
  }));
  // With no profile and nothing usable, the error alone says it (and how to log in): not a friendly line too.
  if (rows.length === 0 && !settings && ctx.io.outputFormat === 'table') throw problem;
  await writeList(ctx.io, rows, {
    tableColumns: ['name', 'active', 'inUse', 'baseUrl', 'enterpriseId', 'apiKey', 'subscriptionKey'],
    emptyMessage: "No profiles. Run 'cip auth login' to create one.",
  });
  if (!settings) throw problem;
  ctx.io.info(describeInUse(ctx, settings));
}

function describeInUse(ctx: Context, settings: ResolvedSettings): string {
  const { profile, sources } = settings;
  const which =
    profile === undefined
      ? 'no profile (every credential from the environment)'
      : namedProfile(ctx) !== undefined
        ? `profile '${profile}' (named by ${profileNamedBy(ctx)})`
        : `profile '${profile}' (the active profile)`;
  const line = (label: string, value: string, source: string) => `  ${label.padEnd(17)}${value}  (from ${source})`;
  return [
    `A command run now would use ${which}:`,
    line('base URL', settings.baseUrl, sources.baseUrl),
    line('enterprise id', settings.enterpriseId, sources.enterpriseId),
    line('API key', maskKey(settings.apiKey), sources.apiKey),
    line('subscription key', maskKey(settings.subscriptionKey), sources.subscriptionKey),
  ].join('\n');
}
