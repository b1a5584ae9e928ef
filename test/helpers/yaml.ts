// Arbitraries for YAML tests: strings of the kind YAML writers get wrong.
import fc from 'fast-check';

/** Strings made mostly of what YAML writers get wrong: indicators, controls, line breaks, 1.1's words. */
export function awkwardString(unit: 'binary' | 'grapheme'): fc.Arbitrary<string> {
  const char = fc.oneof(
    fc.constantFrom(...'\0\t\n\r \x7f\x80\x85\x9f\u2028\u2029\ufeff\ufffe#:-?,[]{}"\'\\<=&*!|>%@`~.'.split('')),
    fc.string({ unit, minLength: 1, maxLength: 1 }),
  );
  return fc.oneof(
    fc.constantFrom('yes', 'No', 'on', 'OFF', 'y', '~', 'null', '<<', '=', '12:30', '0o17', '1_000', '2001-12-14', '---', '...', '.inf'),
    fc.string({ unit: char, maxLength: 12 }),
  );
}
