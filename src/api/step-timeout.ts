// The time-out and abort step: each attempt gets --timeout seconds for its whole answer (headers and body). The
// step below gets one signal that aborts at the time-out, with a TimedOut reason, or when the run is interrupted
// (the request's signal carries the run's, with its reason), so the transport closes its connection and the log
// names why. The attempt ends at the time-out even if the step below were slow to heed the signal.
import type { Layer } from './chain.js';

/** An attempt that had no whole answer in time; never retried (the retry policy), said as such (api/failure.ts). */
export class TimedOut extends Error {}

export function timed(seconds: number): Layer {
  // --timeout is at most 2,000,000 s (cli/globals.ts): within what setTimeout can wait.
  const ms = seconds * 1000;
  return (next) => (request) => {
    const clock = new AbortController();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const reason = new TimedOut(`no answer within ${seconds}s`);
        clock.abort(reason);
        reject(reason);
      }, ms);
      next({ ...request, signal: AbortSignal.any([request.signal, clock.signal]) }).then(
        (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  };
}
