// A spinner on stderr while a request runs, only where a person watches a terminal (see Context.spinnerEnabled).
import type { Context } from '../context.js';

export async function withSpinner<T>(ctx: Context, text: string, work: () => Promise<T>): Promise<T> {
  if (!ctx.spinnerEnabled) return work();
  const { default: ora } = await import('ora');
  const spinner = ora({ text, stream: ctx.io.stderr as NodeJS.WritableStream, isEnabled: true, color: ctx.colorLevel(true) ? 'cyan' : false, discardStdin: false }).start();
  try {
    return await work();
  } finally {
    spinner.stop();
  }
}
