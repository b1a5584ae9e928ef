// The factory (src/context.ts) before argv is parsed: a new context holds the default global options, so
// anything that asks before (or without) the preAction hook acts as a run with no options would.
// The factory (src/context.ts): what it builds once per run, so a warning is said once however many times a
// command asks, and what goes to stderr with and without --verbose.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, it, expect } from 'vitest';
import { DEFAULT_GLOBALS, type GlobalOptions } from '../../src/cli/globals.js';
import type { Context } from '../../src/context.js';
import type { Env } from '../../src/env.js';
import { EXIT_CODES, ApiError, exitCode, CipError, UsageError } from '../../src/errors.js';
import { run } from '../../src/run.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Streams } from '../../src/terminal/io-streams.js';
import { tempDir } from '../helpers/cli.js';
import { drain, testContext, fakeIO } from '../helpers/io.js';
import { fromFlat } from '../helpers/settings.js';

interface TTYs {
  stdout?: boolean;
  stderr?: boolean;
  stdin?: boolean;
  /** stderr's width; 100 when stderr is a terminal unless given. */
  stderrColumns?: number;
}

function makeIO(ttys: TTYs = {}, stdout: Writable = new PassThrough()): Streams & { stdout: Writable; stderr: PassThrough } {
  return {
    stdout,
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    stdoutIsTTY: ttys.stdout ?? false,
    stderrIsTTY: ttys.stderr ?? false,
    stdinIsTTY: ttys.stdin ?? false,
    columns: ttys.stdout ? 100 : undefined,
    stderrColumns: ttys.stderr ? (ttys.stderrColumns ?? 100) : undefined,
  };
}

function makeContext(env: Env = {}, globals: Partial<GlobalOptions> = {}, ttys: TTYs = {}): Context {
  const ctx = testContext(makeIO(ttys), env, '0.0.0');
  ctx.globals = { ...DEFAULT_GLOBALS, ...globals };
  return ctx;
}

const ALL_TTY: TTYs = { stdout: true, stderr: true, stdin: true };

function read(stream: PassThrough | Writable): string {
  return drain(stream as PassThrough);
}

describe('Context.outputFormat', () => {
  it.each([
    ['--json', {}, { json: true }, {}, 'json'],
    ['--json over -o table', {}, { json: true, output: 'table' }, ALL_TTY, 'json'],
    ['-o table in a pipe', {}, { output: 'table' }, {}, 'table'],
    ['-o json at a terminal', {}, { output: 'json' }, ALL_TTY, 'json'],
    ['-o over CIP_OUTPUT', { CIP_OUTPUT: 'json' }, { output: 'table' }, {}, 'table'],
    ['CIP_OUTPUT=table in a pipe', { CIP_OUTPUT: 'table' }, {}, {}, 'table'],
    ['CIP_OUTPUT=json at a terminal', { CIP_OUTPUT: 'json' }, {}, ALL_TTY, 'json'],
    ['CIP_OUTPUT in capitals with spaces', { CIP_OUTPUT: ' JSON ' }, {}, ALL_TTY, 'json'],
    ['an empty CIP_OUTPUT', { CIP_OUTPUT: '' }, {}, ALL_TTY, 'table'],
    ['a terminal', {}, {}, ALL_TTY, 'table'],
    ['stdout a terminal, stderr not', {}, {}, { stdout: true }, 'table'],
    ['a pipe', {}, {}, {}, 'json'],
    ['stdout piped, stderr a terminal', {}, {}, { stderr: true, stdin: true }, 'json'],
  ] as const)('%s → %s', (_name, env, globals, ttys, expected) => {
    expect(makeContext(env, globals as Partial<GlobalOptions>, ttys).io.outputFormat).toBe(expected);
  });

  it.each([['xml'], ['csv'], ['tables']])('refuses CIP_OUTPUT=%s with exit code 2, naming the variable', (value) => {
    const ctx = makeContext({ CIP_OUTPUT: value }, {}, ALL_TTY);
    let caught: unknown;
    try {
      // eslint-disable-next-line @typescript-eslint/no-unused-expressions -- the getter is what throws
      ctx.io.outputFormat;
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as CipError).exitCode).toBe(2);
    expect((caught as CipError).message).toContain('CIP_OUTPUT');
    expect((caught as CipError).message).toContain(value);
  });

  it('does not look at a bad CIP_OUTPUT when a flag decides', () => {
    expect(makeContext({ CIP_OUTPUT: 'xml' }, { json: true }).io.outputFormat).toBe('json');
    expect(makeContext({ CIP_OUTPUT: 'xml' }, { output: 'table' }).io.outputFormat).toBe('table');
  });
});

