// The keychain client (src/config/store/keychain.ts) against stand-in helpers: small scripts that answer as the real
// helper does, or not at all: check and remove, answers that are short, empty, too long or not keys, a helper
// that cannot start, dies by a signal, talks on stderr or never reads its request, and an abort before the
// visit. The real helper and a real keychain are in test/e2e/keychain.test.ts.
import { getEventListeners } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  KEYCHAIN_TIMEOUT_MS,
  KeychainError,
  createKeychain,
  credentialStore,
  keychainService,
  keychainTimeoutMs,
  profileEntry,
  type KeychainOptions,
  type KeychainEntry,
} from '../../../../src/config/store/keychain.js';
import { resolveSettings } from '../../../../src/config/credentials/settings.js';
import { openProfileStore } from '../../../../src/config/store.js';
import { InterruptedError, UsageError } from '../../../../src/errors.js';
import { tempDir } from '../../../helpers/cli.js';
import { flat } from '../../../helpers/settings.js';

const ENTRY = { service: 'cip:https://api.example.com', account: 'prod' };
const KEYS = { apiKey: 'secret-api-key-0123456789', subscriptionKey: 'secret-sub-key-0123456789' };

/** A stand-in helper: `body` runs with `request` (the parsed stdin) and `log(name, value)` to leave traces. */
function helper(body: string): { path: string; log: (name: string) => string | undefined } {
  const dir = tempDir();
  const path = join(dir, 'helper.cjs');
  writeFileSync(
    path,
    `const fs = require('node:fs');
const log = (name, value) => fs.appendFileSync(${JSON.stringify(dir)} + '/' + name, value);
let text = '';
process.stdin.on('data', (chunk) => (text += chunk));
process.stdin.on('end', () => { const request = JSON.parse(text); ${body} });`,
  );
  return { path, log: (name) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : undefined) };
}

function options(path: string | undefined, extra: Partial<KeychainOptions> = {}): KeychainOptions {
  return { execPath: process.execPath, helper: path, env: { PATH: process.env.PATH }, signal: new AbortController().signal, ...extra };
}

