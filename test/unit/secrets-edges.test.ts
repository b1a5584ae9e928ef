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
