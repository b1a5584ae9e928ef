// Text from the server or the user is cleaned before it reaches a terminal: control characters (including
// ANSI escape sequences and 8-bit C1 controls such as CSI U+009B and OSC U+009D) could move the cursor,
// recolour or retitle the user's terminal, and bidirectional overrides (U+202E) or invisible characters
// (U+200B) could make one id look like another. All of them are shown, never obeyed.

// C0, DEL, C1, line/paragraph separators; bidi marks, embeddings, overrides and isolates; zero-width space,
// word joiner and invisible operators; the byte-order mark. Zero-width (non-)joiners stay: emoji and some
// scripts need them, and they cannot reorder text.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
// The same class without the g flag, for a test that keeps no state: most text has nothing to replace, and a
// replace with a function costs even then (a 100,000-row table asks twice for every cell).
// eslint-disable-next-line no-control-regex
const HAS_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
const LINE_BREAKS = new Set(['\n', '\r', '\t', '\u2028', '\u2029']);
// What JSON.stringify leaves raw inside strings (it escapes C0 controls itself; a raw newline in its output
// is layout).
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** One line, nothing unsafe: newlines and tabs become spaces, anything else unsafe becomes '?'. */
export function oneLine(text: string): string {
  return text
    .replace(UNSAFE, (ch) => (LINE_BREAKS.has(ch) ? ' ' : '?'))
    .replace(/ {2,}/g, ' ')
    .trim();
}

/**
 * Text of several lines (an error page, a body for people): line feeds and tabs kept, CR LF read as LF, anything
 * else unsafe as '?' (a lone CR too: it would return to the line's start and write over what was shown).
 */
export function manyLines(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE, (ch) => (ch === '\n' || ch === '\t' ? ch : '?'));
}

function hexEscape(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** For table cells: unsafe characters are shown escaped so the cell stays one line and nothing is hidden. */
export function escapeControls(text: string): string {
  if (!HAS_UNSAFE.test(text)) return text;
  return text.replace(UNSAFE, (ch) => {
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    if (ch === '\t') return '\\t';
    return hexEscape(ch);
  });
}

/**
 * JSON text for a terminal: every unsafe character JSON.stringify leaves raw (C1 controls, DEL, bidi and
 * invisible characters) written as a \u escape. The data is the same; only its spelling changes, and only
 * at a terminal (in a pipe the JSON stays byte for byte what JSON.stringify writes).
 */
export function escapeJsonForTerminal(json: string): string {
  return json.replace(UNSAFE_IN_JSON, hexEscape);
}

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(0, max - 1))}…` : text;
}

/** User input echoed in a message: shortened and with nothing unsafe. */
export function printable(value: string, max = 80): string {
  return truncate(value.replace(UNSAFE, '?'), max);
}

/**
 * A URL as it may be shown: a user name and password become '***'. Text that is no URL (a link the server
 * mangled) loses whatever stands between '//' and the authority's last '@', where a URL parser finds them.
 */
export function hideCredentials(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/([/\\]{2})[^/\\?#]*@/g, '$1***@');
  }
  if (!parsed.username && !parsed.password) return url;
  parsed.username = '***';
  parsed.password = '';
  return parsed.href;
}
