// What the lost-update check says and shares (src/domain/environments/conflict.ts): the summary of what changed,
// cut to five fields with values cut after the keys are redacted, and one list read shared by a batch's 412s.
import { describe, expect, it } from 'vitest';
import type { ListRead, EnvironmentsApi } from '../../../../src/api/environments.js';
import { changeSummary, guardedUpdate, rereadFromList, sharedRead } from '../../../../src/domain/environments/conflict.js';
import { ProtocolError } from '../../../../src/errors.js';
import { ExactNumber } from '../../../../src/json/exact.js';

const plain = (text: string) => text;

describe('changeSummary', () => {
  it('names changed, removed and added fields, objects field by field, numbers by value', () => {
    expect(
      changeSummary(
        { name: 'a', settings: { retention: 7, level: 'x' }, tags: ['a'], quota: 30, gone: true },
        { name: 'a', settings: { retention: 30, level: 'x' }, tags: ['a', 'b'], quota: 30.0, added: null },
        plain,
      ),
    ).toBe('settings.retention 7 → 30, tags ["a"] → ["a","b"], gone removed, added added (null)');
  });

  it('keeps the digits of numbers beyond 2^53', () => {
    expect(changeSummary({ q: new ExactNumber('9007199254740993') }, { q: new ExactNumber('9007199254740995') }, plain)).toBe(
      'q 9007199254740993 → 9007199254740995',
    );
  });

  it('says five fields, then how many more', () => {
    const before = Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`f${index}`, index]));
    const after = Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`f${index}`, index + 1]));
    expect(changeSummary(before, after, plain)).toBe('f0 0 → 1, f1 1 → 2, f2 2 → 3, f3 3 → 4, f4 4 → 5, and 3 more');
  });

  it('redacts a value before cutting it, so no part of a key is left; cleans control characters', () => {
    const key = 'k'.repeat(30) + 'SECRETSECRETSECRET';
    const redact = (text: string) => text.split(key).join('***');
    const summary = changeSummary({ conn: 'x'.repeat(30) + key }, { conn: 'y', 'bad\u001b[2J': 1 }, redact);
    expect(summary).not.toContain('SECRET');
    expect(summary).not.toContain('k'.repeat(5));
    expect(summary).toBe(`conn "${'x'.repeat(30)}***" → "y", bad?[2J added (1)`);
  });

  it('cuts a long value to 40 characters', () => {
    expect(changeSummary({ d: 'a'.repeat(100) }, { d: 'b' }, plain)).toBe(`d "${'a'.repeat(38)}… → "b"`);
  });
});

describe('sharedRead', () => {
  it('callers at the same moment share one read; a later caller reads again', async () => {
    let reads = 0;
    const read = sharedRead(() => Promise.resolve<ListRead>({ items: [++reads], validator: undefined }));
    const [a, b] = await Promise.all([read(), read()]);
    expect(a).toBe(b);
    expect(reads).toBe(1);
    expect((await read()).items).toEqual([2]);
  });
});

describe('guardedUpdate without a validator', () => {
  const target = { id: 'e1', name: 'a', record: { id: 'e1', name: 'a' }, validator: undefined };
  const options = (items: unknown[]) => ({
    force: false,
    compare: true,
    redact: plain,
    reread: rereadFromList(() => Promise.resolve<ListRead>({ items, validator: undefined }), 'e1', false),
  });
  const api = { update: () => Promise.resolve('sent') } as unknown as EnvironmentsApi;

  it('sends when the list read again holds the record as read, the same twice included', async () => {
    expect(
      await guardedUpdate(
        api,
        target,
        { id: 'e1', name: 'b' },
        options([
          { id: 'e1', name: 'a' },
          { id: 'e1', name: 'a' },
        ]),
      ),
    ).toBe('sent');
  });

  it('refuses when the list read again gives two different records under the id: a broken answer, nothing sent', async () => {
    const twice = options([
      { id: 'e1', name: 'a' },
      { id: 'e1', name: 'b' },
    ]);
    await expect(guardedUpdate(api, target, { id: 'e1', name: 'c' }, twice)).rejects.toThrow(ProtocolError);
  });
});