describe('the keychain client', () => {
  it('names entries cip:<origin of the base URL>, account <profile>', () => {
    expect(keychainService('https://api.copyl.com/ms')).toBe('cip:https://api.copyl.com');
    expect(keychainService('http://127.0.0.1:4010/ms/')).toBe('cip:http://127.0.0.1:4010');
    expect(profileEntry('prod', {})).toEqual({ service: 'cip:https://api.copyl.com', account: 'prod' });
  });

  it('hands keys to the helper on stdin only: argv is the helper alone, and cip variables stay behind', async () => {
    const fake = helper(`log('argv', JSON.stringify(process.argv.slice(1)));
log('env', JSON.stringify(Object.keys(process.env)));
log('request', text);
const secret = request.ops[0].secret;
process.stdout.write(JSON.stringify({ results: [{ ok: true }, { ok: true, value: secret }] }));`);
    const env = { PATH: process.env.PATH, CIP_API_KEY: KEYS.apiKey, NODE_EXTRA_CA_CERTS: '/etc/ca.pem', OTHER: 'x' };
    const keychain = createKeychain(options(fake.path, { env }));
    await keychain.write(ENTRY, KEYS);
    expect(JSON.parse(fake.log('argv')!)).toEqual([fake.path]);
    expect(JSON.parse(fake.log('env')!)).toContain('OTHER');
    expect(JSON.parse(fake.log('env')!)).not.toContain('CIP_API_KEY');
    expect(JSON.parse(fake.log('env')!)).not.toContain('NODE_EXTRA_CA_CERTS');
    expect(JSON.parse(fake.log('request')!)).toEqual({
      ops: [
        { op: 'set', ...ENTRY, secret: JSON.stringify(KEYS) },
        { op: 'get', ...ENTRY },
      ],
    });
    // Written, read back, and remembered: a read after a write does not visit the keychain again.
    expect(await keychain.read([ENTRY])).toEqual([KEYS]);
  });

  it('a write whose read-back differs is refused', async () => {
    const fake = helper(`process.stdout.write(JSON.stringify({ results: [{ ok: true }, { ok: true, value: null }] }));`);
    await expect(createKeychain(options(fake.path)).write(ENTRY, KEYS)).rejects.toThrow('the keys read back are not the keys written');
  });

  it('reads several entries in one visit: keys, or undefined where there is no entry', async () => {
    const fake = helper(`log('visits', 'x');
process.stdout.write(JSON.stringify({ results: [{ ok: true, value: ${JSON.stringify(JSON.stringify(KEYS))} }, { ok: true, value: null }] }));`);
    const keychain = createKeychain(options(fake.path));
    const other = { ...ENTRY, account: 'other' };
    expect(await keychain.read([ENTRY, other])).toEqual([KEYS, undefined]);
    expect(await keychain.read([other, ENTRY])).toEqual([undefined, KEYS]);
    expect(fake.log('visits')).toBe('x');
  });

  it('an entry that does not hold cip keys is an error that does not show its value', async () => {
    const fake = helper(`process.stdout.write(JSON.stringify({ results: [{ ok: true, value: 'not-json-secret-value' }] }));`);
    const error = await createKeychain(options(fake.path))
      .read([ENTRY])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(KeychainError);
    expect(String((error as Error).message)).toContain('does not hold keys cip stored');
    expect(String((error as Error).message)).not.toContain('not-json-secret-value');
  });

  it('CIP_KEYCHAIN_TIMEOUT sets the time-out in seconds; a value that is not one is exit 2 before any helper starts', async () => {
    const slow = createKeychain(
      options(helper(`setInterval(() => undefined, 1000);`).path, { env: { PATH: process.env.PATH, CIP_KEYCHAIN_TIMEOUT: '0.4' } }),
    );
    await expect(slow.read([ENTRY])).rejects.toThrow('it did not answer within 0.4 s');
    // A helper of its own: one that 0.4 s gave too little time to start (a busy machine) cannot be counted here.
    const fake = helper(`log('visits', 'x'); setInterval(() => undefined, 1000);`);
    for (const value of ['0', '-1', 'soon', '1e3', '601']) {
      const env = { PATH: process.env.PATH, CIP_KEYCHAIN_TIMEOUT: value };
      const refused = await createKeychain(options(fake.path, { env }))
        .read([ENTRY])
        .catch((caught: unknown) => caught);
      expect(refused, value).toBeInstanceOf(UsageError);
      expect((refused as UsageError).message).toBe(`CIP_KEYCHAIN_TIMEOUT is '${value}'`);
    }
    expect(keychainTimeoutMs({ CIP_KEYCHAIN_TIMEOUT: '30' })).toBe(30_000);
    expect(keychainTimeoutMs({ CIP_KEYCHAIN_TIMEOUT: ' ' })).toBe(KEYCHAIN_TIMEOUT_MS);
    expect(keychainTimeoutMs({})).toBe(KEYCHAIN_TIMEOUT_MS);
    expect(fake.log('visits')).toBeUndefined();
  });

  it('a helper that never answers is killed after the time-out, and the run does not wait for it again', async () => {
    const fake = helper(`log('pid', String(process.pid)); log('visits', 'x'); setInterval(() => undefined, 1000);`);
    const keychain = createKeychain(options(fake.path, { timeoutMs: 500 }));
    const started = Date.now();
    await expect(keychain.read([ENTRY])).rejects.toThrow('the keychain cannot be used: it did not answer within 0.5 s');
    // Cut off, not waited for: the bound is for a hang, not for the speed of a busy machine.
    expect(Date.now() - started).toBeLessThan(20_000);
    const pid = Number(fake.log('pid'));
    await expect.poll(() => isAlive(pid), SETTLED).toBe(false);
    await expect(keychain.remove(ENTRY)).rejects.toThrow('did not answer within 0.5 s');
    expect(fake.log('visits')).toBe('x');
  });

  it('Ctrl-C while the helper works stops the wait and the helper', async () => {
    const fake = helper(`log('pid', String(process.pid)); setInterval(() => undefined, 1000);`);
    const controller = new AbortController();
    const reading = createKeychain(options(fake.path, { signal: controller.signal })).read([ENTRY]);
    await expect.poll(() => fake.log('pid'), SETTLED).toBeDefined();
    controller.abort(new InterruptedError());
    await expect(reading).rejects.toBeInstanceOf(InterruptedError);
    await expect.poll(() => isAlive(Number(fake.log('pid'))), SETTLED).toBe(false);
  });

  it.each([
    [
      'the module cannot be loaded',
      `process.stdout.write(JSON.stringify({ unavailable: 'no binary for this platform' }))`,
      'no binary for this platform',
    ],
    [
      'the keychain refuses',
      `process.stdout.write(JSON.stringify({ results: [{ ok: false, error: 'Platform failure: no bus' }] }))`,
      'Platform failure: no bus',
    ],
    ['the helper crashes', `process.stdout.write('half an answer'); process.exit(1)`, 'the keychain helper failed (exit 1)'],
  ])('%s: a KeychainError that says why', async (_what, body, reason) => {
    const error = await createKeychain(options(helper(body).path))
      .read([ENTRY])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(KeychainError);
    expect((error as KeychainError).reason).toBe(reason);
  });

  it('without a helper there is no keychain', async () => {
    await expect(createKeychain(options(undefined)).read([ENTRY])).rejects.toThrow('no keychain helper');
    await expect(createKeychain(options(join(tempDir(), 'missing.cjs'))).read([ENTRY])).rejects.toBeInstanceOf(KeychainError);
  });
});

