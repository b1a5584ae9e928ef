// A spinner on stderr while a request runs, only where a person watches a terminal (IOStreams.spinnerEnabled).
import type { IOStreams } from './io-streams.js';

export async function withSpinner<T>(io: IOStreams, text: string, work: () => Promise<T>): Promise<T> {
  if (!io.spinnerEnabled) return work();
  const { default: ora } = await import('ora');
  const spinner = ora({
    text,
    stream: io.stderr,
    isEnabled: true,
    color: io.colorLevel(true) ? 'cyan' : false,
    discardStdin: false,
  }).start();
  try {
    return await work();
  } finally {
    spinner.stop();
  }
}
