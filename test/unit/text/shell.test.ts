// shellQuote (src/text/shell.ts): the words of a command cip prints for people to copy run with exactly these
// values in a POSIX shell, and a control character never reaches the terminal as it is.
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shellQuote } from '../../../src/text/shell.js';

/** What bash makes of the words: each argument on a line of its own, as JSON. */
function asBashSees(words: string[]): string[] {
  const script = `for a in ${words.join(' ')}; do printf '%s\\0' "$a"; done`;
  return execFileSync('bash', ['-c', script], { encoding: 'utf8' }).split('\0').slice(0, -1);
}

describe('shellQuote', () => {
  it.each([
    ['7d1c2b3a-1111', '7d1c2b3a-1111'],
    ['name=foo', 'name=foo'],
    ['my env', "'my env'"],
    ["it's", `'it'\\''s'`],
    ['$(touch x)', "'$(touch x)'"],
    ['', "''"],
    ['a\u001b[2Jb', "$'a\\x1b[2Jb'"],
    ['bidi\u202eevil', "$'bidi\\u202eevil'"],
    ["both ' and \u0007", "$'both \\' and \\x07'"],
  ])('%j is %s', (text, word) => {
    expect(shellQuote(text)).toBe(word);
  });

  it('bash reads every word back as the text it stands for', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'binary', minLength: 1 }).filter((text) => !text.includes('\0')),
          { maxLength: 4 },
        ),
        (texts) => {
          expect(asBashSees(texts.map(shellQuote))).toEqual(texts);
        },
      ),
      { numRuns: 60 },
    );
  });
});
