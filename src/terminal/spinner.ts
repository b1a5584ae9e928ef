// A spinner on stderr while a request runs, only where a person watches a terminal (IOStreams.spinnerEnabled).
import type { IOStreams } from './io-streams.js';

/** Runs work with a spinner showing text; work may change the text as it goes (`Deleting 57/200`). */
export async function withSpinner<T>(io: IOStreams, text: string, work: (setText: (text: string) => void) => Promise<T>): Promise<T> {
  if (!io.spinnerEnabled) return work(() => undefined);
  const { default: ora } = await import('ora');
  const spinner = ora({
    text,
    stream: io.stderr,
    isEnabled: true,
    color: io.colorLevel(true) ? 'cyan' : false,
    discardStdin: false,
  }).start();
  try {
    return await work((next) => {
      spinner.text = next;
      // At once, not at the next frame: a count that moves fast still shows each step.
      spinner.render();
    });
  } finally {
    spinner.stop();
  }
}
