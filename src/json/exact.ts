// JSON whose numbers keep exactly the digits they were written with. JSON.parse turns every number into a
// double: 9007199254740993 becomes ...992 (another environment's id), 1e400 becomes Infinity, 1.50 loses its
// zero. Here a number whose text a double reproduces exactly stays a plain number, and any other becomes an
// ExactNumber that carries its text through tables, JSON output and request bodies.
//
// Speed: nearly every answer has only plain numbers. A linear scan decides that, and then the native
// JSON.parse does the work; only an answer with a number a double cannot hold goes through lossless-json, a
// maintained parser (loaded only then) that is about ten times slower. Output always uses the native
// JSON.stringify: an ExactNumber serialises as a marked string that is swapped for its digits afterwards.

/** A JSON number a double cannot reproduce digit for digit; `text` is the number exactly as written. */
export class ExactNumber {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
  valueOf(): number {
    return Number(this.text);
  }
  toJSON(): string {
    marked++;
    return MARK + this.text;
  }
}

// A string no data can contain: JSON.stringify writes a NUL character as the six characters \u0000, and
// the random part is new in every process, so a server cannot plant it.
const NONCE = `${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
const MARK = `\u0000${NONCE}:`;
const MARK_IN_JSON = `"\\u0000${NONCE}:`;
/** How many ExactNumbers JSON.stringify has marked: the output needs no search when none was. */
let marked = 0;

export function isExactNumber(value: unknown): value is ExactNumber {
  return value instanceof ExactNumber;
}

/** The value a JSON number's text stands for: a plain number when a double writes it back the same way. */
export function numberFromText(text: string): number | ExactNumber {
  const number = Number(text);
  return String(number) === text ? number : new ExactNumber(text);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function isNumberChar(code: number): boolean {
  // digits, '.', 'e', 'E', '+', '-'
  return (code >= ZERO && code <= NINE) || code === 0x2e || code === 0x65 || code === 0x45 || code === 0x2b || code === MINUS;
}

/** Deeper JSON is refused: printing it would overflow the stack, and no environment is shaped like that. */
export const MAX_JSON_DEPTH = 1000;

/** JSON nested deeper than MAX_JSON_DEPTH. */
export class JsonTooDeepError extends SyntaxError {
  constructor() {
    super(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
}

export interface JsonScan {
  /** Every number outside strings is one that JSON.parse and JSON.stringify keep as written. */
  plainNumbers: boolean;
  /** The deepest nesting of arrays and objects. */
  depth: number;
}

/**
 * One linear pass over a JSON text: strings are skipped with indexOf, numbers checked, brackets counted. On
 * text that is not JSON the answer does not matter, since both parsers then reject it.
 */
export function scanJson(text: string): JsonScan {
  const length = text.length;
  let plainNumbers = true;
  let depth = 0;
  let deepest = 0;
  let at = 0;
  while (at < length) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      let search = at + 1;
      for (;;) {
        const end = text.indexOf('"', search);
        if (end < 0) return { plainNumbers, depth: deepest };
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
        search = end + 1;
        if (backslashes % 2 === 0) break;
      }
      at = search;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > deepest) deepest = depth;
      at++;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
      at++;
    } else if (code === MINUS || (code >= ZERO && code <= NINE)) {
      let end = at + 1;
      let digitsOnly = code !== MINUS;
      while (end < length) {
        const next = text.charCodeAt(end);
        if (next >= ZERO && next <= NINE) end++;
        else if (isNumberChar(next)) {
          digitsOnly = false;
          end++;
        } else break;
      }
      // The common case without building a string: a short integer with no leading zero is kept by a double.
      const plainInteger = digitsOnly && end - at <= 15 && (code !== ZERO || end - at === 1);
      if (plainNumbers && !plainInteger) {
        const token = text.slice(at, end);
        plainNumbers = String(Number(token)) === token;
      }
      at = end;
    } else {
      at++;
    }
  }
  return { plainNumbers, depth: deepest };
}

/**
 * JSON.parse, but with every number exact (see above). Throws SyntaxError on text that is not JSON, and
 * JsonTooDeepError on JSON nested deeper than MAX_JSON_DEPTH.
 */
export async function parseExactJson(text: string): Promise<unknown> {
  const { plainNumbers, depth } = scanJson(text);
  if (depth > MAX_JSON_DEPTH) throw new JsonTooDeepError();
  if (plainNumbers) return JSON.parse(text) as unknown;
  const { parse } = await import('lossless-json');
  // A key given twice keeps its last value, as JSON.parse does (lossless-json would refuse it).
  return parse(text, null, { parseNumber: numberFromText, onDuplicateKey: ({ newValue }) => newValue });
}

/** JSON.stringify that writes each ExactNumber with its own digits. */
export function stringifyExactJson(value: unknown, indent?: number): string {
  const before = marked;
  const text = JSON.stringify(value, null, indent);
  // Searching a large output would also make V8 copy it into one flat string: only search when needed.
  if (marked === before) return text;
  let at = text.indexOf(MARK_IN_JSON);
  if (at < 0) return text;
  // Each marked string becomes its digits, without the quotes; digits never contain a quote.
  let out = '';
  let from = 0;
  while (at >= 0) {
    const end = text.indexOf('"', at + MARK_IN_JSON.length);
    out += text.slice(from, at) + text.slice(at + MARK_IN_JSON.length, end);
    from = end + 1;
    at = text.indexOf(MARK_IN_JSON, from);
  }
  return out + text.slice(from);
}
