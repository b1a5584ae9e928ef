// YAML in and out, with numbers as exact as JSON's (json/exact.ts): `quota: 12345678901234567890` and
// `ratio: 1.50` keep their digits both ways. YAML is read as data that JSON could hold: maps with string keys,
// lists, strings, numbers, booleans and null; anything else (.inf, tags, documents after the first) is an
// error, as is a set of aliases that would blow the data up. `<<` merge keys are read as PyYAML and ruamel.yaml
// read them. What is written reads back the same in YAML 1.2 and 1.1 readers. The package loads only when YAML
// is used.
import { Document, isAlias, isMap, isScalar, isSeq, parseDocument, visit, type Alias, type Node } from 'yaml';
import { ExactNumber, isExactNumber, numberFromText } from './exact.js';
import { setOwn } from './record.js';

/** A YAML text that is not data cip can send: the message says where and why. */
export class YamlError extends SyntaxError {}

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
/**
 * How large the data may be once every alias (and `<<` merge) is expanded, counted as the bytes of its JSON: as
 * large as the largest input file cip reads (MAX_INPUT_BYTES in commands/io.ts), so aliases let a file say no
 * more than it could say written out.
 */
export const MAX_EXPANDED_BYTES = 64 * 1024 * 1024;
/**
 * How many values aliases may add to those the file writes out: what they expand to must be built, value by
 * value, so this bounds the time (about a second for a million on a busy machine); real files add far fewer.
 */
export const MAX_ALIAS_VALUES = 1_000_000;
/**
 * How deep YAML may nest: less than JSON's MAX_JSON_DEPTH, because the yaml package's parser runs out of
 * stack a little below that; no environment is shaped like either.
 */
export const MAX_YAML_DEPTH = 500;

const tooDeep = () => new YamlError(`nested deeper than ${MAX_YAML_DEPTH} levels`);

/** A plain `<<` key: the package reads it as a merge key (merge: true), a quoted '<<' stays a string. */
const isMergeKey = (key: unknown) => isScalar(key) && typeof key.value === 'symbol';

export function parseExactYaml(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false, version: '1.2', merge: true });
  const [error] = doc.errors;
  if (error) {
    const message = error.message.split('\n')[0] ?? 'invalid YAML';
    throw new YamlError(
      /call stack/i.test(message) ? `nested deeper than ${MAX_YAML_DEPTH} levels` : `${message}${position(text, error.pos[0])}`,
    );
  }

  const aliases = readAliases(doc);
  checkExpansion(doc, aliases);
  return converter(text, aliases)(doc.contents, 0);
}

/** Each alias of a document and the node it stands for, and the maps a `<<` merges. */
interface Aliases {
  targets: Map<Alias, Node>;
  resolved: (node: unknown) => unknown;
  mergeSources: (value: unknown) => Node[];
}

function readAliases(doc: Document.Parsed): Aliases {
  // Each alias stands for the last node before it with its anchor. One pass in document order finds them all
  // (Alias.resolve would walk the whole document for each alias).
  const targets = new Map<Alias, Node>();
  const anchors = new Map<string, Node>();
  visit(doc, {
    Node: (_key, node) => {
      if (isAlias(node)) {
        const target = anchors.get(node.source);
        if (!target) throw new YamlError(`the alias *${node.source} has no anchor &${node.source} before it`);
        targets.set(node, target);
      } else if (node.anchor) anchors.set(node.anchor, node);
    },
  });
  const resolved = (node: unknown): unknown => (isAlias(node) ? targets.get(node) : node);

  /** The maps a `<<` merges, earlier first: a map, or a list of maps (each may be an alias). */
  const mergeSources = (value: unknown): Node[] => {
    const node = resolved(value);
    const sources = isSeq(node) ? node.items.map(resolved) : [node];
    if (!sources.every((source) => isMap(source))) throw new YamlError("'<<' (a merge key) takes a map or a list of maps");
    return sources;
  };

  return { targets, resolved, mergeSources };
}

/** The size of a node once expanded: its JSON's bytes and its values. */
interface Size {
  bytes: number;
  values: number;
}

