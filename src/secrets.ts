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
 * percent-encoded (either hex case, once or more); as an HTML or XML character reference. A JSON escape may be
 * escaped again (a JSON body whose message quotes JSON), so its backslash may be doubled, any number of times.
 */
function characterPattern(char: string): string {
  const code = char.codePointAt(0)!;
  const spellings = [char === '\\' ? '\\\\+' : escapeRegExp(char)];
  // JSON writes a character beyond U+FFFF as two escapes, one per UTF-16 unit.
  const units = Array.from({ length: char.length }, (_, index) => char.charCodeAt(index));
  spellings.push(units.map((unit) => `\\\\+u${anyCaseHex(unit, 4)}`).join(''));
  if (char === '/' || char === '"') spellings.push(`\\\\+${escapeRegExp(char)}`);
  // Percent-encoded once or more: a URL that went through encodeURIComponent again writes % as %25.
  spellings.push(Array.from(new TextEncoder().encode(char), (byte) => `%(?:25)*${anyCaseHex(byte, 2)}`).join(''));
  spellings.push(`&#(?:0*${code}|[xX]0*${anyCaseHex(code, 1)});`);
  return `(?:${spellings.join('|')})`;
}

/**
 * The key as it shows inside base64, standard or URL-safe (a Basic credential, a token's claims, a value someone
 * encoded): at each of the three offsets a key can start at in the encoded bytes, the characters made of the
 * key's bits alone (those at its edges mix in its neighbours' bits, and give away a few bits at most).
 */
function base64Spellings(key: string): string[] {
  const bytes = Buffer.from(key, 'utf8');
  const found = new Set<string>();
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const part = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    found.add(part);
    found.add(part.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...found];
}

/** A base64 spelling as a pattern: its letters and digits as they are, + / - _ in any spelling (\/ in JSON). */
const base64Pattern = (part: string) => Array.from(part, (char) => (/[A-Za-z0-9]/.test(char) ? char : characterPattern(char))).join('');

