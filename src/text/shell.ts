// Words of a command line that people copy from cip's hints (`cip env delete ...`, `-f name=...`), quoted for a
// POSIX shell (sh, bash, zsh) so that the command runs with exactly these values.

const PLAIN = /^[\w.@%+=:,/-]+$/;
// Characters a terminal would act on or hide, written as escapes inside $'...' rather than as they are.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
// eslint-disable-next-line no-control-regex
const UNSAFE_ALL = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff\\']/g;

/** A character inside $'...': a quote or backslash escaped, anything else by its code (\x07, \u202e). */
function escape(ch: string): string {
  if (ch === '\\' || ch === "'") return `\\${ch}`;
  const code = ch.charCodeAt(0);
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * One shell word that stands for the text exactly: as it is when it holds only plain characters, in single quotes
 * otherwise, and as $'...' with escapes when it holds a control or invisible character (which must not reach a
 * terminal as it is).
 */
export function shellQuote(text: string): string {
  if (text !== '' && PLAIN.test(text)) return text;
  if (!UNSAFE.test(text)) return `'${text.replace(/'/g, `'\\''`)}'`;
  return `$'${text.replace(UNSAFE_ALL, escape)}'`;
}
