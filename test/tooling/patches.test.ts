// The build's changes to third-party code (scripts/patches.mjs): each finds its text in the package as installed,
// and what replaces it computes the same for every input.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: scripts are plain JavaScript (checked by their own // @ts-check)
import { PATCHES, patched } from '../../scripts/patches.mjs';

interface Patch {
  file: RegExp;
  from: string;
  to: string;
}

const require = createRequire(import.meta.url);
/** commander's option.js, as the build reads it. */
const optionJs = require.resolve('commander').replace(/index\.js$/, 'lib/option.js');

/** The statement `this.variadic = ...;` as a function of flags. */
function variadicTest(statement: string): (flags: string) => boolean {
  const expression = statement.replace(/^this\.variadic = /, '').replace(/;$/, '');
  return new Function('flags', `return ${expression};`) as (flags: string) => boolean;
}

describe('patches of third-party code', () => {
  it('each finds its text in the package, once', () => {
    for (const { file, from } of PATCHES as Patch[]) {
      expect(file.test(optionJs)).toBe(true);
      expect(readFileSync(optionJs, 'utf8').split(from)).toHaveLength(2);
    }
    expect(patched(optionJs, readFileSync(optionJs, 'utf8'))).not.toContain((PATCHES as Patch[])[0]!.from);
  });

  it("commander's variadic test gives what the Unicode expression gives, for any flags", () => {
    const [{ from, to }] = PATCHES as [Patch];
    const before = variadicTest(from);
    const after = variadicTest(to);
    const flags = [
      '--tag <name...>',
      '--tag [name...]',
      '--tag <name>',
      '-o, --output <format>',
      '--json',
      '--no-color',
      '--tag <...>',
      '--tag <a,...>',
      '--tag <ñame...>',
      '--tag <名前...>',
      '--tag <x...> ',
      '--tag <x....>',
      '--tag <x...]',
      '--tag <\u{1d4d0}...>',
      '...>',
      '',
    ];
    for (const text of flags) expect([text, after(text)]).toEqual([text, before(text)]);
    expect(before('--tag <ñame...>')).toBe(true);
    expect(before('--tag <...>')).toBe(false);
  });

  it('the build stops when the text is not there (another version of the package)', () => {
    expect(() => patched(optionJs, 'export class Option {}')).toThrow(/scripts\/patches\.mjs/);
  });
});
