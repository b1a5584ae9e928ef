// --jq (output/jq.ts) on its own: what a filter prints (each result on its line, strings raw, white space kept at
// both ends), and jq's failures as one-line usage errors (exit 2) in jq's own words, without its prefixes.
import { describe, expect, it } from 'vitest';
import { checkJqFilter, runJq } from '../../src/output/jq.js';
import { UsageError } from '../../src/errors.js';

const RAN = 'the command itself did its work; only the filter failed';

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
    expect(await runJq(filter, json)).toBe(out);
  });
});

describe('runJq: failures are usage errors (exit 2) with a hint that the command did its work', () => {
  it.each([
    ['.[] | .x', '[1]', '--jq: Cannot index number with string ("x")'],
    ['error("gone")', 'null', '--jq: gone'],
    // jq's "(not a string)" note stays: only the plain prefix is taken off.
    ['.a | error', '{"a":1}', '--jq: jq: error (at /dev/stdin:0) (not a string): 1'],
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
    expect(await refusal(runJq(filter, json))).toEqual({ message, hint: RAN, exitCode: 2 });
  });
});

describe('checkJqFilter', () => {
  it.each([
    ['.[] |', '--jq: syntax error, unexpected end of file at <top-level>, line 1, column 5:'],
    ['}', '--jq: syntax error, unexpected INVALID_CHARACTER, expecting end of file at <top-level>, line 1, column 1:'],
    ['$a + $b', '--jq: $a is not defined at <top-level>, line 1, column 1:'],
    ['nosuch(1)', '--jq: nosuch/1 is not defined at <top-level>, line 1, column 1:'],
  ])('refuses %j, which jq cannot compile, in jq words on one line', async (filter, message) => {
    expect(await refusal(checkJqFilter(filter))).toEqual({ message, hint: undefined, exitCode: 2 });
  });

  it.each(['.', '.[] | .name', 'error("only at run time")', '.a.b.c', '@tsv'])('accepts %j', async (filter) => {
    await expect(checkJqFilter(filter)).resolves.toBeUndefined();
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
    expect(await runJq(filter, json)).toBe(out);
  });
});