describe('Context.colorLevel', () => {
  it.each([
    ['a plain terminal', {}, {}, true, 2],
    ['a truecolor terminal', { COLORTERM: 'truecolor' }, {}, true, 3],
    ['a pipe', {}, {}, false, 0],
    ['NO_COLOR', { NO_COLOR: '1' }, {}, true, 0],
    ['NO_COLOR with any value', { NO_COLOR: 'no' }, {}, true, 0],
    ['an empty NO_COLOR (ignored)', { NO_COLOR: '' }, {}, true, 2],
    ['--no-color', {}, { color: false }, true, 0],
    ['CI', { CI: 'true' }, {}, true, 0],
    ['CI=1', { CI: '1' }, {}, true, 0],
    ['CI=false (ignored)', { CI: 'false' }, {}, true, 2],
    ['CI=0 (ignored)', { CI: '0' }, {}, true, 2],
    ['--quiet', {}, { quiet: true }, true, 0],
    ['TERM=dumb', { TERM: 'dumb' }, {}, true, 0],
    ['FORCE_COLOR=1 in a pipe', { FORCE_COLOR: '1' }, {}, false, 1],
    ['FORCE_COLOR=2 over NO_COLOR', { FORCE_COLOR: '2', NO_COLOR: '1' }, {}, false, 2],
    ['FORCE_COLOR=3 over CI', { FORCE_COLOR: '3', CI: 'true' }, {}, false, 3],
    ['FORCE_COLOR over --no-color and --quiet', { FORCE_COLOR: '1' }, { color: false, quiet: true }, false, 1],
    ['FORCE_COLOR=true', { FORCE_COLOR: 'true' }, {}, false, 1],
    ['FORCE_COLOR=0 at a terminal', { FORCE_COLOR: '0' }, {}, true, 0],
    ['FORCE_COLOR=false at a terminal', { FORCE_COLOR: 'false' }, {}, true, 0],
    ['an empty FORCE_COLOR (ignored)', { FORCE_COLOR: '' }, {}, true, 2],
  ] as const)('%s → %i', (_name, env, globals, isTTY, expected) => {
    expect(makeContext(env, globals as Partial<GlobalOptions>).io.colorLevel(isTTY)).toBe(expected);
  });
});

describe('Context.canPrompt and spinnerEnabled', () => {
  it('both on at a terminal with table output', () => {
    const ctx = makeContext({}, {}, ALL_TTY);
    expect(ctx.io.canPrompt).toBe(true);
    expect(ctx.io.spinnerEnabled).toBe(true);
  });

  it.each([
    ['CI', { CI: 'true' }, {}, ALL_TTY],
    ['--quiet', {}, { quiet: true }, ALL_TTY],
    ['stdin not a terminal', {}, {}, { stdout: true, stderr: true, stdin: false }],
    ['stderr not a terminal', {}, {}, { stdout: true, stderr: false, stdin: true }],
    ['no terminal at all', {}, {}, {}],
  ] as const)('canPrompt is false under %s', (_name, env, globals, ttys) => {
    expect(makeContext(env, globals as Partial<GlobalOptions>, ttys).io.canPrompt).toBe(false);
  });

  it.each([
    ['CI', { CI: '1' }, {}, ALL_TTY],
    ['--quiet', {}, { quiet: true }, ALL_TTY],
    ['--json', {}, { json: true }, ALL_TTY],
    ['-o json', {}, { output: 'json' }, ALL_TTY],
    ['CIP_OUTPUT=json', { CIP_OUTPUT: 'json' }, {}, ALL_TTY],
    ['stdout piped (json output)', {}, {}, { stdout: false, stderr: true, stdin: true }],
    ['stderr not a terminal', {}, {}, { stdout: true, stderr: false, stdin: true }],
    ['TERM=dumb', { TERM: 'dumb' }, {}, ALL_TTY],
    ['a terminal that reports no width', {}, {}, { ...ALL_TTY, stderrColumns: 0 }],
    ['no terminal at all', {}, {}, {}],
  ] as const)('spinnerEnabled is false under %s', (_name, env, globals, ttys) => {
    expect(makeContext(env, globals as Partial<GlobalOptions>, ttys).io.spinnerEnabled).toBe(false);
  });
});

