// Redaction (src/secrets.ts): keys registered with the context never reach stderr, whatever carries them (an
// error from a bug, with or without CIP_DEBUG stacks, a hostile name, id or URL); a key with characters that
// JSON escapes is found in each spelling a server may echo it in; and how a key is masked for people.
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MIN_KEY_LENGTH } from '../../src/config/validate.js';
import { run } from '../../src/run.js';
import { Secrets, maskKey } from '../../src/secrets.js';
import type { Streams } from '../../src/terminal/io-streams.js';
import { testContext } from '../helpers/io.js';

const API_KEY = 'live-api-key-7f3a9c2e51b84d06';
const SUBSCRIPTION_KEY = 'live-subscription-key-0c4e8a1b';

function contextWithBrokenStdout(env: Record<string, string>) {
  let stderr = '';
  const io: Streams = {
    // A bug that leaks a key into an error message: stdout throws it.
    stdout: new Writable({
      write() {
        throw new Error(`boom with ${API_KEY} and ${SUBSCRIPTION_KEY}`);
      },
    }),
    stderr: new Writable({
      write(chunk, _encoding, done) {
        stderr += String(chunk);
        done();
      },
    }),
    stdin: new PassThrough(),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    columns: undefined,
  };
  const ctx = testContext(io, { CIP_API_KEY: API_KEY, CIP_SUBSCRIPTION_KEY: SUBSCRIPTION_KEY, ...env }, '1.2.3');
  return { ctx, stderr: () => stderr };
}

describe('crash reports', () => {
  for (const debug of ['', '1']) {
    it(`redact the keys${debug ? ' in CIP_DEBUG stack traces too' : ''}`, async () => {
      const { ctx, stderr } = contextWithBrokenStdout({ CIP_DEBUG: debug });
      const code = await run(['--help'], ctx);
      expect(code).toBe(1);
      expect(stderr()).toMatch(/^error: unexpected failure: boom with \*\*\* and \*\*\* \(this is a bug/);
      expect(stderr()).not.toContain(API_KEY);
      expect(stderr()).not.toContain(SUBSCRIPTION_KEY);
      if (debug) expect(stderr()).toMatch(/^\s+at /m);
      else expect(stderr()).not.toMatch(/^\s+at /m);
    });
  }

  it('keys shorter than cip accepts (16 characters) are not treated as secrets (they would blank out words)', () => {
    const secrets = new Secrets();
    secrets.add('abcdefghijklmno');
    expect(secrets.redact('abcdefghijklmno')).toBe('abcdefghijklmno');
    secrets.add('abcdefghijklmnop');
    expect(secrets.redact('x abcdefghijklmnop y')).toBe('x *** y');
  });

  it('redacts the longest key first, and each key URL-encoded and JSON-escaped', () => {
    const secrets = new Secrets();
    const short = 'k3y/Alpha"01\\+0001';
    const long = `${short}-SUBSCRIPTION-TAIL-7777`;
    secrets.add(short);
    secrets.add(long);
    const lower = (text: string) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
    const echo = [
      long,
      short,
      encodeURIComponent(long),
      lower(encodeURIComponent(short)),
      JSON.stringify(short),
      JSON.stringify(long),
    ].join(' ');
    expect(secrets.redact(echo)).toBe('*** *** *** *** "***" "***"');
  });
});

describe('spellings a hostile name, id or URL carries a key in', () => {
  const KEY = 'Zq7+Kd9=Xw2Lp4Rt8Vn6';
  const secrets = new Secrets();
  secrets.add(KEY);
  const percent = (text: string, prefix = '%') =>
    Array.from(text, (char) => `${prefix}${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');

  it('percent-encoded twice, or more (a URL encoded again)', () => {
    expect(secrets.redact(`/Environments/${percent(KEY, '%25')}`)).toBe('/Environments/***');
    expect(secrets.redact(`/Environments/${percent(KEY, '%2525').toLowerCase()}`)).toBe('/Environments/***');
  });

  it('in base64 and base64url, at each offset, in what cip keeps (redactKept): the characters made of the key alone', () => {
    for (const prefix of ['', 'a', 'ab', 'abc'])
      for (const encoding of ['base64', 'base64url'] as const) {
        const encoded = Buffer.from(`${prefix}${KEY}tail`).toString(encoding);
        // Not in what is printed: that would cost every table cell six more looks per key.
        expect(secrets.redact(encoded)).toBe(encoded);
        const shown = secrets.redactKept(encoded);
        expect(shown, `${encoding} after '${prefix}'`).toMatch(/^[A-Za-z0-9+/_-]{0,7}\*\*\*[A-Za-z0-9+/=_-]{0,12}$/);
      }
    // base64 in JSON, its / escaped.
    const slashed = Buffer.from(`??${KEY}`).toString('base64');
    expect(secrets.redactKept(JSON.stringify(slashed).replace(/\//g, '\\/'))).toContain('***');
  });

  it('cut short where cip cuts text (…): 8 characters of a key or more beside the cut, in any spelling', () => {
    const cut = (text: string, length: number) => `${text.slice(0, length)}…`;
    expect(secrets.redact(`DELETE Environments/${cut(percent(KEY), 40)}: not found`)).toBe('DELETE Environments/***…: not found');
    // A cut inside a %-escape leaves its start: that goes too.
    expect(secrets.redact(`DELETE Environments/${cut(percent(KEY), 41)}`)).toBe('DELETE Environments/***…');
    expect(secrets.redact(`name '${cut(`prod-${KEY}`, 20)}'`)).toBe("name 'prod-***…'");
    expect(secrets.redact(`'…${KEY.slice(6)}'`)).toBe("'…***'");
    expect(secrets.redact(`'…${KEY.slice(4, 16)}…'`)).toBe("'…***…'");
    // Each spelling, read backwards up to a cut and forwards from one.
    const json = (text: string) => Array.from(text, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const entities = (text: string) => Array.from(text, (char) => `&#${char.charCodeAt(0)};`).join('');
    for (const spell of [json, entities, (text: string) => percent(text, '%25'), (text: string) => JSON.stringify(text).slice(1, -1)]) {
      expect(secrets.redact(`x ${spell(KEY.slice(0, 12))}…`)).toBe('x ***…');
      expect(secrets.redact(`…${spell(KEY.slice(9))} x`)).toBe('…*** x');
    }
    const slashed = new Secrets();
    slashed.add('k3y/Alpha"01/+0001-tail');
    expect(slashed.redact(`x ${JSON.stringify('k3y/Alpha"01/+').slice(1, -1).replace(/\//g, '\\/')}…`)).toBe('x ***…');
    // Fewer than 8 characters of it show no more than a mask shows; text without a key is left alone.
    expect(secrets.redact(`'${KEY.slice(0, 7)}…'`)).toBe(`'${KEY.slice(0, 7)}…'`);
    expect(secrets.redact('a long description that was cut…')).toBe('a long description that was cut…');
    expect(secrets.redact('…')).toBe('…');
  });
});

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

