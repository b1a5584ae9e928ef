// Streams and contexts for running commands in-process: no terminal anywhere, everything captured.
import { PassThrough, Writable, type Readable } from 'node:stream';
import { join } from 'node:path';
import { Context } from '../../src/context.js';
import type { Env } from '../../src/env.js';
import type { Output } from '../../src/output/writer.js';
import type { Streams } from '../../src/terminal/io-streams.js';
import { BUILD } from './cli.js';

/** The built helper (npm test builds first): in-process runs reach a keychain as the binary does. */
export const KEYCHAIN_HELPER = join(BUILD, 'dist', 'keychain-helper.cjs');
/** The built thread --jq runs in. */
export const JQ_WORKER = join(BUILD, 'dist', 'jq-worker.cjs');

/**
 * What was written to a captured stream (a PassThrough) and not read yet, as text: every chunk, where a single
 * read() gives only the first since Node 26 (a read returns one buffer at a time).
 */
export function drain(stream: Readable): string {
  const chunks: Buffer[] = [];
  for (let chunk: unknown; (chunk = stream.read()) !== null;) chunks.push(Buffer.from(chunk as Buffer | string));
  return Buffer.concat(chunks).toString('utf8');
}

export function fakeIO(overrides: Partial<Streams> = {}): Streams {
  return {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    columns: undefined,
    ...overrides,
  };
}

/**
 * A context as main.ts builds one, with the given streams and environment (nothing from process.env). With no
 * working folder, no project file is looked for; the keychain helper is the built one unless a test brings its own.
 */
export function testContext(
  streams: Streams = fakeIO(),
  env: Env = {},
  version = '0.0.0',
  signal?: AbortSignal,
  cwd?: string,
  keychainHelper = KEYCHAIN_HELPER,
): Context {
  return new Context({
    streams,
    env,
    version,
    host: {
      uid: process.getuid?.(),
      gid: process.getgid?.(),
      cwd,
      nodeVersion: process.version,
      execPath: process.execPath,
      keychainHelper,
      jqWorker: JQ_WORKER,
    },
    ...(signal ? { signal } : {}),
  });
}

/**
 * What the writer (output/writer.ts) is given, with stdout kept as the chunks written: JSON unless told,
 * no terminal, no colour, nothing redacted.
 */
export function writerOutput(overrides: Partial<Output> = {}): { io: Output; writes: string[]; written: () => string } {
  const writes: string[] = [];
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString('utf8'));
      done();
    },
  });
  const io: Output = {
    stdout,
    stdoutIsTTY: false,
    columns: undefined,
    outputFormat: 'json',
    jq: undefined,
    headers: true,
    colorLevel: () => 0,
    info: () => undefined,
    redact: (text) => text,
    ...overrides,
  };
  return { io, writes, written: () => writes.join('') };
}
