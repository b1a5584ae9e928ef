// How run() and outputFailed() (src/run.ts) turn what happened into an exit code and one error line: help,
// commander's errors, interrupts, cip's own errors with and without hints, and failures that are bugs.
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { exitCode } from '../../src/errors.js';
import { outputFailed, run } from '../../src/run.js';
import type { Streams } from '../../src/terminal/io-streams.js';
import { drain, fakeIO, testContext } from '../helpers/io.js';

const API_KEY = 'run-edges-api-key-0123456789';

function streams(stdout: Writable = new PassThrough()): Streams & { stderr: PassThrough } {
  return fakeIO({ stdout }) as Streams & { stderr: PassThrough };
}

const read = drain;

/** A stdout whose every write throws `thrown`: a stand-in for a bug that throws while printing. */
function throwing(thrown: unknown): Writable {
  return Object.assign(new Writable(), {
    write: (): boolean => {
      throw thrown;
    },
  });
}

describe('run', () => {
  it('help is exit 0', async () => {
    const io = streams();
    expect(await run(['--help'], testContext(io))).toBe(0);
    expect(drain(io.stdout as PassThrough)).toContain('Usage:');
  });

  it('an error that only looks like commander (a code not in its namespace) is a bug: exit 1', async () => {
    const io = streams(throwing(Object.assign(new Error('write EPIPE'), { code: 'EPIPE', exitCode: 0 })));
    expect(await run(['--version'], testContext(io))).toBe(exitCode('unexpected'));
    expect(read(io.stderr)).toBe('error: unexpected failure: write EPIPE (this is a bug; set CIP_DEBUG=1 to see details)\n');
  });

  it('a commander error with a non-zero exit code is a usage error, whatever its own code', async () => {
    const io = streams(throwing(Object.assign(new Error('x'), { code: 'commander.somethingNew', exitCode: 1 })));
    expect(await run(['--version'], testContext(io))).toBe(exitCode('usage'));
    expect(read(io.stderr)).toBe('');
  });

  it('a thrown value that is not an Error is reported by its text, first line only, with keys redacted', async () => {
    const io = streams(throwing(`bad ${API_KEY}\nsecond line`));
    expect(await run(['--version'], testContext(io, { CIP_API_KEY: API_KEY }))).toBe(exitCode('unexpected'));
    expect(read(io.stderr)).toBe('error: unexpected failure: bad *** (this is a bug; set CIP_DEBUG=1 to see details)\n');
  });

  it('a thrown non-Error shows no stack even under CIP_DEBUG', async () => {
    const io = streams(throwing('plain text'));
    expect(await run(['--version'], testContext(io, { CIP_DEBUG: '1' }))).toBe(exitCode('unexpected'));
    expect(read(io.stderr)).toBe('error: unexpected failure: plain text (this is a bug; set CIP_DEBUG=1 to see details)\n');
  });

  it('anything that fails after the user interrupted is an interrupt, with no error line', async () => {
    const controller = new AbortController();
    const io = streams(
      Object.assign(new Writable(), {
        write: (): boolean => {
          controller.abort();
          throw new Error('stream destroyed');
        },
      }),
    );
    expect(await run(['--version'], testContext(io, {}, '0.0.0', controller.signal))).toBe(exitCode('interrupted'));
    expect(read(io.stderr)).toBe('');
  });

  it('a CipError without a hint is one line with no parentheses, and CIP_DEBUG adds its stack, redacted', async () => {
    // An unknown profile with no profiles at all: a usage error whose hint says how to create it.
    const hinted = streams();
    const dir = `/nonexistent/run-edges-${process.pid}`;
    expect(await run(['--profile', 'nope', 'env', 'list'], testContext(hinted, { CIP_CONFIG_DIR: dir }))).toBe(2);
    expect(read(hinted.stderr)).toBe("error: unknown profile 'nope' (run 'cip auth login --profile nope' to create it)\n");

    // A bad key from the environment: its error has no hint.
    const plain = streams();
    const env = {
      CIP_CONFIG_DIR: dir,
      CIP_API_KEY: 'short',
      CIP_SUBSCRIPTION_KEY: 'subscription-key-0123456789',
      CIP_ENTERPRISE_ID: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b',
    };
    expect(await run(['env', 'list'], testContext(plain, env))).toBe(2);
    expect(read(plain.stderr)).toBe('error: the API key from CIP_API_KEY is not a valid key: it has 5 characters; keys have 16 to 1024\n');

    const debug = streams();
    expect(await run(['env', 'list'], testContext(debug, { ...env, CIP_DEBUG: 'yes' }))).toBe(2);
    const lines = read(debug.stderr).split('\n');
    expect(lines[0]).toBe('error: the API key from CIP_API_KEY is not a valid key: it has 5 characters; keys have 16 to 1024');
    expect(lines[1]).toMatch(/^UsageError: the API key/);
    expect(lines.some((line) => /^\s+at /.test(line))).toBe(true);
    expect(lines.at(-1)).toBe('');
  });
});

describe('outputFailed', () => {
  it.each([
    ['ENOSPC', 'ENOSPC (no space left on device)'],
    ['EIO', 'EIO (input/output error)'],
    ['EDQUOT', 'EDQUOT (disk quota exceeded)'],
    ['EFBIG', 'EFBIG (file too large)'],
    ['EBADF', 'EBADF (stdout is closed)'],
    ['EPIPE', 'EPIPE'],
  ])('names %s in one error line, and the run fails as "output"', (code, reason) => {
    const io = streams();
    const ctx = testContext(io);
    expect(outputFailed(ctx, Object.assign(new Error(`write ${code}`), { code }))).toBe(exitCode('output'));
    expect(read(io.stderr)).toBe(`error: cannot write the output to stdout: ${reason}\n`);
  });

  it('falls back to the message of an error without a code', () => {
    const io = streams();
    expect(outputFailed(testContext(io), new Error('the stream was destroyed'))).toBe(exitCode('output'));
    expect(read(io.stderr)).toBe('error: cannot write the output to stdout: the stream was destroyed\n');
  });
});
