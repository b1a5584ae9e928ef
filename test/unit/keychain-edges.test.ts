// The keychain client's edges against stand-in helpers: check and remove, answers that are short, empty, too
// long or not keys, a helper that cannot start, dies by a signal, talks on stderr or never reads its request,
// and an abort before the visit. The usual paths are in keychain.test.ts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { getEventListeners } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeychainError, createKeychain, type KeychainEntry, type KeychainOptions } from '../../src/config/keychain.js';
import { InterruptedError } from '../../src/errors.js';
import { tempDir } from '../helpers/cli.js';

const ENTRY = { service: 'cip:https://api.example.com', account: 'prod' };
const OTHER = { service: 'cip:https://api.example.com', account: 'other' };
const KEYS = { apiKey: 'secret-api-key-0123456789', subscriptionKey: 'secret-sub-key-0123456789' };
const MAX_ANSWER_CHARS = 1024 * 1024;

/**
 * A stand-in helper. `body` runs once stdin has ended, with `request` (the parsed request) and `log(name,
 * value)`; `raw` replaces the whole script (it then reads nothing).
 */
function helper(body: string, raw?: string): { path: string; log: (name: string) => string | undefined } {
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
const answering = (results: unknown[]) => helper(`process.stdout.write(${JSON.stringify(JSON.stringify({ results }))});`);

function options(path: string | undefined, extra: Partial<KeychainOptions> = {}): KeychainOptions {
  return { execPath: process.execPath, helper: path, env: { PATH: process.env.PATH }, signal: new AbortController().signal, ...extra };
}

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
    const exact = helper(`process.stdout.write(${JSON.stringify(answer(MAX_ANSWER_CHARS))});`);
    expect(await createKeychain(options(exact.path)).read([ENTRY])).toEqual([undefined]);
    const over = helper(`process.stdout.write(${JSON.stringify(answer(MAX_ANSWER_CHARS + 1))});`);
    expect(await reason(createKeychain(options(over.path)).read([ENTRY]))).toBe('the keychain helper said too much');
  });

  it('a helper that cannot be started says why', async () => {
    const keychain = createKeychain(options(helper('').path, { execPath: join(tempDir(), 'no-such-node') }));
    expect(await reason(keychain.read([ENTRY]))).toBe('cannot start the keychain helper (ENOENT)');
  });

  it('a helper killed by a signal before it answers', async () => {
    const fake = helper(`process.kill(process.pid, 'SIGKILL');`);
    expect(await reason(createKeychain(options(fake.path)).read([ENTRY]))).toBe('the keychain helper failed (exit by a signal)');
  });

  it('a helper that writes much on stderr is not blocked by it', async () => {
    const fake = helper(
      `process.stderr.write('w'.repeat(4 * 1024 * 1024));
process.stdout.write(JSON.stringify({ results: [{ ok: true, value: null }] }));`,
    );
    expect(await createKeychain(options(fake.path, { timeoutMs: 2_000 })).read([ENTRY])).toEqual([undefined]);
  });

  it('a helper that exits without reading its request is its failure, not an EPIPE that ends cip', async () => {
    const fake = helper('', 'process.exit(3);');
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
