// Reading an answer's bytes as text, by the charset its Content-Type declares, and saying when the text is not
// exactly what the server meant. cip sends back what it read (a PUT merges the record it listed): text decoded
// with U+FFFD in place of bytes it could not read would destroy fields the user never named, so the request path
// refuses to write after such a read (api/http.ts). JSON without a charset is UTF-8 (RFC 8259).

export interface DecodedText {
  text: string;
  /**
   * Why the text may not be what the server meant; undefined when it is exact. Such text may be shown (with a
   * warning), never sent back.
   */
  inexact: string | undefined;
}

/** The charset parameters of a Content-Type, lower case, unquoted: `Charset="ISO-8859-1"` is iso-8859-1. */
export function charsetsOf(contentType: string | null | undefined): string[] {
  if (!contentType) return [];
  const found: string[] = [];
  // Parameters after the media type: a token, or a quoted string with its backslash escapes (RFC 9110 5.6.6).
  const parameter = /;\s*([^\s;=]+)\s*=\s*("(?:[^"\\]|\\.)*"?|[^;]*)/g;
  for (const [, name, value] of contentType.matchAll(parameter)) {
    if (name!.toLowerCase() !== 'charset') continue;
    const unquoted = value!.startsWith('"') ? value!.replace(/^"|"$/g, '').replace(/\\(.)/g, '$1') : value!;
    // An empty one names nothing.
    if (unquoted.trim() !== '') found.push(unquoted.trim().toLowerCase());
  }
  return found;
}

/**
 * windows-1252's characters for the bytes 0x80-0x9F, as the Encoding Standard has them (the five it leaves
 * undefined are the C1 controls of the same number); its other bytes are ISO-8859-1's. cip reads it itself: Node
 * 20's decoder for the label reads these bytes as ISO-8859-1 (U+0080 for the euro sign), other versions do not.
 */
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** The bytes as ISO-8859-1 reads them: one character each, of the same number. */
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** ISO-8859-1 text read again as windows-1252. */
const windows1252 = (latin: string) => latin.replace(/[\x80-\x9f]/g, (char) => WINDOWS_1252_HIGH[char.charCodeAt(0) - 0x80]!);

/** The labels the Encoding Standard reads as windows-1252 that name another charset: where they differ, say so. */
const LATIN1 = new Set([
  'cp819',
  'csisolatin1',
  'ibm819',
  'iso-8859-1',
  'iso-ir-100',
  'iso8859-1',
  'iso88591',
  'iso_8859-1',
  'iso_8859-1:1987',
  'l1',
  'latin1',
]);
const ASCII = new Set(['ansi_x3.4-1968', 'ascii', 'us-ascii']);
/** The labels of UTF-16 that name no byte order (a BOM or the bytes tell it). */
const UTF16_ANY_ORDER = new Set(['utf-16', 'ucs-2', 'unicode', 'csunicode', 'iso-10646-ucs-2', 'unicodefeff']);

/** The decoder a label names, or undefined for a charset this Node cannot read. */
function decoderFor(label: string): TextDecoder | undefined {
  try {
    return new TextDecoder(label, { fatal: true, ignoreBOM: true });
  } catch {
    return undefined;
  }
}

/** The encoding a byte-order mark at the start names, and its length. */
function byteOrderMark(bytes: Uint8Array): { encoding: string; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  return undefined;
}

/** The bytes read the way a browser reads what it cannot decode: U+FFFD for each bad sequence. */
const lossy = (bytes: Uint8Array, encoding = 'utf-8') => new TextDecoder(encoding, { ignoreBOM: true }).decode(bytes);

/** Reads `decoder` over the bytes; undefined when they are not valid in its charset. */
function exactly(decoder: TextDecoder, bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

const quoted = (label: string) => `'${label.replace(/[^\x20-\x7e]/g, '?').slice(0, 40)}'`;

/**
 * An answer's body as text: decoded as a byte-order mark says (as the Encoding Standard does, whatever the
 * label), else as the Content-Type's charset (its first, as the Encoding Standard takes), else as UTF-8; with why
 * it is not exact when it is not.
 */
export function decodeText(bytes: Uint8Array, contentType: string | null | undefined): DecodedText {
  const labels = charsetsOf(contentType);
  const decoded = decodeAs(bytes, labels[0]);
  const distinct = new Set(labels);
  if (decoded.inexact !== undefined || distinct.size < 2) return decoded;
  return { text: decoded.text, inexact: `its Content-Type names ${distinct.size} charsets (${[...distinct].map(quoted).join(', ')})` };
}

function decodeAs(bytes: Uint8Array, label: string | undefined): DecodedText {
  const bom = byteOrderMark(bytes);
  if (bom) {
    const rest = bytes.subarray(bom.length);
    const text = exactly(decoderFor(bom.encoding)!, rest);
    if (text === undefined)
      return {
        text: lossy(rest, bom.encoding),
        inexact: `it is not valid ${bom.encoding.toUpperCase()}, though it starts with that byte-order mark`,
      };
    const declared = label === undefined ? undefined : decoderFor(label)?.encoding;
    const agrees = declared === undefined || declared === bom.encoding || (declared === 'utf-16le' && UTF16_ANY_ORDER.has(label!));
    return {
      text,
      inexact: agrees
        ? undefined
        : `its Content-Type says charset=${quoted(label!)}, but it starts with a ${bom.encoding.toUpperCase()} byte-order mark`,
    };
  }
  if (label === undefined) {
    const text = exactly(decoderFor('utf-8')!, bytes);
    return text === undefined
      ? { text: lossy(bytes), inexact: 'it is not valid UTF-8, and its Content-Type names no charset' }
      : { text, inexact: undefined };
  }
  let decoder = decoderFor(label);
  if (!decoder) return { text: lossy(bytes), inexact: `its Content-Type names a charset cip cannot read (${quoted(label)})` };
  const name = quoted(label);
  if (decoder.encoding === 'windows-1252') {
    const latin = latin1(bytes);
    const text = windows1252(latin);
    if (ASCII.has(label) && /[\x80-\xff]/.test(latin))
      return { text, inexact: `it is not valid ${name}, the charset its Content-Type names` };
    // Browsers read ISO-8859-1 as windows-1252; ISO-8859-1 itself has control characters there.
    if (LATIN1.has(label) && /[\x80-\x9f]/.test(latin))
      return { text, inexact: `it holds bytes 0x80-0x9F, which ${name} and windows-1252 read as different characters` };
    return { text, inexact: undefined };
  }
  // JSON starts with an ASCII character: its zero byte tells UTF-16's byte order where nothing else does.
  if (decoder.encoding === 'utf-16le' && UTF16_ANY_ORDER.has(label) && bytes[0] === 0 && bytes[1] !== 0) decoder = decoderFor('utf-16be')!;
  const text = exactly(decoder, bytes);
  if (text === undefined)
    return { text: lossy(bytes, decoder.encoding), inexact: `it is not valid ${name}, the charset its Content-Type names` };
  return { text, inexact: undefined };
}
