// --jq (output/jq.ts, in its thread: the built dist/jq-worker.cjs) on its own: what a filter prints (each result
// on its line, strings raw, white space kept at both ends), and jq's failures as one-line errors in jq's own
// words, without its prefixes: a filter that does not compile is a usage error (exit 2); one that fails at run
// time (exit 12) has printed what came before the error.
import { describe, expect, it } from 'vitest';
import { CipError, UsageError } from '../../../src/errors.js';
import { checkJqFilter, jqEnvironment, runJq, type JqRunner } from '../../../src/output/jq.js';
import { JQ_WORKER } from '../../helpers/io.js';

const RAN = 'the command itself did its work; only the filter failed';

const runner = (env: Record<string, string> = {}): JqRunner => ({ worker: JQ_WORKER, env, signal: new AbortController().signal });

/** What the filter printed; a run-time failure makes the test fail. */
async function output(filter: string, json: string): Promise<string> {
  const { out, failure } = await run(filter, json);
  if (failure) throw failure;
  return out;
}

/** What the filter printed, and its run-time failure. */
async function run(filter: string, json: string, env?: Record<string, string>): Promise<{ out: string; failure: CipError | undefined }> {
  let out = '';
  const failure = await runJq(filter, json, runner(env), (text) => {
    out += text;
    return true;
  });
  return { out, failure };
}

/** The error a promise rejects with, as a user would read it: the message, the hint and the exit code. */
async function refusal(promise: Promise<unknown>): Promise<{ message: string; hint: string | undefined; exitCode: number }> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof UsageError)) throw new Error(`expected a UsageError, got ${String(error)}`);
  return { message: error.message, hint: error.hint, exitCode: error.exitCode };
}

describe('runJq: the output', () => {
  it.each([
    ['.[].name', '[{"name":"a"},{"name":"b"}]', 'a\nb\n'],
    ['.', '{"n":12345678901234567890}', '{\n  "n": 12345678901234567890\n}\n'],
    ['"  lead", "trail  ", "  "', 'null', '  lead\ntrail  \n  \n'],
    ['.[] | [.a, .b] | @tsv', '[{"a":"x","b":""}]', 'x\t\n'],
    ['empty', 'null', ''],
    ['.', '', ''],
    ['.', '  \n ', ''],
    // A trailing comment cannot swallow the closing marker.
    ['.a # the a', '{"a":1}', '1\n'],
    // What jq writes on stderr besides an error (debug, stderr) is not a failure.
    ['.[] | debug', '[1,2]', '1\n2\n'],
    ['.[] | stderr', '[1]', '1\n'],
    // A halt with nothing to say is a quiet end.
    ['"" | halt_error', 'null', ''],
  ])('%s on %j', async (filter, json, out) => {
    expect(await output(filter, json)).toBe(out);
  });
});

describe('runJq: failures at run time are exit 12 with a hint that the command did its work', () => {
  it.each([
    ['.[] | .x', '[1]', '--jq: Cannot index number with string ("x")'],
    ['error("gone")', 'null', '--jq: gone'],
    // jq's "(not a string)" note stays: only the plain prefix is taken off.
    ['.a | error', '{"a":1}', '--jq: jq: error (at <stdin>:0) (not a string): 1'],
    ['.', '{"a":', '--jq: jq: parse error: Unfinished JSON term at EOF at line 1, column 5'],
    // jq's own text on stderr, line by line: blank lines and "N compile errors" lines are skipped, each
    // line is trimmed, and the first one left is the message.
    ['"jq: 12 compile errors\\n   jq: 1 compile error  \\n\\n   the first  \\nthe second" | halt_error', 'null', '--jq: the first'],
    ['"jq: 1 compile errors" | halt_error', 'null', '--jq: jq failed'],
    ['"note: jq: 1 compile error" | halt_error', 'null', '--jq: note: jq: 1 compile error'],
    ['"jq: 1 compile error, and more" | halt_error', 'null', '--jq: jq: 1 compile error, and more'],
    ['"say jq: error: hi" | halt_error', 'null', '--jq: say jq: error: hi'],
    // On one line: a tab is a space.
    ['"jq: error: a\\tb" | halt_error(1)', 'null', '--jq: a b'],
  ])('%s on %j', async (filter, json, message) => {
    const { out, failure } = await run(filter, json);
    expect(out).toBe('');
    expect(failure).toBeInstanceOf(CipError);
    expect({ message: failure?.message, hint: failure?.hint, exitCode: failure?.exitCode }).toEqual({ message, hint: RAN, exitCode: 12 });
  });
});