describe('a keychain profile in the settings', () => {
  it('is not read from the keychain when the environment gives both keys', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ activeProfile: 'kc', profiles: { kc: { enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b', keys: 'keychain' } } }),
      { mode: 0o600 },
    );
    const settings = flat(
      await resolveSettings({
        env: { CIP_API_KEY: KEYS.apiKey, CIP_SUBSCRIPTION_KEY: KEYS.subscriptionKey },
        globals: {},
        store: () => openProfileStore(dir),
        keychain: () => {
          throw new Error('the keychain was asked');
        },
        warn: () => undefined,
      }),
    );
    expect(settings).toMatchObject({ profile: 'kc', apiKey: KEYS.apiKey, sources: { enterpriseId: "profile 'kc'" } });
  });

  it.each([
    [
      { enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b', keys: 'keychain', apiKey: KEYS.apiKey },
      'keeps its keys in the keychain but has apiKey',
    ],
    [{ enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b', keys: 'vault' }, 'has a bad "keys"'],
    [{ enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b', keys: 'file' }, 'has no apiKey'],
  ])('a hand-edited profile %j is refused, not used', async (profile, message) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { p: profile } }), { mode: 0o600 });
    const store = await openProfileStore(dir);
    expect(() => store.read()).toThrow(message);
  });
});

// A state another process reaches (it started, it died and was reaped), looked at until it holds: vitest's
// default of 1 s is not enough for a Node start or a reap on a loaded two-core machine.
const SETTLED = { timeout: 15_000, interval: 20 };

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const OTHER = { service: 'cip:https://api.example.com', account: 'other' };
const MAX_ANSWER_CHARS = 1024 * 1024;

/**
 * A stand-in helper. `body` runs once stdin has ended, with `request` (the parsed request) and `log(name,
 * value)`; `raw` replaces the whole script (it then reads nothing).
 */
function loggingHelper(body: string, raw?: string): { path: string; log: (name: string) => string | undefined } {
  const dir = tempDir();
  const path = join(dir, 'helper.cjs');
  writeFileSync(
    path,
    raw ??
      `const fs = require('node:fs');
const log = (name, value) => fs.appendFileSync(${JSON.stringify(dir)} + '/' + name, value);
let text = '';
process.stdin.on('data', (chunk) => (text += chunk));
process.stdin.on('end', () => { const request = JSON.parse(text); log('request', text); log('visits', 'x'); ${body} });`,
  );
  return { path, log: (name) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : undefined) };
}

/** A helper that answers these results (as JSON) to whatever it is asked. */
const answering = (results: unknown[]) => loggingHelper(`process.stdout.write(${JSON.stringify(JSON.stringify({ results }))});`);

