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