describe('run (in process)', () => {
  it('prints the version on stdout for --version and -V, exit 0', async () => {
    for (const flag of ['--version', '-V']) {
      const io = makeIO();
      const ctx = testContext(io, {}, '9.8.7');
      expect(await run([flag], ctx)).toBe(0);
      expect(read(io.stdout)).toBe('9.8.7\n');
      expect(read(io.stderr)).toBe('');
    }
  });

  it.each([
    [['--bogus']],
    [['env', 'list', '--bogus']],
    [['env', 'frobnicate']],
    [['nosuchcommand']],
    [['--output', 'xml', 'env', 'list']],
    [['--timeout', 'soon', 'env', 'list']],
  ])('%j → exit 2 with one error: line on stderr and nothing on stdout', async (argv) => {
    const io = makeIO();
    const ctx = testContext(io, {}, '0.0.0');
    expect(await run(argv, ctx)).toBe(2);
    const stderr = read(io.stderr);
    const lines = stderr.replace(/\n$/, '').split('\n');
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: /);
    expect(read(io.stdout)).toBe('');
  });

  it('a CipError becomes its exit code and one error: line with its hint', async () => {
    const io = makeIO();
    const ctx = testContext(io, { CIP_CONFIG_DIR: '/nonexistent/cip-unit-test' }, '0.0.0');
    // no credentials anywhere
    expect(await run(['env', 'list'], ctx)).toBe(3);
    const stderr = read(io.stderr);
    expect(stderr).toMatch(/^error: [^\n]+\n$/);
    expect(stderr).toContain('cip auth login');
  });

  const throwingStdout = () =>
    Object.assign(new Writable(), {
      write: (): boolean => {
        throw new Error('boom');
      },
    });

  const stackLines = (text: string) => text.split('\n').filter((line) => /^\s+at /.test(line));

  it('reports an unexpected failure as exit 1 and one line, without a stack', async () => {
    const io = makeIO({}, throwingStdout());
    const ctx = testContext(io, {}, '0.0.0');
    expect(await run(['--version'], ctx)).toBe(1);
    const stderr = read(io.stderr);
    expect(stderr).toMatch(/^error: unexpected failure[^\n]*\n$/);
    expect(stderr).toContain('boom');
    expect(stderr).toContain('CIP_DEBUG');
    expect(stackLines(stderr)).toStrictEqual([]);
  });

  it('adds the stack under CIP_DEBUG=1', async () => {
    const io = makeIO({}, throwingStdout());
    const ctx = testContext(io, { CIP_DEBUG: '1' }, '0.0.0');
    expect(await run(['--version'], ctx)).toBe(1);
    const stderr = read(io.stderr);
    expect(stderr.split('\n')[0]).toMatch(/^error: unexpected failure/);
    expect(stackLines(stderr).length).toBeGreaterThan(0);
  });

  it.each([['0'], ['false'], ['']])('shows no stack with CIP_DEBUG=%j', async (value) => {
    const io = makeIO({}, throwingStdout());
    const ctx = testContext(io, { CIP_DEBUG: value }, '0.0.0');
    expect(await run(['--version'], ctx)).toBe(1);
    expect(stackLines(read(io.stderr))).toStrictEqual([]);
  });

  it('reports a failure while writing env list output as exit 1, one line, no stack', async () => {
    const sandbox = await startSandbox({ seed: 2 });
    try {
      const io = makeIO({}, throwingStdout());
      const ctx = testContext(
        io,
        {
          CIP_API_KEY: sandbox.keys.apiKey,
          CIP_SUBSCRIPTION_KEY: sandbox.keys.subscriptionKey,
          CIP_ENTERPRISE_ID: sandbox.keys.enterpriseId,
          CIP_CONFIG_DIR: '/nonexistent/cip-unit-test',
        },
        '0.0.0',
      );
      expect(await run(['--base-url', sandbox.url, 'env', 'list'], ctx)).toBe(1);
      const stderr = read(io.stderr);
      expect(stderr).toMatch(/^error: unexpected failure[^\n]*\n$/);
      expect(stackLines(stderr)).toStrictEqual([]);
      expect(sandbox.requests.map((request) => request.method)).toStrictEqual(['GET']);
    } finally {
      await sandbox.close();
    }
  });
});

