// IOStreams (src/terminal/io-streams.ts) at its edges: what --jq and --no-headers change, why cip will not
// prompt, what --quiet silences, and the GitHub Actions mask, seen on the streams a user reads.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Env } from '../../../src/env.js';
import { IOStreams, type DisplayOptions, type Streams } from '../../../src/terminal/io-streams.js';
import { fakeIO } from '../../helpers/io.js';

const DISPLAY: DisplayOptions = { json: false, output: undefined, quiet: false, color: true };

function streamsWith(overrides: Partial<Streams> = {}, env: Env = {}, display: Partial<DisplayOptions> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const io = new IOStreams(fakeIO({ stdout, stderr, ...overrides }), env, () => ({ ...DISPLAY, ...display }));
  const text = (stream: PassThrough) => () => {
    const chunks: Buffer[] = [];
    let chunk: Buffer | null;
    while ((chunk = stream.read() as Buffer | null) !== null) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  };
  return { io, stdout: text(stdout), stderr: text(stderr) };
}

describe('IOStreams: --jq and --no-headers', () => {
  it('hands the --jq filter on, and --jq makes the output JSON whatever -o, CIP_OUTPUT or a terminal say', () => {
    expect(streamsWith().io.jq).toBeUndefined();
    const { io } = streamsWith({ stdoutIsTTY: true }, { CIP_OUTPUT: 'yaml' }, { jq: '.[].id', output: 'tsv' });
    expect(io.jq).toBe('.[].id');
    expect(io.outputFormat).toBe('json');
    expect(streamsWith({ stdoutIsTTY: true }, {}, { jq: '' }).io.outputFormat).toBe('json');
    expect(streamsWith({ stdoutIsTTY: true }, {}, { output: 'tsv' }).io.outputFormat).toBe('tsv');
    expect(streamsWith({ stdoutIsTTY: true }).io.outputFormat).toBe('table');
  });

  it.each([
    [undefined, true],
    [true, true],
    [false, false],
  ])('headers: %j gives %j', (headers, expected) => {
    const display: Partial<DisplayOptions> = headers === undefined ? {} : { headers };
    expect(streamsWith({}, {}, display).io.headers).toBe(expected);
  });
});

describe('IOStreams: prompts', () => {
  it.each([
    [{ stdinIsTTY: true, stderrIsTTY: true }, { CI: 'true' }, {}, 'prompts are off under CI'],
    [{ stdinIsTTY: true, stderrIsTTY: true }, {}, { quiet: true }, 'prompts are off under --quiet'],
    [{ stdinIsTTY: true, stderrIsTTY: false }, {}, {}, 'there is no terminal to ask'],
    [{ stdinIsTTY: false, stderrIsTTY: true }, {}, {}, 'there is no terminal to ask'],
    [{ stdinIsTTY: false, stderrIsTTY: false }, { CI: 'true' }, {}, 'there is no terminal to ask'],
  ])('%j with %j and %j: %j', (ttys, env, display, reason) => {
    const { io } = streamsWith(ttys, env, display);
    expect(io.canPrompt).toBe(false);
    expect(io.noPromptReason).toBe(reason);
  });

  it('may prompt with a terminal on stdin and stderr, outside CI and --quiet', () => {
    expect(streamsWith({ stdinIsTTY: true, stderrIsTTY: true }).io.canPrompt).toBe(true);
  });
});

describe('IOStreams: messages', () => {
  it('writes info to stderr, one line each, and nothing under --quiet; warnings survive --quiet', () => {
    const loud = streamsWith();
    loud.io.info('Created env-1.');
    loud.io.info('');
    expect(loud.stderr()).toBe('Created env-1.\n\n');
    expect(loud.stdout()).toBe('');
    const quiet = streamsWith({}, {}, { quiet: true });
    quiet.io.info('Created env-1.');
    quiet.io.warn('2 columns hidden');
    expect(quiet.stderr()).toBe('warning: 2 columns hidden\n');
  });

  it.each([
    [{ GITHUB_ACTIONS: 'true' }, '::add-mask::s3cr3t-key\n'],
    [{ GITHUB_ACTIONS: 'false' }, ''],
    [{ GITHUB_ACTIONS: '' }, ''],
    [{ GITHUB_ACTIONS: '1' }, ''],
    [{ CI: 'true' }, ''],
    [{}, ''],
  ])('masks a printed secret in the job log under %j: %j', (env, expected) => {
    const { io, stdout, stderr } = streamsWith({}, env);
    io.maskInCI('s3cr3t-key');
    expect(stdout()).toBe(expected);
    expect(stderr()).toBe('');
  });
});

describe('IOStreams: FORCE_COLOR levels', () => {
  it.each([
    ['1', 1],
    ['2', 2],
    ['3', 3],
    ['4', 1],
    ['yes', 1],
    ['0', 0],
    ['false', 0],
  ])('FORCE_COLOR=%j gives level %i, terminal or not', (force, level) => {
    expect(streamsWith({}, { FORCE_COLOR: force }).io.colorLevel(false)).toBe(level);
    expect(streamsWith({}, { FORCE_COLOR: force, NO_COLOR: '1' }).io.colorLevel(true)).toBe(level);
  });
});