/** Refuses a document whose aliases would expand it past the bounds, before anything is expanded. */
function checkExpansion(doc: Document.Parsed, { resolved, mergeSources }: Aliases): void {
  // What each node stands for once expanded: its JSON's bytes and its values, counted once per node (an alias
  // reuses its anchor's count), so this costs as much as the document, however far the aliases would expand it.
  // Both are checked before anything is expanded: a "billion laughs" is refused at once.
  const sizes = new Map<unknown, Size>();
  const busy = new Set<unknown>();
  let written = 0;
  const sizeOf = (value: unknown, depth: number): Size => {
    if (depth >= MAX_YAML_DEPTH) throw tooDeep();
    const node = resolved(value);
    // An empty value (null) is no node: each one is written where it stands.
    if (node === null || node === undefined) {
      written++;
      return { bytes: 4, values: 1 };
    }
    const known = sizes.get(node);
    if (known) return known;
    if (busy.has(node)) throw new YamlError('an alias refers to a node that holds it: the data would have no end');
    busy.add(node);
    written++;
    const size = { bytes: 4, values: 1 };
    const add = (part: Size, bytes = 1) => {
      size.bytes += part.bytes + bytes;
      size.values += part.values;
    };
    if (isMap(node)) {
      for (const pair of node.items) {
        if (isMergeKey(pair.key)) for (const source of mergeSources(pair.value)) add(sizeOf(source, depth + 1));
        else {
          add(sizeOf(pair.key, depth + 1));
          add(sizeOf(pair.value, depth + 1));
        }
      }
    } else if (isSeq(node)) {
      for (const item of node.items) add(sizeOf(item, depth + 1));
    } else if (isScalar(node)) {
      size.bytes = (node.source ?? String(node.value)).length + (typeof node.value === 'string' ? 2 : 0);
    }
    busy.delete(node);
    sizes.set(node, size);
    return size;
  };
  const expanded = sizeOf(doc.contents, 0);
  if (expanded.bytes > MAX_EXPANDED_BYTES) {
    throw new YamlError(
      `its aliases expand it too far: to about ${Math.ceil(expanded.bytes / (1024 * 1024))} MiB as JSON, more than the ${MAX_EXPANDED_BYTES / (1024 * 1024)} MiB allowed`,
    );
  }
  if (expanded.values - written > MAX_ALIAS_VALUES) {
    throw new YamlError(
      `its aliases expand it too far: they add ${expanded.values - written} values, more than the ${MAX_ALIAS_VALUES} allowed`,
    );
  }
}

/** What turns a node of the document into data, aliases and merges expanded. */
function converter(text: string, { targets, resolved, mergeSources }: Aliases): (value: unknown, depth: number) => unknown {
  const convert = (value: unknown, depth: number): unknown => {
    if (depth >= MAX_YAML_DEPTH) throw tooDeep();
    if (isAlias(value)) return convert(targets.get(value), depth + 1);
    const node = value;
    if (node === null || node === undefined) return null;
    if (isMap(node)) {
      const result: Record<string, unknown> = {};
      const keyOf = (pair: (typeof node.items)[number]) => {
        const keyNode = resolved(pair.key);
        const key = isScalar(keyNode) ? keyNode.value : keyNode;
        if (typeof key !== 'string' && typeof key !== 'number' && typeof key !== 'boolean' && key !== null) {
          throw new YamlError('a key must be a plain value, not a list or a map');
        }
        return String(key);
      };
      const explicit = new Set<string>();
      for (const pair of node.items) {
        if (isMergeKey(pair.key)) continue;
        // uniqueKeys sees `1` and "1", or a key and an alias of it, as two keys; as data they are one.
        const key = keyOf(pair);
        if (explicit.has(key)) throw new YamlError(`the key '${key}' is given twice${position(text, nodeStart(pair.key))}`);
        explicit.add(key);
      }
      let merges = 0;
      for (const pair of node.items) {
        if (isMergeKey(pair.key)) {
          // As PyYAML and ruamel.yaml: the map's own keys win, then the earlier of the merged maps. ruamel.yaml
          // refuses two `<<` in one map and PyYAML reads them, so cip refuses them rather than guess.
          if (++merges > 1) throw new YamlError("a map has two '<<' merge keys: merge a list instead, as <<: [*a, *b]");
          for (const source of mergeSources(pair.value)) {
            const merged = convert(source, depth + 1) as Record<string, unknown>;
            for (const key of Object.keys(merged)) {
              if (!explicit.has(key) && !Object.hasOwn(result, key)) setOwn(result, key, merged[key]);
            }
          }
          continue;
        }
        setOwn(result, keyOf(pair), convert(pair.value, depth + 1));
      }
      return result;
    }
    if (isSeq(node)) return node.items.map((item) => convert(item, depth + 1));
    if (isScalar(node)) {
      try {
        return scalarValue(node.value, node.source);
      } catch (error) {
        throw error instanceof YamlError ? new YamlError(`${error.message}${position(text, nodeStart(node))}`) : error;
      }
    }
    throw new YamlError('unsupported YAML node');
  };
  return convert;
}

