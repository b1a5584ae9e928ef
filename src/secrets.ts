// The keys of a run, so that nothing cip prints shows them. cip keeps the data it reads exact (a PUT sends
// back what was read, byte for byte); redact() runs where text leaves for a person or a log: the output
// writer, error lines, --verbose logs, doctor (ARCHITECTURE.md, Redaction).
import { MAX_TOKEN_LENGTH, MIN_KEY_LENGTH } from './config/validate.js';

const PLACEHOLDER = '***';

/** A hex number as a pattern that takes either case: 2b matches 2b and 2B. */
function anyCaseHex(code: number, width: number): string {
  return code
    .toString(16)
    .padStart(width, '0')
    .replace(/[a-f]/g, (digit) => `[${digit}${digit.toUpperCase()}]`);
}

const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** The characters a key spelled otherwise than as it is would hold (percent- or backslash-escaped, an entity). */
const ESCAPED = /[\\%&]/;

/**
 * One character of a key in every spelling a server may echo it in: as it is; as a JSON \uXXXX escape (either
 * hex case, the way ASP.NET's System.Text.Json writes + / = < > & '); with JSON's short escape for / " and \;
 * percent-encoded (either hex case); as an HTML or XML character reference. A JSON escape may be escaped again
 * (a JSON body whose message quotes JSON), so its backslash may be doubled, any number of times.
 */
function characterPattern(char: string): string {
  const code = char.codePointAt(0)!;
  const spellings = [char === '\\' ? '\\\\+' : escapeRegExp(char)];
  // JSON writes a character beyond U+FFFF as two escapes, one per UTF-16 unit.
  const units = Array.from({ length: char.length }, (_, index) => char.charCodeAt(index));
  spellings.push(units.map((unit) => `\\\\+u${anyCaseHex(unit, 4)}`).join(''));
  if (char === '/' || char === '"') spellings.push(`\\\\+${escapeRegExp(char)}`);
  spellings.push(Array.from(new TextEncoder().encode(char), (byte) => `%${anyCaseHex(byte, 2)}`).join(''));
  spellings.push(`&#(?:0*${code}|[xX]0*${anyCaseHex(code, 1)});`);
  return `(?:${spellings.join('|')})`;
}

export class Secrets {
  readonly #keys: string[] = [];
  /** Every key in every spelling, one pattern: a 40 MB list is read once, not once per key and spelling. */
  #pattern: RegExp | undefined;

  /** From now on redact() replaces the key wherever it appears, in any spelling (see characterPattern). */
  add(value: string | undefined): void {
    const secret = value?.trim();
    // Shorter values would blank out ordinary words; cip refuses keys that short anyway. It refuses longer
    // ones too (never sending them), and each character costs the pattern a few dozen.
    if (!secret || secret.length < MIN_KEY_LENGTH || secret.length > MAX_TOKEN_LENGTH || this.#keys.includes(secret)) return;
    this.#keys.push(secret);
    // Longest first: a key that contains another key must not be left half-redacted.
    this.#keys.sort((a, b) => b.length - a.length);
    this.#pattern = undefined;
  }

  /** The text with every key, however spelled, replaced by ***. */
  redact(text: string): string {
    // Every spelling is at least as long as its key; the shortest key is last.
    if (this.#keys.length === 0 || text.length < this.#keys.at(-1)!.length) return text;
    // Without \ % or &, a key can only appear as it is, and includes() finds that faster than the pattern:
    // the writer passes every string of a large list through here when it lays out a table.
    if (!ESCAPED.test(text) && !this.#keys.some((key) => text.includes(key))) return text;
    this.#pattern ??= new RegExp(this.#keys.map((key) => Array.from(key, characterPattern).join('')).join('|'), 'g');
    return text.replace(this.#pattern, PLACEHOLDER);
  }
}

/** A key as people may see it: at most the last 4 characters, and never more than a quarter of the key. */
export function maskKey(key: string): string {
  const shown = key.length >= 16 ? 4 : key.length >= 8 ? 2 : 0;
  return `****${shown ? key.slice(-shown) : ''}`;
}
