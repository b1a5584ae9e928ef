// Runs before each test file that shares its worker process with others (vitest.config.ts, project
// "shared"): after the file, the process must be as the file found it, or the next file would run in a
// process changed under it. A file that needs to change it belongs in ISOLATED in vitest.config.ts.
import { afterAll } from 'vitest';
import { DEFAULT_SANDBOX, test } from './fixture.js';

// proper-lockfile (the config store's lock) and conf (through when-exit) install their exit handlers once,
// when first loaded, and keep them: loaded here, they are part of the state every file finds.
await Promise.all([import('proper-lockfile'), import('conf')]);

/** Where undici keeps the global fetch dispatcher: Node 26's undici uses the second, and puts a wrapper in the first. */
const DISPATCHERS = [Symbol.for('undici.globalDispatcher.1'), Symbol.for('undici.globalDispatcher.2')];
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGPIPE', 'SIGXFSZ'] as const;
// The modules' own objects, read afresh each time (http.setGlobalProxyFromEnv replaces their globalAgent).
const http = (await import('node:http')).default;
const https = (await import('node:https')).default;
const [httpAgent, httpsAgent] = [http.globalAgent, https.globalAgent];

/** The global agent: the one Node started with, and whether it goes through a proxy (http.setGlobalProxyFromEnv). */
function agentState(agent: object, first: object): string {
  const proxied = Object.getOwnPropertySymbols(agent).some(
    (symbol) => symbol.description === 'kProxyConfig' && Boolean(agent[symbol as never]),
  );
  return `${agent === first ? 'the first' : 'another'}${proxied ? ', through a proxy' : ''}`;
}

/** The kind of dispatcher in a slot: Node makes its default Agent at the first fetch (Node 26 a wrapper of it too). */
function dispatcher(slot: symbol): string {
  const name = (globalThis as Record<symbol, { constructor: { name: string } } | undefined>)[slot]?.constructor.name ?? 'Agent';
  return name === 'Dispatcher1Wrapper' ? 'Agent' : name;
}

function state(): Map<string, string> {
  return new Map([
    // A file that sets a global fetch dispatcher (undici's setGlobalDispatcher) would set it for every later file.
    ...DISPATCHERS.map((slot, index): [string, string] => [`the global fetch dispatcher (${index + 1})`, dispatcher(slot)]),
    // cip's proxies are its own agents' (api/transport.ts): none may change the agent every other request uses.
    ['the global agent of node:http', agentState(http.globalAgent, httpAgent)],
    ['the global agent of node:https', agentState(https.globalAgent, httpsAgent)],
    ['the working folder', process.cwd()],
    ['process.exitCode', String(process.exitCode)],
    ...SIGNALS.map((signal): [string, string] => [`${signal} listeners`, String(process.listenerCount(signal))]),
    // Names only: a value may be a key.
    ...Object.keys(process.env).map((name): [string, string] => [`$${name}`, `set (${process.env[name]!.length} characters)`]),
  ]);
}

// vitest's test.override at a file's top level changes the fixture for every file that imports it later in
// the same process (the module is shared): each file starts from the default sandbox, whatever the file before
// it chose.
test.override({ sandboxOptions: DEFAULT_SANDBOX });

const before = state();

afterAll(() => {
  const after = state();
  const changed = [...new Set([...before.keys(), ...after.keys()])]
    .filter((what) => before.get(what) !== after.get(what))
    .map((what) => `${what}: ${before.get(what) ?? 'unset'} -> ${after.get(what) ?? 'unset'}`);
  if (changed.length > 0) {
    throw new Error(
      `this file changed process-wide state that the next file in its worker would inherit (${changed.join('; ')}): ` +
        'restore it, or list the file in ISOLATED in vitest.config.ts',
    );
  }
});