/** Where a node starts in the text; undefined for a node made up by the parser (an empty key). */
function nodeStart(node: unknown): number | undefined {
  return (node as { range?: [number, number, number] } | null)?.range?.[0];
}

/** The widest excerpt of a line a message shows. */
const EXCERPT = 60;

/**
 * " at line 3, column 5: '  - name: b'": where an offset of the text is, and the line, so a person finds it
 * (cut around the column when it is long). Empty for an offset that is not known.
 */
function position(text: string, offset: number | undefined): string {
  if (offset === undefined) return '';
  const at = Math.min(Math.max(offset, 0), text.length);
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const end = text.indexOf('\n', at);
  const line = text.slice(start, end === -1 ? text.length : end).replace(/\r$/, '');
  let number = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < start; index = text.indexOf('\n', index + 1)) number++;
  const column = at - start + 1;
  const where = ` at line ${number}, column ${column}`;
  if (line.trim() === '') return `${where} (${end === -1 ? 'the end of the text' : 'an empty line'})`;
  const from = line.length <= EXCERPT ? 0 : Math.min(Math.max(0, column - 1 - EXCERPT / 2), line.length - EXCERPT);
  const excerpt = line.slice(from, from + EXCERPT);
  return `${where}: '${from > 0 ? '…' : ''}${excerpt}${from + EXCERPT < line.length ? '…' : ''}'`;
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

/**
 * Characters a YAML 1.1 reader (PyYAML, ruamel.yaml) refuses or reads as something else when they stand raw in a
 * string: C0 and C1 controls with tab and CR (a tab breaks a plain scalar), DEL, NEL, LS and PS (line breaks to
 * YAML 1.1), the BOM (not allowed inside a document), U+FFFE and U+FFFF, and halves of surrogate pairs standing
 * alone (with the u flag a pair is one character, so [\ud800-\udfff] matches only a lone half). A lone half is
 * no YAML character at all: its \u escape keeps the data, and pure-Python readers take it (libyaml refuses it).
 */
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]/u;
// eslint-disable-next-line no-control-regex
const ESCAPE_ALL = /[\x00-\x1f\x7f-\x9f"\\\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]/gu;
const SHORT_ESCAPES: Record<string, string> = { '\0': '\\0', '\t': '\\t', '\n': '\\n', '\r': '\\r', '"': '\\"', '\\': '\\\\' };

/** A double-quoted YAML string on one line, every character a reader could trip on escaped. */
function doubleQuoted(text: string): string {
  const escaped = text.replace(ESCAPE_ALL, (char) => {
    const short = SHORT_ESCAPES[char];
    if (short) return short;
    const code = char.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  return `"${escaped}"`;
}

interface StringTag {
  tag: string;
  stringify?: (item: { value: unknown }, ctx: { indent: string }, ...rest: never[]) => string;
}

/**
 * Strings as the yaml package writes them (plain where that reads back as the same string, block scalars for
 * lines), except that one holding a character from NEEDS_ESCAPE is double-quoted with it escaped: the package
 * writes some of them raw, and YAML 1.1 readers then refuse the whole file. So are `=` (1.1's "value" key, which
 * PyYAML cannot build) and lines at the top level (PyYAML refuses a block scalar without indentation).
 */
function safeStrings(tags: StringTag[]): StringTag[] {
  return tags.map((tag) => {
    const { stringify } = tag;
    if (tag.tag !== 'tag:yaml.org,2002:str' || !stringify) return tag;
    return {
      ...tag,
      stringify: (item, ctx, ...rest) => {
        const text = item.value;
        if (typeof text !== 'string') return stringify(item, ctx, ...rest);
        const quote = NEEDS_ESCAPE.test(text) || text === '=' || (!ctx.indent && text.includes('\n'));
        return quote ? doubleQuoted(text) : stringify(item, ctx, ...rest);
      },
    };
  });
}

/**
 * YAML that YAML 1.2 readers and YAML 1.1 readers (PyYAML, ruamel.yaml, Go's yaml.v2) read back as the same data:
 * the 1.1 schema as `compat` makes the package quote strings 1.1 reads as something else (yes, on, 0o10,
 * 12:30, <<).
 */
export function stringifyExactYaml(value: unknown): string {
  const doc = new Document(value, {
    customTags: (tags) => [...safeStrings(tags as StringTag[]), EXACT_NUMBER_TAG] as typeof tags,
    version: '1.2',
    compat: 'yaml-1.1',
  });
  return doc.toString({ lineWidth: 0 });
}
