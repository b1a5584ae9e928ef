// Runs cip in-process, the way main.ts does, but with captured streams and the environment given: the same
// run() and exit codes as the binary, without the cost of starting Node. Results have the shape cip()
// (test/helpers/cli.ts) returns, so a test reads the same either way. What needs a real process (the
// launcher, signals, terminals, the code cache, proxies, which change process-wide state) stays spawned.
import { PassThrough } from 'node:stream';
import type { Context } from '../../src/context.js';
import { run } from '../../src/run.js';
import type { Streams } from '../../src/terminal/io-streams.js';
import { TEST_CREDENTIAL_STORE, tempDir, type CipOptions, type CipResult } from './cli.js';
import { testContext } from './io.js';

export interface InProcessOptions extends CipOptions {
  /** Aborts the run as Ctrl-C would. */
  signal?: AbortSignal;
  /**
   * stdout and stderr are a terminal this many columns wide (stdin stays a pipe, so nothing is asked, and
   * stderr reports no size, so no spinner runs).
   */
  terminalColumns?: number;
  /** With terminalColumns: stderr reports that size too, so spinners run as at a real terminal. */
  spinners?: boolean;
  /** stdin and stderr are a terminal, so cip may ask; `input` is what is typed. */
  interactive?: boolean;
  /**
   * Questions and the answers typed to them, in order (implies `interactive`): each answer is typed once its
   * question is on stderr, as a person would. stdin ends after the last one.
   */
  answers?: readonly (readonly [question: string, answer: string])[];
  /**
   * A stand-in keychain helper (test/helpers/fake-keychain.ts): the script run in place of the built helper, and
   * the folder where it keeps its entries. With it, login keeps keys in the keychain, as for a user.
   */
  keychain?: { path: string; dir: string };
  /** Changes the context before the run: a store whose update fails, a keychain visit interrupted. */
  patch?: (ctx: Context) => void;
}

/** stdout and stderr a terminal wide enough for a spinner (stdin is not, so nothing is asked): what a person sees. */
export const AT_TERMINAL = { terminalColumns: 100, spinners: true } as const satisfies InProcessOptions;

function collect(stream: PassThrough): () => string {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return () => Buffer.concat(chunks).toString('utf8');
}

/** Runs `cip ...args` in this process: a private config folder, no terminal, stdin from options.input. */
export async function cipInProcess(args: string[], options: InProcessOptions = {}): Promise<CipResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  const pending = [...(options.answers ?? [])];
  if (pending.length) {
    let screen = '';
    stderr.on('data', (chunk: Buffer) => {
      screen += chunk.toString('utf8');
      const next = pending[0];
      if (next && screen.includes(next[0])) {
        pending.shift();
        screen = '';
        if (pending.length) stdin.write(next[1]);
        else stdin.end(next[1]);
      }
    });
  } else {
    stdin.end(options.input ?? '');
  }
  const interactive = options.interactive === true || options.answers !== undefined;
  const tty = options.terminalColumns !== undefined;
  const streams: Streams = {
    stdout,
    stderr,
    stdin,
    stdoutIsTTY: tty,
    stderrIsTTY: tty || interactive,
    stdinIsTTY: interactive,
    columns: options.terminalColumns,
    stderrColumns: options.spinners ? options.terminalColumns : undefined,
  };
  const out = collect(stdout);
  const err = collect(stderr);
  const configDir = options.configDir ?? tempDir();
  // The working folder (where .cip.json is looked for) is by default the config folder, which is HOME too:
  // no project file is found unless a test writes one there.
  const store = options.keychain ? { FAKE_KC: options.keychain.dir } : TEST_CREDENTIAL_STORE;
  const env = { PATH: process.env.PATH, HOME: configDir, CIP_CONFIG_DIR: configDir, ...store, ...options.env };
  const ctx = testContext(streams, env, '0.0.0', options.signal, options.cwd ?? configDir, options.keychain?.path);
  options.patch?.(ctx);
  const exitCode = await run(args, ctx);
  stdout.end();
  stderr.end();
  await new Promise((resolve) => setImmediate(resolve));
  return { exitCode, stdout: out(), stderr: err() };
}
