// JSON whose numbers keep exactly the digits they were written with. JSON.parse turns every number into a
// double: 9007199254740993 becomes ...992 (another environment's id), 1e400 becomes Infinity, 1.50 loses its
// zero. Here a number whose text a double reproduces exactly stays a plain number, and any other becomes an
// ExactNumber that carries its text through tables, JSON output and request bodies.
//
// Node does both halves itself (since Node 21; V8 11.8): a reviver of JSON.parse is given each number's source
// text, and JSON.stringify writes a JSON.rawJSON value as the text it holds. A reviver costs a call for every
// value, though, and nearly every answer has only plain numbers: a linear scan decides that, and then
// JSON.parse runs without one.

/** JSON.rawJSON's result: JSON.stringify writes its text as it is. */
interface RawJson {
  readonly rawJSON: string;
}

/** What TypeScript's lib (5.9) does not declare yet: the source text a reviver is given, and JSON.rawJSON. */
interface JsonWithSource {
  parse(text: string, reviver: (key: string, value: unknown, context: { source?: string }) => unknown): unknown;
  rawJSON(text: string): RawJson;
}
const NativeJson = JSON as unknown as JsonWithSource;

/** A JSON number a double cannot reproduce digit for digit; `text` is the number exactly as written. */
export class ExactNumber {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
  valueOf(): number {
    return Number(this.text);
  }
  /** JSON.stringify writes the digits themselves. `text` must be a JSON number (a SyntaxError otherwise). */
  toJSON(): RawJson {
    return NativeJson.rawJSON(this.text);
  }
}

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

/** numberFromText for JSON.parse's reviver, which has the double already; only a primitive has a source. */
function exactNumbers(_key: string, value: unknown, { source }: { source?: string }): unknown {
  return typeof value === 'number' && source !== undefined && String(value) !== source ? new ExactNumber(source) : value;
}

/**
 * JSON.parse, but with every number exact (see above). Throws JSON.parse's SyntaxError on text that is not JSON,
 * and JsonTooDeepError on JSON nested deeper than MAX_JSON_DEPTH. A key given twice keeps its last value.
 */
export function parseExactJson(text: string): unknown {
  const { plainNumbers, depth } = scanJson(text);
  // Checked first also because a reviver walks the parsed value recursively.
  if (depth > MAX_JSON_DEPTH) throw new JsonTooDeepError();
  return plainNumbers ? (JSON.parse(text) as unknown) : NativeJson.parse(text, exactNumbers);
}

/** JSON.stringify, named where the data may hold ExactNumbers: each is written with its own digits (toJSON). */
export function stringifyExactJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent);
}
