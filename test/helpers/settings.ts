// Resolved settings as one flat record, the shape they had before the Credentials value (config/credentials.ts)
// held the keys: tests written against it read the new shape through these, their expectations unchanged.
import { apiKeyCredentials } from '../../src/config/credentials/credential.js';
import type { ResolvedSettings } from '../../src/config/credentials/settings.js';

export interface FlatSettings {
  profile: string | undefined;
  baseUrl: string;
  enterpriseId: string;
  apiKey: string;
  subscriptionKey: string;
  sources: { baseUrl: string; enterpriseId: string; apiKey: string; subscriptionKey: string };
}

/** API key settings, flat. Settings that hold a token have no flat form: the test fails. */
export function flat(settings: ResolvedSettings): FlatSettings {
  const { credentials } = settings;
  if (credentials.kind !== 'api-key') throw new Error(`flat() takes API key settings, not ${credentials.kind}`);
  return {
    profile: settings.profile,
    baseUrl: settings.baseUrl,
    enterpriseId: credentials.enterpriseId,
    apiKey: credentials.apiKey,
    subscriptionKey: credentials.subscriptionKey,
    sources: { baseUrl: settings.sources.baseUrl, ...credentials.sources },
  };
}

/** Settings from the flat record. */
export function fromFlat(settings: FlatSettings): ResolvedSettings {
  const { sources } = settings;
  return {
    profile: settings.profile,
    baseUrl: settings.baseUrl,
    credentials: apiKeyCredentials(
      { value: settings.apiKey, source: sources.apiKey },
      { value: settings.subscriptionKey, source: sources.subscriptionKey },
      { value: settings.enterpriseId, source: sources.enterpriseId },
    ),
    sources: { baseUrl: sources.baseUrl },
    unused: [],
  };
}
