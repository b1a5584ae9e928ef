// What the keychain helper does with a request (src/config/store/keychain-ops.ts), against a stand-in keyring: the
// calls it makes, the answer it writes, and what it says when the keyring or the request fails. The helper as
// a process, with the real keyring, is in test/e2e/keychain.test.ts.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ENTRY_OPTIONS, answer, perform, readRequest, respond, type Keyring } from '../../../../src/config/store/keychain-ops.js';
import type { Operation } from '../../../../src/config/store/keychain.js';

const ENTRY = { service: 'cip:https://api.example.com', account: 'prod' };
const SECRET = '{"apiKey":"secret-api-key-0123456789","subscriptionKey":"secret-sub-key-0123456789"}';

/** A keyring held in a Map, which records each call: `new Entry(service, account, options)` and the method. */
function fakeKeyring(fail?: Partial<Record<'new' | 'get' | 'set' | 'delete', unknown>>) {
  const store = new Map<string, string>();
  const calls: unknown[][] = [];
  const raise = (what: 'new' | 'get' | 'set' | 'delete') => {
    if (fail && what in fail) throw fail[what];
  };
  const keyring: Keyring = {
    Entry: class {
      readonly key: string;
      constructor(service: string, account: string, options: typeof ENTRY_OPTIONS) {
        calls.push(['new', service, account, options]);
        raise('new');
        this.key = `${service}/${account}`;
      }
      getPassword() {
        calls.push(['get', this.key]);
        raise('get');
        return store.get(this.key) ?? null;
      }
      setPassword(password: string) {
        calls.push(['set', this.key, password]);
        raise('set');
        store.set(this.key, password);
      }
      deletePassword() {
        calls.push(['delete', this.key]);
        raise('delete');
        return store.delete(this.key);
      }
    },
  };
  return { keyring, store, calls };
}

const request = (ops: Operation[]) => () => Promise.resolve({ ops });

describe('perform, one call on the keyring', () => {
  it('opens the entry in the Secret Service (never the kernel keyring) and makes the call asked for', () => {
    const { keyring, calls } = fakeKeyring();
    expect(perform(keyring, { op: 'get', ...ENTRY })).toStrictEqual({ ok: true, value: null });
    expect(perform(keyring, { op: 'set', ...ENTRY, secret: SECRET })).toStrictEqual({ ok: true });
    expect(perform(keyring, { op: 'get', ...ENTRY })).toStrictEqual({ ok: true, value: SECRET });
    expect(perform(keyring, { op: 'delete', ...ENTRY })).toStrictEqual({ ok: true, deleted: true });
    expect(perform(keyring, { op: 'delete', ...ENTRY })).toStrictEqual({ ok: true, deleted: false });
    const opened = ['new', ENTRY.service, ENTRY.account, { linux: { store: 'secret-service' } }];
    const key = `${ENTRY.service}/${ENTRY.account}`;
    expect(calls).toStrictEqual([
      opened,
      ['get', key],
      opened,
      ['set', key, SECRET],
      opened,
      ['get', key],
      opened,
      ['delete', key],
      opened,
      ['delete', key],
    ]);
  });

  it.each([
    ['new', new Error('Platform failure: no Secret Service\nat line two'), 'Platform failure: no Secret Service'],
    ['get', new Error('locked'), 'locked'],
    ['set', new Error('Attribute too long\n\nmore'), 'Attribute too long'],
    ['delete', 'a thrown string\nwith a second line', 'a thrown string'],
    ['get', 42, '42'],
    ['get', new Error(''), ''],
  ] as const)('a keyring that throws at %s gives ok: false and the first line of its error', (where, thrown, error) => {
    const { keyring } = fakeKeyring({ [where]: thrown });
    const op = where === 'new' ? 'get' : where;
    const operation: Operation = op === 'set' ? { op, ...ENTRY, secret: SECRET } : { op, ...ENTRY };
    expect(perform(keyring, operation)).toStrictEqual({ ok: false, error });
  });
});

describe('readRequest', () => {
  it('joins the chunks of the stream as UTF-8, a character split between two chunks too, and parses them', async () => {
    const bytes = Buffer.from('{"ops":[{"op":"set","service":"s","account":"Åsa","secret":"x"}]}');
    const split = bytes.indexOf(0xc3) + 1;
    const input = Readable.from([bytes.subarray(0, split), bytes.subarray(split)], { objectMode: false });
    expect(await readRequest(input)).toStrictEqual({ ops: [{ op: 'set', service: 's', account: 'Åsa', secret: 'x' }] });
  });
});

describe('answer and respond, the whole request', () => {
  it('answers each operation in order, in one visit', async () => {
    const { keyring, store } = fakeKeyring();
    const ops: Operation[] = [
      { op: 'set', ...ENTRY, secret: SECRET },
      { op: 'get', ...ENTRY },
      { op: 'get', service: ENTRY.service, account: 'other' },
    ];
    expect(await answer(request(ops), () => Promise.resolve(keyring))).toStrictEqual({
      results: [{ ok: true }, { ok: true, value: SECRET }, { ok: true, value: null }],
    });
    expect([...store.keys()]).toStrictEqual([`${ENTRY.service}/${ENTRY.account}`]);
    const output = await respond(request([{ op: 'delete', ...ENTRY }]), () => Promise.resolve(keyring));
    expect(output).toBe('{"results":[{"ok":true,"deleted":true}]}');
  });

  it('reads the request before it loads the keyring', async () => {
    const order: string[] = [];
    const { keyring } = fakeKeyring();
    await answer(
      () => {
        order.push('request');
        return Promise.resolve({ ops: [] });
      },
      () => {
        order.push('keyring');
        return Promise.resolve(keyring);
      },
    );
    expect(order).toStrictEqual(['request', 'keyring']);
  });

  it('says the keyring module cannot be loaded, with the first line of why, and makes no call', async () => {
    const missing = Object.assign(new Error("Cannot find module '@napi-rs/keyring-linux-x64-gnu'\nRequire stack:\n- x"), {
      code: 'MODULE_NOT_FOUND',
    });
    const expected = {
      unavailable: "the keychain module @napi-rs/keyring cannot be loaded here (Cannot find module '@napi-rs/keyring-linux-x64-gnu')",
    };
    expect(await answer(request([{ op: 'get', ...ENTRY }]), () => Promise.reject(missing))).toStrictEqual(expected);
    expect(await respond(request([{ op: 'get', ...ENTRY }]), () => Promise.reject(missing))).toBe(JSON.stringify(expected));
  });

  it('names only the kind of failure when the request cannot be read, never quoting it', async () => {
    const { keyring, calls } = fakeKeyring();
    const notJson = Readable.from([`{"ops":[{"op":"set","secret":${JSON.stringify(SECRET)}`]);
    const output = await respond(
      () => readRequest(notJson),
      () => Promise.resolve(keyring),
    );
    expect(output).toBe('{"unavailable":"the keychain helper failed (SyntaxError)"}');
    expect(calls).toStrictEqual([]);
    const odd = await respond(
      () => Promise.reject(SECRET),
      () => Promise.resolve(keyring),
    );
    expect(odd).toBe('{"unavailable":"the keychain helper failed (error)"}');
  });
});