describe('errors', () => {
  it('pins the exit codes, in order', () => {
    expect(EXIT_CODES.map((row) => row.code)).toStrictEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 130, 143]);
    expect(EXIT_CODES.map((row) => row.name)).toStrictEqual([
      'ok',
      'unexpected',
      'usage',
      'auth',
      'forbidden',
      'not-found',
      'rejected',
      'server',
      'network',
      'partial',
      'changes',
      'output',
      'filter',
      'interrupted',
      'terminated',
    ]);
    for (const row of EXIT_CODES) expect(exitCode(row.name)).toBe(row.code);
  });

  it.each([
    [401, 'auth', 3],
    [403, 'forbidden', 4],
    [404, 'not-found', 5],
    [400, 'rejected', 6],
    [409, 'rejected', 6],
    [422, 'rejected', 6],
    [429, 'rejected', 6],
    [500, 'server', 7],
    [502, 'server', 7],
    [503, 'server', 7],
  ] as const)('an API answer of HTTP %i is %s (exit %i)', (status, kind, code) => {
    expect(new ApiError(status, 'x').exitCode).toBe(code);
    expect(exitCode(kind)).toBe(code);
  });
});

describe('a new Context', () => {
  it('holds the default global options, in a copy of its own', () => {
    const ctx = testContext();
    expect(ctx.globals).toEqual(DEFAULT_GLOBALS);
    expect(ctx.globals).not.toBe(DEFAULT_GLOBALS);
  });

  it('talks as with no options: colour, spinners and a table on a terminal, notes not silenced', () => {
    const stderr = new PassThrough();
    const ctx = testContext(fakeIO({ stderr, stdoutIsTTY: true, stderrIsTTY: true, columns: 80, stderrColumns: 80 }), { TERM: 'xterm' });
    expect(ctx.io.colorLevel(true)).toBe(2);
    expect(ctx.io.outputFormat).toBe('table');
    expect(ctx.io.spinnerEnabled).toBe(true);
    ctx.io.info('a note');
    expect(drain(stderr)).toBe('a note\n');
  });
});

const profile = {
  baseUrl: 'https://profile.example.com/ms',
  enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b',
  apiKey: 'context-edges-api-key-0123456789',
  subscriptionKey: 'context-edges-sub-key-0123456789',
};

function contextFor(env: Env) {
  const stderr = new PassThrough();
  const ctx = testContext(fakeIO({ stderr }), env, '1.2.3');
  ctx.globals = { ...DEFAULT_GLOBALS };
  return { ctx, stderr: () => drain(stderr) };
}

describe('Context', () => {
  it('opens the store once: a folder warning is said once however often a command asks', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o777);
    const { ctx, stderr } = contextFor({ CIP_CONFIG_DIR: dir });
    const first = await ctx.store();
    expect(await ctx.store()).toBe(first);
    expect(stderr()).toBe(
      `warning: the config folder ${dir} is not private: others can write to it (mode 777); cip will not store keys in it\n`,
    );
  });

  it('resolves the settings once: an override warning is said once', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ activeProfile: 'p', profiles: { p: profile } }), { mode: 0o600 });
    const { ctx, stderr } = contextFor({ CIP_CONFIG_DIR: dir, CIP_BASE_URL: 'https://env.example.com/ms' });
    const settings = await ctx.settings();
    expect(await ctx.settings()).toBe(settings);
    await ctx.api();
    expect(stderr()).toBe("warning: CIP_BASE_URL from the environment overrides profile 'p'\n");
  });

  it('builds the API client once', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ activeProfile: 'p', profiles: { p: profile } }), { mode: 0o600 });
    const { ctx } = contextFor({ CIP_CONFIG_DIR: dir });
    const api = await ctx.api();
    expect(await ctx.api()).toBe(api);
  });

  it("redacts a profile's keys once a client was built for them, and the environment's from the start", async () => {
    const { ctx } = contextFor({ CIP_API_KEY: 'environment-api-key-0123456789' });
    expect(ctx.redact('environment-api-key-0123456789')).toBe('***');
    expect(ctx.redact(profile.apiKey)).toBe(profile.apiKey);
    await ctx.apiFor(
      fromFlat({
        profile: 'p',
        baseUrl: profile.baseUrl,
        enterpriseId: profile.enterpriseId,
        apiKey: profile.apiKey,
        subscriptionKey: profile.subscriptionKey,
        sources: { baseUrl: "profile 'p'", enterpriseId: "profile 'p'", apiKey: "profile 'p'", subscriptionKey: "profile 'p'" },
      }),
    );
    expect(ctx.redact(`${profile.apiKey} ${profile.subscriptionKey}`)).toBe('*** ***');
  });

  it('gives every context its own signal when none is handed in, not yet aborted', () => {
    const { ctx } = contextFor({});
    expect(ctx.signal.aborted).toBe(false);
    expect(contextFor({}).ctx.signal).not.toBe(ctx.signal);
  });
});
