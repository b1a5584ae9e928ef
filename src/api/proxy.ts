// Corporate proxies: HTTPS_PROXY, HTTP_PROXY and NO_PROXY (either case), as curl and most CLIs read them.
// Node's fetch ignores them, so when one is set, undici's EnvHttpProxyAgent becomes fetch's dispatcher.
// undici is loaded only then: most runs have no proxy and should not pay for it.
import type { Env } from '../context.js';

function setting(env: Env, name: string): string | undefined {
  const value = env[name] ?? env[name.toLowerCase()];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

function proxySettings(env: Env): ProxySettings | undefined {
  const httpProxy = setting(env, 'HTTP_PROXY');
  const httpsProxy = setting(env, 'HTTPS_PROXY');
  if (!httpProxy && !httpsProxy) return undefined;
  return { httpProxy, httpsProxy: httpsProxy ?? httpProxy, noProxy: setting(env, 'NO_PROXY') };
}

export async function useProxyFromEnv(env: Env): Promise<void> {
  const settings = proxySettings(env);
  if (!settings) return;
  // undici is CommonJS: its exports arrive as the default export once bundled.
  const { EnvHttpProxyAgent, setGlobalDispatcher } = (await import('undici')).default;
  setGlobalDispatcher(quietly('UNDICI-EHPA', () => new EnvHttpProxyAgent(settings)));
}

/**
 * Runs make() without the one warning named: undici calls EnvHttpProxyAgent experimental on stderr at every
 * run, which a user behind a proxy can do nothing about. Other warnings pass through.
 */
function quietly<T>(code: string, make: () => T): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const options = rest[0];
    const warningCode = typeof options === 'object' && options !== null ? (options as { code?: string }).code : rest[1];
    if (warningCode !== code) (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return make();
  } finally {
    process.emitWarning = emitWarning;
  }
}
