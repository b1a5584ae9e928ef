// Help text laid out for the width it is printed at: notes, examples and the lists after them are written in
// the source with line breaks where the author's editor put them, and are reflowed here, as commander reflows
// option descriptions. Help is plain ASCII, so a character is a cell.

/** A list item's marker: `- `, `* `, `1. `. */
const LIST_MARKER = /^(?:[-*]|\d+\.) +/;
/** A two-column line (`CIP_PROFILE   profile to use`): the first column, then a gap of two or more spaces. */
const COLUMNS = /^\S(?:\S| (?! ))*  +(?=\S)/;
/** A line that ends a sentence or introduces what follows: the author's line break there is kept. */
const CLOSED = /[.:]$/;
/** Narrower than this, continuation lines hang two spaces in rather than under the second column. */
const MIN_HANGING = 20;

interface Block {
  /** Spaces before the first line. */
  indent: number;
  /** Spaces before the lines it wraps onto. */
  hang: number;
  text: string;
  /** Whether the next line of the source, at the hang, continues it. */
  open: boolean;
}

/** The blocks of a text: paragraphs of prose, list items and two-column lines, each with its continuation lines. */
function blocksOf(text: string): Block[] {
  const blocks: Block[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    const last = blocks[blocks.length - 1];
    if (line === '') {
      blocks.push({ indent: 0, hang: 0, text: '', open: false });
      continue;
    }
    const indent = line.length - line.trimStart().length;
    const body = line.slice(indent);
    const starts = LIST_MARKER.test(body) || (indent > 0 && COLUMNS.test(body));
    if (last?.open && indent === last.hang && !starts) {
      last.text += ` ${body}`;
      last.open = !CLOSED.test(body);
      continue;
    }
    const marker = LIST_MARKER.exec(body) ?? (indent > 0 ? COLUMNS.exec(body) : null);
    const hang = marker ? indent + marker[0].length : indent;
    // Prose continues on the next line unless this one ends a sentence; an indented line without columns (a
    // command, a heading's item) stands alone.
    const open = marker !== null || (indent === 0 && !CLOSED.test(body));
    blocks.push({ indent, hang, text: body, open });
  }
  return blocks;
}

/** One block's lines: words moved to the next line where the width ends; a word wider than a line stays whole. */
function wrapBlock({ indent, hang: wanted, text }: Block, width: number): string[] {
  if (text === '') return [''];
  const hang = wanted > indent + 2 && width - wanted < MIN_HANGING ? indent + 2 : wanted;
  const lines: string[] = [];
  let line = ' '.repeat(indent);
  let empty = true;
  for (const chunk of text.match(/ *\S+/g) ?? []) {
    const word = chunk.trimStart();
    if (empty) {
      line += word;
      empty = false;
    } else if (line.length + chunk.length <= width) {
      line += chunk;
    } else {
      lines.push(line);
      line = ' '.repeat(hang) + word;
    }
  }
  lines.push(line);
  return lines;
}

/**
 * Help text reflowed to width: paragraphs joined and wrapped (a line break after `.` or `:` is kept), list items
 * and two-column lines wrapped under their own text. Blank lines and indentation stay as written.
 */
export function wrapHelp(text: string, width: number): string {
  return blocksOf(text)
    .flatMap((block) => wrapBlock(block, width))
    .join('\n');
}

/** An example's words, split at spaces outside quotes: a break inside quotes would change the command. */
function shellWords(command: string): string[] {
  return command.match(/(?:[^\s'"]+|'[^']*'|"(?:[^"\\]|\\.)*")+/g) ?? [];
}

/**
 * An example command within width, indented two spaces: a line too long is continued with ` \` on lines
 * indented six spaces, as a shell reads it, so that it can still be copied and run as it stands.
 */
export function wrapExample(example: string, width: number): string {
  const words = shellWords(example.replace(/\s*\\\n\s*/g, ' '));
  const lines: string[] = [];
  let line = '  ';
  for (const word of words) {
    if (line.trim() === '') line += word;
    else if (line.length + 1 + word.length + 2 <= width) line += ` ${word}`;
    else {
      lines.push(`${line} \\`);
      line = `      ${word}`;
    }
  }
  lines.push(line);
  return lines.join('\n');
}