/** Where cip cut text short (text/sanitize.ts truncate, excerpts): a key cut there is no longer whole. */
const CUT = '\u2026';
/** A run of a key's characters beside a cut is redacted from this length on (a cut that leaves less shows less). */
const CUT_RUN = 8;
/** One character of a key as spelled (see characterPattern): the decoded character is in one of the groups. */
const SPELLED = String.raw`%(?:25)*([0-9a-fA-F]{2})|\\+u([0-9a-fA-F]{4})|\\+([/"])|&#(?:([0-9]+)|[xX]([0-9a-fA-F]+));`;
const SPELLED_AT = new RegExp(SPELLED, 'y');
/** The start of a spelling that a cut left unfinished (`%7…`, `\\u00…`). */
const UNFINISHED = /(?:%(?:25)*[0-9a-fA-F]?|\\+(?:u[0-9a-fA-F]{0,3})?|&#[xX]?[0-9a-fA-F]*)$/;

function decoded(match: RegExpExecArray): string {
  const [, percent, unicode, short, decimal, hex] = match;
  if (short !== undefined) return short;
  const code = percent ?? unicode ?? hex;
  return String.fromCharCode(code === undefined ? Number(decimal) : parseInt(code, 16));
}

/** The character spelled at `at`, and where its spelling ends. */
function characterAt(text: string, at: number): { char: string; next: number } {
  const first = text[at]!;
  // Every spelling but the character itself starts with one of these.
  if (first !== '%' && first !== '\\' && first !== '&') return { char: first, next: at + 1 };
  SPELLED_AT.lastIndex = at;
  const match = SPELLED_AT.exec(text);
  return match ? { char: decoded(match), next: SPELLED_AT.lastIndex } : { char: text[at]!, next: at + 1 };
}

const HEX = /^[0-9a-fA-F]+$/;

/**
 * The character spelled just before `end`, and where its spelling starts: the spellings of characterPattern read
 * backwards, by hand (this runs for each character of each run beside a cut, and a hostile answer may hold a
 * million cuts).
 */
function characterBefore(text: string, end: number): { char: string; next: number } {
  const last = text[end - 1]!;
  const plain = { char: last, next: end - 1 };
  const code = (digits: string, radix: number) => String.fromCharCode(parseInt(digits, radix));
  if (last === '/' || last === '"') {
    let start = end - 1;
    while (start > 0 && text[start - 1] === '\\') start--;
    return start < end - 1 ? { char: last, next: start } : plain;
  }
  if (last === ';') {
    const entity = /&#(?:([0-9]+)|[xX]([0-9a-fA-F]+));$/.exec(text.slice(Math.max(0, end - 16), end));
    return entity ? { char: code(entity[1] ?? entity[2]!, entity[1] === undefined ? 16 : 10), next: end - entity[0].length } : plain;
  }
  if (!HEX.test(last)) return plain;
  const pair = text.slice(end - 2, end);
  if (end >= 3 && HEX.test(pair)) {
    // %41, or %2541 (encoded again), %252541...
    let start = end - 2;
    while (text[start - 1] !== '%' && start >= 3 && text[start - 2] === '2' && text[start - 1] === '5') start -= 2;
    if (text[start - 1] === '%') return { char: code(pair, 16), next: start - 1 };
  }
  const unit = text.slice(end - 4, end);
  if (end >= 6 && text[end - 5] === 'u' && text[end - 6] === '\\' && HEX.test(unit)) {
    let start = end - 6;
    while (start > 0 && text[start - 1] === '\\') start--;
    return { char: code(unit, 16), next: start };
  }
  return plain;
}

/**
 * The longest run of consecutive characters of a key that the text spells from `from` on (forward) or up to
 * `from` (backward): where it ends (or starts), and its length in characters of the key.
 */
function keyRun(keys: readonly string[], text: string, from: number, forward: boolean): { edge: number; length: number } {
  // The places in the keys the run so far could be (key and index, side by side): each character read keeps
  // those the next one continues.
  let inKey: string[] = [];
  let at: number[] = [];
  let best = { edge: from, length: 0 };
  let edge = from;
  const step = forward ? 1 : -1;
  for (let length = 1; forward ? edge < text.length : edge > 0; length++) {
    const { char, next } = forward ? characterAt(text, edge) : characterBefore(text, edge);
    edge = next;
    if (length === 1) {
      for (const key of keys)
        for (let index = key.indexOf(char); index >= 0; index = key.indexOf(char, index + 1)) {
          inKey.push(key);
          at.push(index);
        }
    } else {
      const keptKey: string[] = [];
      const keptAt: number[] = [];
      for (let place = 0; place < at.length; place++) {
        if (inKey[place]![at[place]! + step] !== char) continue;
        keptKey.push(inKey[place]!);
        keptAt.push(at[place]! + step);
      }
      inKey = keptKey;
      at = keptAt;
    }
    if (at.length === 0) break;
    best = { edge, length };
  }
  return best;
}

/** The text with every run of a key's characters beside a cut (…) replaced by ***: a key cut short stays hidden. */
function redactCuts(text: string, keys: readonly string[]): string {
  // A run beside a cut starts with a character of a key, or of a spelling: anything else is passed over at once.
  const starts = new Set(Array.from(`${keys.join('')}%\\&#0123456789abcdefABCDEFuxX;/"`));
  const spans: [number, number][] = [];
  for (let cut = text.indexOf(CUT); cut >= 0; cut = text.indexOf(CUT, cut + 1)) {
    if (cut > 0 && starts.has(text[cut - 1]!)) {
      const unfinished = UNFINISHED.exec(text.slice(Math.max(0, cut - 16), cut))?.[0].length ?? 0;
      const before = keyRun(keys, text, cut - unfinished, false);
      if (before.length >= CUT_RUN) spans.push([before.edge, cut]);
    }
    if (cut + 1 < text.length && starts.has(text[cut + 1]!)) {
      const after = keyRun(keys, text, cut + 1, true);
      if (after.length >= CUT_RUN) spans.push([cut + 1, after.edge]);
    }
  }
  // The run after one cut may be the run before the next (`…middle…`): spans that overlap are one.
  spans.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push(span);
  }
  if (merged.length === 0) return text;
  // One join, not a copy of the text per span: a hostile answer may hold a cut key a million times.
  const parts: string[] = [];
  let at = 0;
  for (const [start, end] of merged) {
    parts.push(text.slice(at, start), PLACEHOLDER);
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

function includesAny(text: string, parts: readonly string[]): boolean {
  for (const part of parts) if (text.includes(part)) return true;
  return false;
}

/** Whether the text has `length` base64 characters in a row (either alphabet): a loop, cheaper than a pattern. */
function hasBase64Run(text: string, length: number): boolean {
  let run = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const base64 =
      (code >= 0x30 && code <= 0x39) ||
      (code >= 0x41 && code <= 0x5a) ||
      (code >= 0x61 && code <= 0x7a) ||
      code === 0x2b ||
      code === 0x2f ||
      code === 0x2d ||
      code === 0x5f;
    run = base64 ? run + 1 : 0;
    if (run >= length) return true;
  }
  return false;
}

export class Secrets {
  readonly #keys: string[] = [];
  /** The keys' base64 spellings, and the length of the shortest: a text holds one only in a run that long. */
  #base64: string[] = [];
  #base64Run = 0;
  /** Every key in every spelling, one pattern: a 40 MB list is read once, not once per key and spelling. */
  #pattern: RegExp | undefined;
  #base64Pattern: RegExp | undefined;

  /** From now on redact() replaces the key wherever it appears, in any spelling (see characterPattern). */
  add(value: string | undefined): void {
    const secret = value?.trim();
    // Shorter values would blank out ordinary words; cip refuses keys that short anyway. It refuses longer
    // ones too (never sending them), and each character costs the pattern a few dozen.
    if (!secret || secret.length < MIN_KEY_LENGTH || secret.length > MAX_TOKEN_LENGTH || this.#keys.includes(secret)) return;
    this.#keys.push(secret);
    // Longest first: a key that contains another key must not be left half-redacted.
    this.#keys.sort((a, b) => b.length - a.length);
    this.#base64 = this.#keys.flatMap(base64Spellings);
    this.#base64Run = Math.min(...this.#base64.map((part) => part.length));
    this.#pattern = undefined;
    this.#base64Pattern = undefined;
  }

  /** The text with every key, however spelled, replaced by ***; and a key cut short by cip (…) as well. */
  redact(text: string): string {
    if (this.#keys.length === 0) return text;
    let result = text;
    // Every spelling is at least as long as its key; the shortest key is last. Without \ % or &, a key can only
    // appear as it is, and includes() finds that faster than the pattern: the writer passes every string of a
    // large list through here when it lays out a table.
    if (result.length >= this.#keys.at(-1)!.length && (ESCAPED.test(result) || includesAny(result, this.#keys))) {
      this.#pattern ??= new RegExp(this.#keys.map((key) => Array.from(key, characterPattern).join('')).join('|'), 'g');
      result = result.replace(this.#pattern, PLACEHOLDER);
    }
    return result.length > CUT_RUN && result.includes(CUT) ? redactCuts(result, this.#keys) : result;
  }

  /**
   * redact(), and a key in base64 or base64url as well: for what cip keeps in a file of its own (the journal). Not
   * for every string printed: looking for six spellings of each key in every table cell would cost a large
   * list's table more than its layout.
   */
  redactKept(text: string): string {
    const result = this.redact(text);
    if (this.#keys.length === 0 || !hasBase64Run(result, this.#base64Run) || !includesAny(result, this.#base64)) return result;
    this.#base64Pattern ??= new RegExp(this.#base64.map(base64Pattern).join('|'), 'g');
    return result.replace(this.#base64Pattern, PLACEHOLDER);
  }
}

/** A key as people may see it: at most the last 4 characters, and never more than a quarter of the key. */
export function maskKey(key: string): string {
  const shown = key.length >= 16 ? 4 : key.length >= 8 ? 2 : 0;
  return `****${shown ? key.slice(-shown) : ''}`;
}
