// Keys registered with the context never reach stderr, whatever carries them: an error from a bug (a crash
// report), with or without CIP_DEBUG stacks.
import { PassThrough, Writable } from 'node:stream';
import { testContext } from '../helpers/io.js';
import { describe, expect, it } from 'vitest';
import type { Streams } from '../../src/terminal/io-streams.js';
import { Secrets } from '../../src/secrets.js';
import { run } from '../../src/run.js';

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
