// What the property-based tests (fast-check) generate, shared by the unit files that use them: text full of control
// characters, escapes, wide and zero-width characters and lone surrogates; JSON of every shape; rows as a server
// may send them; and the checks they share.
import fc from 'fast-check';
import { expect } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { ExactNumber } from '../../src/json/exact.js';

export async function holds<Ts>(property: fc.IProperty<Ts> | fc.IAsyncProperty<Ts>, numRuns: number): Promise<void> {
  await fc.assert(property, { numRuns });
}

// C0, DEL, C1 (includes ESC \u001b, BEL \u0007, CSI \u009b), and the Unicode line/paragraph separators.

export const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** CONTROL plus what could reorder or hide text at a terminal: bidi controls and invisible characters. */

export const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Calls fn; a throw must be a UsageError with exit code 2 (and a clean message). Returns ok/value. */
export function usageOr<T>(fn: () => T): { ok: true; value: T } | { ok: false; error: UsageError } {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    return { ok: false, error: error as UsageError };
  }
}

export async function usageOrAsync<T>(fn: () => T | Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: UsageError }> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    return { ok: false, error: error as UsageError };
  }
}

/** A value that survives JSON unchanged: null, booleans, finite numbers, strings, arrays and plain objects of them. */
export function isJsonValue(value: unknown): boolean {
  if (value === null || typeof value === 'boolean' || typeof value === 'string' || value instanceof ExactNumber) return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonValue);
  if (isRecord(value)) return Object.getPrototypeOf(value) === Object.prototype && Object.values(value).every(isJsonValue);
  return false;
}

/** What the value looks like after a trip through JSON (-0 becomes 0, and so on). */
export function viaJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/** JSON number texts of every size and shape: long integers, long fractions, exponents, -0, trailing zeros. */
export const jsonNumberText = fc
  .tuple(
    fc.boolean(),
    fc.oneof(
      fc.constant('0'),
      fc
        .tuple(fc.integer({ min: 1, max: 9 }), fc.string({ unit: fc.constantFrom(...Array.from('0123456789')), maxLength: 40 }))
        .map(([first, rest]) => `${first}${rest}`),
    ),
    fc.option(fc.string({ unit: fc.constantFrom(...Array.from('0123456789')), minLength: 1, maxLength: 30 }), { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 999 })), { nil: undefined }),
  )
  .map(
    ([negative, whole, fraction, exponent]) =>
      `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent === undefined ? '' : `${exponent[0]}${exponent[1]}${exponent[2]}`}`,
  );

export const SPECIALS = [
  '\u001b[31m',
  '\u001b[0m',
  '\u001b]0;title\u0007',
  '\u009b31m',
  '\u0007',
  '\u0000',
  '\u007f',
  '\u0085',
  '\u009f',
  '\n',
  '\r\n',
  '\r',
  '\t',
  '\u000b',
  '\u2028',
  '\u2029',
  '\u200d',
  '\u200b',
  '\ufeff',
  '\u202e',
  '\u00a0',
  '❤️',
  '1️⃣',
  '☀️',
  '👨‍👩‍👧',
  '👍🏽',
  '🇺🇸',
  '漢字',
  'e\u0301',
  '\u0301',
  '\u1100\u1161',
  '\ud800',
  '\udc00',
  ' ',
  '  ',
  '=',
  '==',
  '"',
  '{',
  '[',
  '\\',
  '…',
  '.',
  ':',
  'id',
  'null',
  'true',
  '-1',
  '1e400',
  '12345678901234567890',
];
export const piece = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ maxLength: 12 }), fc.constantFrom(...SPECIALS));
/** Short strings full of control characters, escapes, wide and zero-width characters and lone surrogates. */
export const nasty = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
export const repeated = fc.tuple(piece, fc.integer({ min: 2, max: 60 })).map(([part, count]) => part.repeat(count));
export const huge = fc
  .tuple(nasty, fc.integer({ min: 1_000, max: 10_000 }))
  .map(([text, size]) => (text || 'x').repeat(Math.ceil(size / Math.max(1, text.length))).slice(0, size));
export const cellString = fc.oneof({ weight: 6, arbitrary: nasty }, { weight: 2, arbitrary: repeated }, { weight: 1, arbitrary: huge });

export const KEYS = [
  'id',
  'ID',
  'Id',
  'name',
  'displayName',
  'title',
  'label',
  'envId',
  'status',
  'description',
  'created_at',
  'constructor',
  'toString',
  '__proto__',
  'hasOwnProperty',
  'valueOf',
  'value',
];
export const keyArb = fc.oneof(fc.constantFrom(...KEYS), nasty);

export const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', maxDepth: 8 },
    cellString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('json'), { maxLength: 5 }),
    fc.dictionary(keyArb, tie('json'), { maxKeys: 6 }),
  ),
}));
/** Rows as the CLI gets them: whatever JSON.parse makes of a server's answer. */
export const rowsArb = fc
  .array(
    fc.oneof(
      { weight: 5, arbitrary: fc.dictionary(keyArb, json, { maxKeys: 8 }) },
      { weight: 1, arbitrary: json },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
    ),
    { maxLength: 8 },
  )
  .map((rows) => viaJson(rows) as unknown[]);
