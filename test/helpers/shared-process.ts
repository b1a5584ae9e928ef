// Runs before each test file that shares its worker process with others (vitest.config.ts, project
// "shared"): after the file, the process must be as the file found it, or the next file would run in a
// process changed under it. A file that needs to change it belongs in ISOLATED in vitest.config.ts.
import { afterAll } from 'vitest';

// proper-lockfile (the config store's lock) and conf (through when-exit) install their exit handlers once,
// when first loaded, and keep them: loaded here, they are part of the state every file finds.
await Promise.all([import('proper-lockfile'), import('conf')]);

const DISPATCHER = Symbol.for('undici.globalDispatcher.1');
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGPIPE', 'SIGXFSZ'] as const;

function state(): Map<string, string> {
  const dispatcher = (globalThis as Record<symbol, { constructor: { name: string } } | undefined>)[DISPATCHER];
  return new Map([
    // Node makes its default Agent at the first fetch; a run through a proxy would put a ProxyAgent there.
    ['the global fetch dispatcher', dispatcher?.constructor.name ?? 'Agent'],
    ['the working folder', process.cwd()],
    ['process.exitCode', String(process.exitCode)],
    ...SIGNALS.map((signal): [string, string] => [`${signal} listeners`, String(process.listenerCount(signal))]),
    // Names only: a value may be a key.
    ...Object.keys(process.env).map((name): [string, string] => [`$${name}`, `set (${process.env[name]!.length} characters)`]),
  ]);
}

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
