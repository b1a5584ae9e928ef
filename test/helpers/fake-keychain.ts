// A stand-in for the keychain helper: a script that keeps its entries in a JSON file and logs each visit, so the
// keychain's paths run in-process with no D-Bus (the harness runs it with `keychain`: test/helpers/harness.ts);
// and the failures around a keychain visit: no usable keychain, a store whose update fails, Ctrl-C at a visit.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../../src/context.js';
import { ConfigError, InterruptedError } from '../../src/errors.js';
import { tempDir } from './cli.js';

const HELPER = `const fs = require('node:fs');
const dir = process.env.FAKE_KC;
const fail = (process.env.FAKE_KC_FAIL || '').split(',');
let text = '';
process.stdin.on('data', (chunk) => (text += chunk));
process.stdin.on('end', () => {
  const { ops } = JSON.parse(text);
  fs.appendFileSync(dir + '/log', ops.map((o) => o.op + ' ' + o.service + ' ' + o.account).join('; ') + '\\n');
  if (fail.includes('all')) return process.stdout.write(JSON.stringify({ unavailable: 'no Secret Service on this bus' }));
  const db = fs.existsSync(dir + '/db.json') ? JSON.parse(fs.readFileSync(dir + '/db.json', 'utf8')) : {};
  const results = ops.map((o) => {
    const key = o.service + ' ' + o.account;
    if (fail.includes(o.op)) return { ok: false, error: o.op + ' refused' };
    if (o.op === 'get') return { ok: true, value: db[key] === undefined ? null : db[key] };
    if (o.op === 'set') {
      db[key] = o.secret;
      if (process.env.FAKE_KC_TAMPER) fs.writeFileSync(process.env.FAKE_KC_TAMPER, process.env.FAKE_KC_TAMPER_WITH);
      return { ok: true };
    }
    const had = key in db;
    delete db[key];
    return { ok: true, deleted: had };
  });
  fs.writeFileSync(dir + '/db.json', JSON.stringify(db));
  process.stdout.write(JSON.stringify({ results }));
});
`;

export interface FakeKeychain {
  dir: string;
  path: string;
  /** Each visit: its operations, `op service account` joined by '; '. */
  visits(): string[];
  /** What an entry holds, parsed. */
  entry(service: string, account: string): unknown;
  entries(): string[];
  put(service: string, account: string, keys: object): void;
}

/** A stand-in keychain of its own, empty. */
export function fakeKeychain(): FakeKeychain {
  const dir = tempDir('cip-fake-kc-');
  const path = join(dir, 'helper.cjs');
  writeFileSync(path, HELPER);
  const db = (): Record<string, string> => (existsSync(join(dir, 'db.json')) ? JSON.parse(readFileSync(join(dir, 'db.json'), 'utf8')) : {});
  return {
    dir,
    path,
    visits: () => (existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8').trimEnd().split('\n') : []),
    entry: (service, account) => {
      const value = db()[`${service} ${account}`];
      return value === undefined ? undefined : JSON.parse(value);
    },
    entries: () => Object.keys(db()),
    put: (service, account, keys) =>
      writeFileSync(join(dir, 'db.json'), JSON.stringify({ ...db(), [`${service} ${account}`]: JSON.stringify(keys) })),
  };
}

/** Login's line for a keychain that cannot be used: what happened and the ways on first, the keychain's words last. */
export function noKeychain(configDir: string, cause: string): string {
  return (
    'error: no usable keychain here: nothing was saved; use --insecure-storage or CIP_CREDENTIAL_STORE=file ' +
    `to keep the keys in plain text in ${join(configDir, 'config.json')}, or in CI set CIP_API_KEY, CIP_SUBSCRIPTION_KEY and ` +
    `CIP_ENTERPRISE_ID instead of logging in (cause: ${cause})`
  );
}

/** A store whose update runs the change on the data read and then fails, writing nothing. */
export function failingUpdate(ctx: Context): void {
  const open = ctx.store.bind(ctx);
  ctx.store = async () => {
    const store = await open();
    return {
      ...store,
      update: async (change) => {
        change(store.read());
        throw new ConfigError(`cannot write the config file ${store.path}: disk trouble`);
      },
    };
  };
}

/**
 * Ctrl-C as the keychain is about to be visited for `operation` (the visit then never starts): the run's
 * signal is aborted as main.ts aborts it. Returns what to pass to cip().
 */
export function interruptAt(operation: 'read' | 'write' | 'remove'): { signal: AbortSignal; patch: (ctx: Context) => void } {
  const controller = new AbortController();
  return {
    signal: controller.signal,
    patch: (ctx) => {
      const open = ctx.keychain.bind(ctx);
      ctx.keychain = () => {
        const keychain = open();
        return {
          ...keychain,
          [operation]: (...args: never[]) => {
            controller.abort(new InterruptedError());
            return (keychain[operation] as (...inner: never[]) => Promise<unknown>)(...args);
          },
        };
      };
    },
  };
}
