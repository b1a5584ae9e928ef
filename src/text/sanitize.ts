// Text from the server or the user is cleaned before it reaches a terminal: control characters (including
// ANSI escape sequences and C1 controls) could move the cursor, recolour or retitle the user's terminal.

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** One line, no control characters: newlines and tabs become spaces, other controls become '?'. */
export function oneLine(text: string): string {
  return text.replace(CONTROL, (ch) => (ch === '\n' || ch === '\r' || ch === '\t' || ch === '\u2028' || ch === '\u2029' ? ' ' : '?'))
    .replace(/ {2,}/g, ' ')
    .trim();
}

/** For table cells: controls are shown escaped so the cell stays one line and nothing is hidden. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (ch) => {
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    if (ch === '\t') return '\\t';
    return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(0, max - 1))}…` : text;
}

/** User input echoed in a message: shortened and without control characters. */
export function printable(value: string, max = 80): string {
  return truncate(value.replace(CONTROL, '?'), max);
}