describe('redaction', () => {
  it('redacts a key that arrives with spaces around it, and its lower-case URL encoding', () => {
    const secrets = new Secrets();
    secrets.add('  key/with+signs=0123456789  ');
    expect(secrets.redact('a key/with+signs=0123456789 b')).toBe('a *** b');
    expect(secrets.redact('q=key%2fwith%2bsigns%3d0123456789&x')).toBe('q=***&x');
    expect(secrets.redact('q=key%2Fwith%2Bsigns%3D0123456789&x')).toBe('q=***&x');
  });

  it('redacts every occurrence, and ignores empty or missing keys', () => {
    const secrets = new Secrets();
    secrets.add(undefined);
    secrets.add('');
    secrets.add('                    ');
    expect(secrets.redact('nothing to hide  ')).toBe('nothing to hide  ');
    secrets.add('abcdefghijklmnopqrst');
    expect(secrets.redact('abcdefghijklmnopqrst-abcdefghijklmnopqrst')).toBe('***-***');
  });

  it('changes nothing before a key is registered', () => {
    const secrets = new Secrets();
    for (const text of ['', 'plain text', 'Stryker was here', '*** already']) expect(secrets.redact(text)).toBe(text);
  });

  it('a key registered twice is still redacted', () => {
    const secrets = new Secrets();
    secrets.add('repeated-key-0123456789');
    secrets.add('repeated-key-0123456789');
    expect(secrets.redact('[repeated-key-0123456789]')).toBe('[***]');
  });

  it('accepts a key of exactly the shortest length cip takes', () => {
    expect(MIN_KEY_LENGTH).toBe(16);
    const secrets = new Secrets();
    secrets.add('k'.repeat(MIN_KEY_LENGTH));
    expect(secrets.redact(`<${'k'.repeat(MIN_KEY_LENGTH)}>`)).toBe('<***>');
  });
});
