// The spinner (src/terminal/spinner.ts): what a person at a terminal sees on stderr while a request runs (its
// frame and text, the text as it changes, and that it stops), in-process against the sandbox, and that it is
// not there where nobody watches. The start and stop themselves against a stand-in terminal for stderr.
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { IOStreams } from '../../../src/terminal/io-streams.js';
import { withSpinner } from '../../../src/terminal/spinner.js';
import { cipInProcess as cip } from '../../helpers/harness.js';
import { it, test } from '../../helpers/fixture.js';

/** ora's first frame (its default spinner, "dots"). */
const FRAME = '⠋';
const CYAN = (text: string) => `\u001b[36m${text}\u001b[39m`;
const HIDE_CURSOR = '\u001b[?25l';
const SHOW_CURSOR = '\u001b[?25h';

test.override({
  sandboxOptions: {
    seed: [
      { id: 'e1', name: 'alpha' },
      { id: 'e2', name: 'beta' },
    ],
  },
});

const atTerminal = (env: Record<string, string | undefined>, args: string[], extra: Record<string, string> = {}) =>
  cip(args, { env: { ...env, ...extra }, terminalColumns: 100, spinners: true });

describe('the spinner at a terminal, in-process', () => {
  it('shows a spinning frame and the text on stderr while the request runs, then the result on stdout', async ({ env }) => {
    const result = await atTerminal(env, ['env', 'list']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('alpha');
    // A frame, as a spinner draws it: not ora's "- text" line for a stream it may not animate.
    expect(result.stderr).toContain(`${FRAME} Loading environments`);
    expect(result.stderr).not.toContain('- Loading environments');
  });

  it('shows the text as it changes: each step of a batch', async ({ sandbox, env }) => {
    const result = await atTerminal(env, ['env', 'delete', 'e1', 'e2', '--yes']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`${FRAME} Deleting 0/2`);
    expect(result.stderr).toContain(' Deleting 1/2');
    expect(result.stderr).toContain(' Deleting 2/2');
    expect(sandbox.environments.size).toBe(0);
  });

  it('draws the frame without colour when colour is off (FORCE_COLOR=0)', async ({ env }) => {
    const result = await atTerminal(env, ['env', 'list'], { FORCE_COLOR: '0' });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`${FRAME} Loading environments`);
    expect(result.stderr).not.toContain('\u001b[');
  });

  it.for([
    ['a terminal without spinners (stderr reports no size)', { terminalColumns: 100 }],
    ['a pipe', {}],
    ['--json', { terminalColumns: 100, spinners: true, args: ['--json'] }],
    ['NO_COLOR', { terminalColumns: 100, spinners: true, extra: { NO_COLOR: '1' } }],
  ] as const)('shows nothing on stderr at %s', async ([, options], { env }) => {
    const args = ['env', 'list', ...('args' in options ? options.args : [])];
    const result = await cip(args, { ...options, env: { ...env, ...('extra' in options ? options.extra : {}) } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('alpha');
    expect(result.stderr).toBe('');
  });
});

describe('the spinner in colour', async () => {
  // ora colours its frame with chalk's own instance, whose level comes from this process's stdout: set it here.
  // It is the chalk ora depends on, which need not be cip's (ora 9 takes chalk 5, cip's writer chalk 6).
  const oraChalk = createRequire(createRequire(import.meta.url).resolve('ora')).resolve('chalk');
  const { default: chalk } = (await import(pathToFileURL(oraChalk).href)) as typeof import('chalk');
  const level = chalk.level;
  beforeAll(() => {
    chalk.level = 1;
  });
  afterAll(() => {
    chalk.level = level;
  });

  it('draws the frame in cyan where cip uses colour', async ({ env }) => {
    const result = await atTerminal(env, ['env', 'list']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`${CYAN(FRAME)} Loading environments`);
  });

  it('and without colour where it does not (FORCE_COLOR=0)', async ({ env }) => {
    const result = await atTerminal(env, ['env', 'list'], { FORCE_COLOR: '0' });
    expect(result.stderr).toContain(`${FRAME} Loading environments`);
    expect(result.stderr).not.toContain(CYAN(FRAME));
  });
});

/** A terminal's stderr, as ora drives one (a stream that says it is a TTY and moves its cursor). */
function terminalStderr() {
  const stream = Object.assign(new PassThrough(), {
    isTTY: true,
    columns: 100,
    cursorTo: (x: number) => stream.write(`<to ${x}>`),
    moveCursor: (dx: number, dy: number) => stream.write(`<move ${dx},${dy}>`),
    clearLine: (dir: number) => stream.write(`<clear ${dir}>`),
  });
  let screen = '';
  stream.on('data', (chunk: Buffer) => (screen += chunk.toString('utf8')));
  return { stream, screen: () => screen };
}

function terminalIO() {
  const stderr = terminalStderr();
  const io = new IOStreams(
    {
      stdout: new PassThrough(),
      stderr: stderr.stream,
      stdin: new PassThrough(),
      stdoutIsTTY: true,
      stderrIsTTY: true,
      stdinIsTTY: false,
      columns: 100,
      stderrColumns: 100,
    },
    { FORCE_COLOR: '0' },
    () => ({ json: false, output: undefined, quiet: false, color: true }),
  );
  return { io, screen: stderr.screen };
}

/** What was written before the stream's data events ran: they run on the next tick. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('withSpinner', () => {
  it('hides the cursor and draws the text before the work runs, draws each new text at once, and stops after', async () => {
    const { io, screen } = terminalIO();
    const seen: string[] = [];
    const value = await withSpinner(io, 'Step 1', async (setText) => {
      await settled();
      seen.push(screen());
      setText('Step 2');
      await settled();
      seen.push(screen());
      return 42;
    });
    expect(value).toBe(42);
    await settled();
    // ora wraps each frame in the terminal's synchronized-output marks (\e[?2026h ... \e[?2026l).
    expect(seen[0]).toMatch(new RegExp(`^${escape(HIDE_CURSOR)}.*${FRAME} Step 1\\S*$`, 's'));
    expect(seen[1]!.slice(seen[0]!.length)).toMatch(/^.*<clear 1>.* Step 2\S*$/s);
    expect(seen[1]).not.toContain(SHOW_CURSOR);
    // Stopped: the line cleared and the cursor back, nothing after.
    expect(screen().slice(seen[1]!.length)).toBe(`<to 0><clear 1>${SHOW_CURSOR}`);
  });

  it('stops when the work fails, and passes the failure on', async () => {
    const { io, screen } = terminalIO();
    const failure = new Error('no');
    await expect(withSpinner(io, 'Working', () => Promise.reject(failure))).rejects.toBe(failure);
    await settled();
    expect(screen()).toMatch(new RegExp(`^${escape(HIDE_CURSOR)}.*${FRAME} Working.*<to 0><clear 1>${escape(SHOW_CURSOR)}$`, 's'));
  });

  it("leaves the terminal's stdin alone: no raw mode, so typing echoes and Ctrl-C interrupts as usual", async () => {
    // ora would switch process.stdin (not the streams cip was given) to raw mode if it is a terminal: make it
    // one for this test, recording what is asked of it.
    const stdin: object = process.stdin;
    const own = ['isTTY', 'setRawMode', 'isPaused'].map((name) => [name, Object.getOwnPropertyDescriptor(stdin, name)] as const);
    const rawModes: boolean[] = [];
    Object.assign(stdin, { isTTY: true, setRawMode: (mode: boolean) => rawModes.push(mode), isPaused: () => false });
    try {
      const { io, screen } = terminalIO();
      await withSpinner(io, 'Working', () => Promise.resolve());
      await settled();
      expect(screen()).toContain(`${FRAME} Working`);
    } finally {
      for (const [name, descriptor] of own) {
        if (descriptor) Object.defineProperty(stdin, name, descriptor);
        else Reflect.deleteProperty(stdin, name);
      }
    }
    expect(rawModes).toStrictEqual([]);
  });

  it('runs the work alone, its setText doing nothing, where spinners are off', async () => {
    const stderr = new PassThrough();
    const written: string[] = [];
    stderr.on('data', (chunk: Buffer) => written.push(chunk.toString('utf8')));
    const io = new IOStreams(
      {
        stdout: new PassThrough(),
        stderr,
        stdin: new PassThrough(),
        stdoutIsTTY: true,
        stderrIsTTY: false,
        stdinIsTTY: false,
        columns: 100,
      },
      {},
      () => ({ json: false, output: undefined, quiet: false, color: true }),
    );
    expect(io.spinnerEnabled).toBe(false);
    const value = await withSpinner(io, 'Working', (setText) => {
      setText('Still working');
      return Promise.resolve('done');
    });
    await settled();
    expect(value).toBe('done');
    expect(written).toStrictEqual([]);
  });
});

function escape(text: string): string {
  return text.replace(/[[\]?\\^$.*+(){}|]/g, '\\$&');
}