async function reason(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(KeychainError);
  return (error as KeychainError).reason;
}

describe('check', () => {
  it('asks for the entry once and resolves when the keychain answers, whatever it holds', async () => {
    const fake = answering([{ ok: true, value: null }]);
    await expect(createKeychain(options(fake.path)).check(ENTRY)).resolves.toBeUndefined();
    expect(JSON.parse(fake.log('request')!)).toEqual({ ops: [{ op: 'get', ...ENTRY }] });
  });

  it('is a KeychainError with the keychain’s reason when it refuses', async () => {
    const fake = answering([{ ok: false, error: 'Platform secure storage failure: locked' }]);
    expect(await reason(createKeychain(options(fake.path)).check(ENTRY))).toBe('Platform secure storage failure: locked');
  });
});

describe('remove', () => {
  it.each([
    [{ ok: true, deleted: true }, true],
    [{ ok: true, deleted: false }, false],
    [{ ok: true }, false],
  ])('answers whether an entry was deleted (%j: %s), and the entry is then known to be gone', async (result, deleted) => {
    const fake = answering([result]);
    const keychain = createKeychain(options(fake.path));
    expect(await keychain.remove(ENTRY)).toBe(deleted);
    expect(JSON.parse(fake.log('request')!)).toEqual({ ops: [{ op: 'delete', ...ENTRY }] });
    // Known gone: a read does not visit the keychain again.
    expect(await keychain.read([ENTRY])).toEqual([undefined]);
    expect(fake.log('visits')).toBe('x');
  });

  it('is a KeychainError when the keychain refuses to delete', async () => {
    const fake = answering([{ ok: false, error: 'access denied' }]);
    expect(await reason(createKeychain(options(fake.path)).remove(ENTRY))).toBe('access denied');
  });
});

describe('read and write', () => {
  it('asks for each entry it does not know yet with a get, in the order given', async () => {
    const fake = answering([
      { ok: true, value: null },
      { ok: true, value: JSON.stringify(KEYS) },
    ]);
    expect(await createKeychain(options(fake.path)).read([ENTRY, OTHER])).toEqual([undefined, KEYS]);
    expect(JSON.parse(fake.log('request')!)).toEqual({
      ops: [
        { op: 'get', ...ENTRY },
        { op: 'get', ...OTHER },
      ],
    });
  });

  it.each([
    ['not JSON', 'plain-text-secret'],
    ['JSON null', 'null'],
    ['no subscription key', JSON.stringify({ apiKey: 'a-secret-value' })],
    ['no API key', JSON.stringify({ subscriptionKey: 's-secret-value' })],
    ['a key that is not text', JSON.stringify({ apiKey: 12345, subscriptionKey: 's-secret-value' })],
    ['a subscription key that is not text', JSON.stringify({ apiKey: 'a-secret-value', subscriptionKey: true })],
  ])('an entry holding %s is refused, naming the entry and not its value', async (_what, value) => {
    const fake = answering([{ ok: true, value }]);
    const error = await createKeychain(options(fake.path))
      .read([ENTRY])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(KeychainError);
    expect((error as Error).message).toBe(
      "the keychain cannot be used: the entry (service 'cip:https://api.example.com', account 'prod') does not hold keys cip stored",
    );
  });

  it('a write the keychain refuses says why, even when the read-back answers', async () => {
    const fake = answering([
      { ok: false, error: 'the collection is read-only' },
      { ok: true, value: null },
    ]);
    expect(await reason(createKeychain(options(fake.path)).write(ENTRY, KEYS))).toBe('the collection is read-only');
  });

  it.each([
    ['a null result', [null], [ENTRY], 'the helper gave no answer'],
    ['fewer results than it was asked for', [{ ok: true, value: null }], [ENTRY, OTHER], 'the keychain helper failed (exit 0)'],
  ])('an answer with %s is a KeychainError', async (_what, results, entries, why) => {
    expect(await reason(createKeychain(options(answering(results).path)).read(entries))).toBe(why);
  });
});

