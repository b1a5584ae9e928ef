// Questions at a terminal, on stderr. Only called when IOStreams.canPrompt is true.
import type { Readable } from 'node:stream';
import type { Streams } from './io-streams.js';
import { InterruptedError } from '../errors.js';

/** stdin; a terminal's can be switched to raw mode (no echo, no line editing). */
type RawInput = Readable & { setRawMode?: (mode: boolean) => void };

/** Where a question is asked; IOStreams is one, and its redact() masks the run's keys in what it asks. */
type Asking = Pick<Streams, 'stdin' | 'stderr'> & { redact?: (text: string) => string };

/** A question names things from the server (an environment's name may hold a key): masked as all cip prints. */
function shown(io: Asking, question: string): string {
  return io.redact ? io.redact(question) : question;
}

/** The line typed, trimmed; `exact` keeps it as typed (a name to compare, which may begin or end with a space). */
export async function ask(io: Asking, question: string, { exact = false } = {}): Promise<string> {
  // readline and its helpers load only when there is something to ask.
  const { createInterface } = await import('node:readline');
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
    let answered = false;
    rl.on('SIGINT', () => rl.close());
    rl.on('close', () => {
      if (!answered) {
        io.stderr.write('\n');
        reject(new InterruptedError());
      }
    });
    rl.question(shown(io, question), (answer) => {
      answered = true;
      rl.close();
      resolve(exact ? answer : answer.trim());
    });
  });
}

export async function confirm(io: Asking, question: string): Promise<boolean> {
  const answer = await ask(io, `${question} [y/N] `);
  return /^y(es)?$/i.test(answer);
}

/** Reads a line without echoing it: for keys. */
export function askHidden(io: Asking, question: string): Promise<string> {
  const input: RawInput = io.stdin;
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: Error) => {
      input.off('data', onData);
      input.setRawMode?.(false);
      input.pause();
      io.stderr.write('\n');
      if (error) reject(error);
      else resolve(value.trim());
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') {
          finish();
          return;
        }
        if (char === '\u0003') {
          finish(new InterruptedError());
          return;
        }
        if (char === '\u0004' && value === '') {
          finish(new InterruptedError());
          return;
        }
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else if (char >= ' ') value += char;
      }
    };
    // Echo goes off before the question appears: whatever is typed once it is on screen stays hidden.
    input.setRawMode?.(true);
    input.on('data', onData);
    input.resume();
    io.stderr.write(shown(io, question));
  });
}