describe('checkJqFilter', () => {
  it.each([
    ['.[] |', "--jq: syntax error, unexpected end of file at <top-level>, line 1, column 5: '.[] |' (at '|')"],
    ['}', "--jq: syntax error, unexpected INVALID_CHARACTER, expecting end of file at <top-level>, line 1, column 1: '}' (at '}')"],
    ['$a + $b', "--jq: $a is not defined at <top-level>, line 1, column 1: '$a + $b' (at '$a')"],
    ['nosuch(1)', "--jq: nosuch/1 is not defined at <top-level>, line 1, column 1: 'nosuch(1)' (at 'nosuch')"],
    [
      '.items | map(.name',
      "--jq: syntax error, unexpected end of file, expecting ';' or ')' at <top-level>, line 1, column 14: '.items | map(.name' (at '.name')",
    ],
    // The line jq points at, not the first; jq counts columns in bytes, the text shown is the characters.
    ['.a |\n  nosuch', "--jq: nosuch/0 is not defined at <top-level>, line 2, column 3: ' nosuch' (at 'nosuch')"],
    ['"é" | nosuch', "--jq: nosuch/0 is not defined at <top-level>, line 1, column 8: '\"é\" | nosuch' (at 'nosuch')"],
    // A long line is cut around the place.
    [
      `[${'1,'.repeat(60)} nosuch]`,
      `--jq: nosuch/0 is not defined at <top-level>, line 1, column 123: '…${'1,'.repeat(26)} nosuch]' (at 'nosuch')`,
    ],
  ])('refuses %j, which jq cannot compile, in jq words on one line, with the text it points at', async (filter, message) => {
    expect(await refusal(checkJqFilter(filter, runner()))).toEqual({ message, hint: undefined, exitCode: 2 });
  });

  it.each(['.', '.[] | .name', 'error("only at run time")', '.a.b.c', '@tsv'])('accepts %j', async (filter) => {
    await expect(checkJqFilter(filter, runner())).resolves.toBeUndefined();
  });
});

describe('runJq: what jq would print in the cases the markers got wrong', () => {
  it.each([
    // Output of several JSON values (an answer in JSON Lines): each value's results, and no marker.
    ['.', '1 2', '1\n2\n'],
    ['.a', '{"a":"x"}\n{"a":" y "}\n', 'x\n y \n'],
    ['empty', '1 2', ''],
    // A halt keeps what came before it.
    ['.[0], halt', '[1,2]', '1\n'],
    ['.[0], ("" | halt_error)', '[1,2]', '1\n'],
    ['halt', 'null', ''],
  ])('%s on %j', async (filter, json, out) => {
    expect(await output(filter, json)).toBe(out);
  });
});

describe('runJq: a filter that fails at run time (jq exits 5) has printed what came before the error, as jq does', () => {
  it.each([
    ['.[].name, error("boom")', '[{"name":"a"},{"name":"b"}]', 'a\nb\n', '--jq: boom'],
    // White space at the end of the last result before the error is kept.
    ['"x\t", error("boom")', 'null', 'x\t\n', '--jq: boom'],
    // The error, not what debug wrote before it.
    ['.[] | debug | .name, error("boom")', '[{"name":"a"}]', 'a\n', '--jq: boom'],
    ['.[] | (.name, .missing.x)', '[{"name":"a","missing":1}]', 'a\n', '--jq: Cannot index number with string ("x")'],
  ])('%s on %j', async (filter, json, out, message) => {
    const result = await run(filter, json);
    expect(result.out).toBe(out);
    expect({ message: result.failure?.message, exitCode: result.failure?.exitCode }).toEqual({ message, exitCode: 12 });
  });
});

describe('checkJqFilter compiles the filter without running it', () => {
  it('refuses a module directive, which cannot follow what cip puts before the filter', async () => {
    expect(await refusal(checkJqFilter('module {}; .', runner()))).toMatchObject({ hint: '--jq takes no module directive', exitCode: 2 });
  });

  it('accepts a filter that would fail on null with the exit code of a compile error (3)', async () => {
    await expect(checkJqFilter('if . == null then "on null" | halt_error(3) else . end', runner())).resolves.toBeUndefined();
  });
});

describe('runJq: $ENV, env, $__loc__ and input_filename answer as jq does for `jq FILTER` reading stdin', () => {
  it('$ENV and env are the environment given', async () => {
    expect(await run('$ENV.TARGET, env.HOME, ($ENV | keys)', 'null', { TARGET: 'x', HOME: '/home/me' })).toEqual({
      out: 'x\n/home/me\n[\n  "HOME",\n  "TARGET"\n]\n',
      failure: undefined,
    });
  });

  it('$__loc__ counts the lines of the filter from 1; input_filename is null', async () => {
    expect(await output('$__loc__, input_filename', 'null')).toBe('{\n  "file": "<top-level>",\n  "line": 1\n}\nnull\n');
    expect(await output('.\n| $__loc__.line', 'null')).toBe('2\n');
  });
});

describe('jqEnvironment: what a filter sees of the environment', () => {
  it('leaves out credentials: names with KEY, TOKEN, SECRET, PASS, AUTH or CREDENTIAL, and URLs with a password', () => {
    expect(
      jqEnvironment({
        HOME: '/home/me',
        TARGET: 'staging',
        CIP_API_KEY: 'k',
        CIP_SUBSCRIPTION_KEY: 'k',
        CIP_TOKEN: 't',
        github_token: 't',
        AWS_SECRET_ACCESS_KEY: 's',
        PGPASSWORD: 'p',
        NPM_AUTH: 'a',
        GOOGLE_APPLICATION_CREDENTIALS: '/c.json',
        HTTPS_PROXY: 'http://user:pw@proxy:3128',
        CIP_BASE_URL: 'https://api.example/ms',
        UNSET: undefined,
      }),
    ).toEqual({ HOME: '/home/me', TARGET: 'staging', CIP_BASE_URL: 'https://api.example/ms' });
  });
});
