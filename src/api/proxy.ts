// Corporate proxies: HTTPS_PROXY, HTTP_PROXY and NO_PROXY (either case), as curl and most CLIs read them.
// Node's fetch ignores them, so when one is set, undici's EnvHttpProxyAgent becomes fetch's dispatcher.
// undici is loaded only then: most runs have no proxy and should not pay for it.
import type { Env } from '../context.js';

function setting(env: Env, name: string): string | undefined {
  const value = env[name] ?? env[name.toLowerCase()];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

export function proxySettings(env: Env): ProxySettings | undefined {
  const httpProxy = setting(env, 'HTTP_PROXY');
  const httpsProxy = setting(env, 'HTTPS_PROXY');
  if (!httpProxy && !httpsProxy) return undefined;
  return { httpProxy, httpsProxy: httpsProxy ?? httpProxy, noProxy: setting(env, 'NO_PROXY') };
}

export async function useProxyFromEnv(env: Env): Promise<void> {
  const settings = proxySettings(env);
  if (!settings) return;
  const { EnvHttpProxyAgent, setGlobalDispatcher } = await import('undici');
  setGlobalDispatcher(new EnvHttpProxyAgent(settings));
}