describe('the helper process', () => {
  it('an answer of exactly 1 MiB is read; one character more is refused', async () => {
    const answer = (size: number) => {
      const head = '{"results":[{"ok":true,"value":null}],"pad":"';
      return `${head}${'x'.repeat(size - head.length - 2)}"}`;
    };
    expect(answer(MAX_ANSWER_CHARS)).toHaveLength(MAX_ANSWER_CHARS);
    const exact = loggingHelper(`process.stdout.write(${JSON.stringify(answer(MAX_ANSWER_CHARS))});`);
    expect(await createKeychain(options(exact.path)).read([ENTRY])).toEqual([undefined]);
    const over = loggingHelper(`process.stdout.write(${JSON.stringify(answer(MAX_ANSWER_CHARS + 1))});`);
    expect(await reason(createKeychain(options(over.path)).read([ENTRY]))).toBe('the keychain helper said too much');
  });

  it('a helper that cannot be started says why', async () => {
    const keychain = createKeychain(options(loggingHelper('').path, { execPath: join(tempDir(), 'no-such-node') }));
    expect(await reason(keychain.read([ENTRY]))).toBe('cannot start the keychain helper (ENOENT)');
  });

  it('a helper killed by a signal before it answers', async () => {
    const fake = loggingHelper(`process.kill(process.pid, 'SIGKILL');`);
    expect(await reason(createKeychain(options(fake.path)).read([ENTRY]))).toBe('the keychain helper failed (exit by a signal)');
  });

  it('a helper that writes much on stderr is not blocked by it', async () => {
    const fake = loggingHelper(
      `process.stderr.write('w'.repeat(4 * 1024 * 1024));
process.stdout.write(JSON.stringify({ results: [{ ok: true, value: null }] }));`,
    );
    expect(await createKeychain(options(fake.path, { timeoutMs: 2_000 })).read([ENTRY])).toEqual([undefined]);
  });

  it('a helper that exits without reading its request is its failure, not an EPIPE that ends cip', async () => {
    const fake = loggingHelper('', 'process.exit(3);');
    // A request larger than a pipe holds, so the write is still going on when the helper has gone.
    const big: KeychainEntry = { service: `cip:https://${'h'.repeat(1024 * 1024)}.example.com`, account: 'prod' };
    expect(await reason(createKeychain(options(fake.path)).read([big]))).toBe('the keychain helper failed (exit 3)');
  });

  it('an aborted run starts no helper', async () => {
    const fake = answering([{ ok: true, value: null }]);
    const controller = new AbortController();
    controller.abort(new InterruptedError());
    await expect(createKeychain(options(fake.path, { signal: controller.signal })).read([ENTRY])).rejects.toBeInstanceOf(InterruptedError);
    expect(fake.log('visits')).toBeUndefined();
  });

  it('leaves no listener on the run’s signal once a visit is over', async () => {
    const controller = new AbortController();
    const keychain = createKeychain(options(answering([{ ok: true, deleted: true }]).path, { signal: controller.signal }));
    await keychain.remove(ENTRY);
    await keychain.remove(OTHER);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('credentialStore (CIP_CREDENTIAL_STORE)', () => {
  it.each([
    [undefined, 'keychain'],
    ['', 'keychain'],
    ['  ', 'keychain'],
    ['keychain', 'keychain'],
    [' keychain\n', 'keychain'],
    ['file', 'file'],
    ['  file ', 'file'],
  ])('%j is %s', (value, store) => {
    expect(credentialStore(value === undefined ? {} : { CIP_CREDENTIAL_STORE: value })).toBe(store);
  });

  it.each([
    ['vault', 'vault'],
    ['File', 'File'],
    [' files ', 'files'],
    ['key\u001bchain', 'key?chain'],
  ])('refuses %j, naming it printably', (value, shown) => {
    let caught: unknown;
    try {
      credentialStore({ CIP_CREDENTIAL_STORE: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as UsageError).message).toBe(`CIP_CREDENTIAL_STORE is '${shown}'`);
    expect((caught as UsageError).hint).toBe("use 'keychain' (the default) or 'file'");
  });
});
