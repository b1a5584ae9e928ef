// Redaction (src/secrets.ts) of a key with characters that JSON escapes, in each spelling a server may echo it
// in, and how a key is masked for people (auth status).
import { describe, expect, it } from 'vitest';
import { maskKey, Secrets } from '../../src/secrets.js';

describe('Secrets.redact', () => {
  // A quote and a backslash: JSON escapes them, and a JSON string that quotes JSON escapes them twice.
  const key = 'k"ey\\with-0123456789';
  const secrets = new Secrets();
  secrets.add(key);
  const around = (spelling: string) => `before ${spelling} after`;

  it.each([
    ['as it is', key],
    ['URL-encoded', encodeURIComponent(key)],
    ['URL-encoded, lower-case hex', encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())],
    ['JSON-escaped', 'k\\"ey\\\\with-0123456789'],
    ['JSON-escaped twice', 'k\\\\\\"ey\\\\\\\\with-0123456789'],
  ])('replaces the key %s', (_how, spelling) => {
    expect(secrets.redact(around(spelling))).toBe(around('***'));
  });

  it('redacts a key quoted inside a JSON message that a JSON body quotes again', () => {
    const body = JSON.stringify({ error: JSON.stringify({ message: `bad key ${key}!` }) });
    expect(secrets.redact(body)).toBe(JSON.stringify({ error: JSON.stringify({ message: 'bad key ***!' }) }));
  });

  it('replaces each occurrence once: the text after a key stays, even where it spells the key again beside the ***', () => {
    // Keys may hold any printable ASCII, '*' too.
    const starred = new Secrets();
    starred.add(`***${'x'.repeat(13)}`);
    expect(starred.redact(`***${'x'.repeat(26)}`)).toBe(`***${'x'.repeat(13)}`);
  });
});

describe('maskKey', () => {
  it.each([
    ['', '****'],
    ['abcdefg', '****'],
    ['abcdefgh', '****gh'],
    ['abcdefghijklmno', '****no'],
    ['abcdefghijklmnop', '****mnop'],
    ['abcdefghijklmnopqrstuvwxyz0123456789', '****6789'],
  ])('masks %j as %j: at most the last 4 characters, never more than a quarter', (key, masked) => {
    expect(maskKey(key)).toBe(masked);
  });
});

describe('Secrets.redact: every spelling a server can encode a key in', () => {
  // Every character System.Text.Json escapes by default (+ / = < > & '), and " and \ that every JSON writer does.
  const key = `Zq9+/Xk2"mP0\\aB=<>&'cD8`;
  const secrets = new Secrets();
  secrets.add(key);
  const unicode = (text: string, hex: (code: number) => string) =>
    [...text].map((char) => (/[A-Za-z0-9]/.test(char) ? char : `\\u${hex(char.charCodeAt(0))}`)).join('');

  it.each([
    ['as System.Text.Json writes it (\\u002B, upper-case hex)', unicode(key, (code) => code.toString(16).toUpperCase().padStart(4, '0'))],
    ['with lower-case \\u escapes', unicode(key, (code) => code.toString(16).padStart(4, '0'))],
    ['with \\/ for / and the short escapes', JSON.stringify(key).slice(1, -1).replace('/', '\\/')],
    ['JSON-escaped twice', JSON.stringify(JSON.stringify(key).slice(1, -1)).slice(1, -1)],
    ['\\u-escaped, then quoted again', JSON.stringify(unicode(key, (code) => code.toString(16).padStart(4, '0'))).slice(1, -1)],
    ['URL-encoded', encodeURIComponent(key)],
    ['URL-encoded, lower-case hex', encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())],
    ['every character percent-encoded', [...key].map((char) => `%${char.charCodeAt(0).toString(16)}`).join('')],
    ['as HTML character references', [...key].map((char) => `&#${char.charCodeAt(0)};`).join('')],
    ['as hexadecimal character references', [...key].map((char) => `&#x${char.charCodeAt(0).toString(16).toUpperCase()};`).join('')],
    ['in mixed spellings', `Zq9\\u002B%2FXk2\\"mP0\\\\aB\\u003d<>&'cD8`],
  ])('replaces the key %s', (_how, spelling) => {
    expect(secrets.redact(`before ${spelling} after`)).toBe('before *** after');
  });

  it('leaves a near miss alone: one character different is not the key', () => {
    const near = `${key.slice(0, -1)}9`;
    expect(secrets.redact(`x ${near} y`)).toBe(`x ${near} y`);
  });

  it('leaves text full of escapes that start like the key unchanged', () => {
    const text = `{"d":"Zq9\\u002B%2FXk2 Zq9+/X \\u005A%5a&#90; Zq9+/Xk2\\"mP0\\\\aB=<>&'cD"},`.repeat(1000);
    expect(secrets.redact(text)).toBe(text);
  });
});
