// YAML in and out, with numbers as exact as JSON's (json/exact.ts): `quota: 12345678901234567890` and
// `ratio: 1.50` keep their digits both ways. YAML is read as data that JSON could hold: maps with string keys,
// lists, strings, numbers, booleans and null; anything else (.inf, tags, documents after the first) is an
// error, as is a chain of aliases that would blow the data up. The package loads only when YAML is used.
import { Document, isAlias, isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { ExactNumber, isExactNumber, numberFromText } from './exact.js';
import { setOwn } from './record.js';

/** A YAML text that is not data cip can send: the message says where and why. */
export class YamlError extends SyntaxError {}

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
/** How many alias uses one document may have: enough for real files, too few for a "billion laughs". */
const MAX_ALIASES = 1000;
/**
 * How deep YAML may nest: less than JSON's MAX_JSON_DEPTH, because the yaml package's parser runs out of
 * stack a little below that; no environment is shaped like either.
 */
export const MAX_YAML_DEPTH = 500;

export function parseExactYaml(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false, version: '1.2' });
  const [error] = doc.errors;
  if (error) {
    const message = error.message.split('\n')[0] ?? 'invalid YAML';
    throw new YamlError(/call stack/i.test(message) ? `nested deeper than ${MAX_YAML_DEPTH} levels` : message);
  }
  let aliases = 0;
  const convert = (node: unknown, depth: number): unknown => {
    if (depth >= MAX_YAML_DEPTH) throw new YamlError(`nested deeper than ${MAX_YAML_DEPTH} levels`);
    if (node === null || node === undefined) return null;
    if (isAlias(node)) {
      if (++aliases > MAX_ALIASES) throw new YamlError(`more than ${MAX_ALIASES} aliases`);
      return convert(node.resolve(doc), depth + 1);
    }
    if (isMap(node)) {
      const result: Record<string, unknown> = {};
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        if (typeof key !== 'string' && typeof key !== 'number' && typeof key !== 'boolean' && key !== null) {
          throw new YamlError('a key must be a plain value, not a list or a map');
        }
        setOwn(result, String(key), convert(pair.value, depth + 1));
      }
      return result;
    }
    if (isSeq(node)) return node.items.map((item) => convert(item, depth + 1));
    if (isScalar(node)) return scalarValue(node.value, node.source);
    throw new YamlError('unsupported YAML node');
  };
  return convert(doc.contents, 0);
}

function scalarValue(value: unknown, source: string | undefined): unknown {
  if (typeof value !== 'number') {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    throw new YamlError(`'${String(source)}' is not a value JSON can hold`);
  }
  const text = source?.trim() ?? String(value);
  // The digits as written, when they are a JSON number; 0x1F and 1e3 (no JSON) only when a double holds them.
  if (JSON_NUMBER.test(text)) return numberFromText(text);
  if (!Number.isFinite(value)) throw new YamlError(`'${text}' is not a number JSON can hold`);
  return value;
}

/** Exact numbers are written with their own digits; everything else as the yaml package writes it. */
const EXACT_NUMBER_TAG = {
  identify: (value: unknown) => isExactNumber(value),
  default: true,
  tag: 'tag:yaml.org,2002:float',
  resolve: (text: string) => new ExactNumber(text),
  stringify: (item: { value?: unknown }) => String(item.value),
};

export function stringifyExactYaml(value: unknown): string {
  const doc = new Document(value, { customTags: [EXACT_NUMBER_TAG], version: '1.2' });
  return doc.toString({ lineWidth: 0 });
}
