// Questions at a terminal (src/terminal/prompt.ts): what is asked on stderr, what each answer means, and how
// Ctrl-C, Ctrl-D and a closed stdin end a question. Each answer is typed once the question is on screen.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../../src/errors.js';
import { ask, askHidden, confirm } from '../../../src/terminal/prompt.js';

/** A terminal's two ends: stdin (with raw mode, whose switches are recorded) and what stderr showed. */
function terminal() {
  const rawModes: boolean[] = [];
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode(mode: boolean) {
      rawModes.push(mode);
    },
  });
  const stderr = new PassThrough();
  let screen = '';
  const shown: (() => void)[] = [];
  stderr.on('data', (chunk: Buffer) => {
    screen += chunk.toString('utf8');
    for (const notify of shown.splice(0)) notify();
  });
  /** Resolves once stderr shows `text`. */
  const onScreen = async (text: string) => {
    while (!screen.includes(text)) await new Promise<void>((resolve) => shown.push(resolve));
  };
  return { io: { stdin, stderr }, rawModes, screen: () => screen, onScreen };
}

describe('ask', () => {
  it('shows the question on stderr and returns the answer trimmed', async () => {
    const t = terminal();
    const answer = ask(t.io, 'Profile name: ');
    await t.onScreen('Profile name: ');
    t.io.stdin.write('  staging  \n');
    await expect(answer).resolves.toBe('staging');
  });

  it('is interrupted when stdin closes before an answer, ending the line', async () => {
    const t = terminal();
    const answer = ask(t.io, 'Name: ');
    await t.onScreen('Name: ');
    t.io.stdin.end();
    await expect(answer).rejects.toBeInstanceOf(InterruptedError);
    expect(t.screen().endsWith('\n')).toBe(true);
  });

  it('is interrupted by Ctrl-C', async () => {
    const t = terminal();
    const answer = ask(t.io, 'Name: ');
    await t.onScreen('Name: ');
    t.io.stdin.write('\u0003');
    await expect(answer).rejects.toBeInstanceOf(InterruptedError);
  });
});

describe('confirm', () => {
  it.each([
    ['y', true],
    ['Y', true],
    ['yes', true],
    ['YES', true],
    [' yes ', true],
    ['', false],
    ['n', false],
    ['no', false],
    ['ye', false],
    ['yess', false],
    ['yes please', false],
    ['oh yes', false],
  ])('%j means %s', async (typed, expected) => {
    const t = terminal();
    const answer = confirm(t.io, 'Delete e1?');
    await t.onScreen('Delete e1? [y/N] ');
    t.io.stdin.write(`${typed}\n`);
    await expect(answer).resolves.toBe(expected);
  });
});

describe('askHidden', () => {
  it('turns echo off before asking, reads up to Enter, and turns it back on', async () => {
    const t = terminal();
    const answer = askHidden(t.io, 'API key: ');
    await t.onScreen('API key: ');
    expect(t.rawModes).toEqual([true]);
    t.io.stdin.write(' secret-key-1234567 \r');
    await expect(answer).resolves.toBe('secret-key-1234567');
    expect(t.rawModes).toEqual([true, false]);
    expect(t.screen()).toBe('API key: \n');
    expect(t.io.stdin.isPaused()).toBe(true);
    expect(t.io.stdin.listenerCount('data')).toBe(0);
  });

  it('ends at a newline too, and ignores what follows it', async () => {
    const t = terminal();
    const answer = askHidden(t.io, 'Key: ');
    await t.onScreen('Key: ');
    t.io.stdin.write('abc\ndef\n');
    await expect(answer).resolves.toBe('abc');
  });

  it('takes the key in pieces, and erases with Backspace or Delete', async () => {
    const t = terminal();
    const answer = askHidden(t.io, 'Key: ');
    await t.onScreen('Key: ');
    t.io.stdin.write('abcX\u007f');
    t.io.stdin.write('dY\b');
    t.io.stdin.write('\u007f\u007f\u007f\u007f\u007fxyz\n');
    await expect(answer).resolves.toBe('xyz');
  });

  it('erases with Backspace alone, and keeps a space typed inside the answer', async () => {
    const t = terminal();
    const answer = askHidden(t.io, 'Key: ');
    await t.onScreen('Key: ');
    t.io.stdin.write('ab\bc d\n');
    await expect(answer).resolves.toBe('ac d');
  });

  it('drops other control characters, such as an escape sequence', async () => {
    const t = terminal();
    const answer = askHidden(t.io, 'Key: ');
    await t.onScreen('Key: ');
    t.io.stdin.write('a\u001b[Ab\tc\u0004\n');
    await expect(answer).resolves.toBe('a[Abc');
  });

  it('is interrupted by Ctrl-C, whatever was typed, and restores the terminal', async () => {
    const t = terminal();
    const answer = askHidden(t.io, 'Key: ');
    await t.onScreen('Key: ');
    t.io.stdin.write('half\u0003rest\n');
    await expect(answer).rejects.toBeInstanceOf(InterruptedError);
    expect(t.rawModes).toEqual([true, false]);
    expect(t.screen()).toBe('Key: \n');
  });

  it('is interrupted by Ctrl-D on an empty line only', async () => {
    const t = terminal();
    const answer = askHidden(t.io, 'Key: ');
    await t.onScreen('Key: ');
    t.io.stdin.write('\u0004');
    await expect(answer).rejects.toBeInstanceOf(InterruptedError);
  });

  it('works on a stdin without raw mode', async () => {
    const stdin = new PassThrough();
    const stderr = new PassThrough();
    const answer = askHidden({ stdin, stderr }, 'Key: ');
    stdin.write('plain\n');
    await expect(answer).resolves.toBe('plain');
  });
});
