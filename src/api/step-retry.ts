// The retry policy: which failures are worth another attempt, how long to wait, and what a failed write may have
// done. ky runs the attempts and waits (api/http.ts hands it these settings and asks `shouldRetry` after each
// failure); the decisions are here.
//   - Only GET, PUT and DELETE are retried, twice: a retried POST can create an environment twice, and a PATCH
//     is no safer. HEAD and OPTIONS come only from `cip api`, which shows the first answer.
//   - An answer is retried for 408, 429, 500, 502, 503 and 504. For 429, 503 (and 413, which is never retried)
//     ky waits what Retry-After or one of its cousins says (whole seconds or an HTTP date), 30 s at most; after a
//     wait it cannot read ('soon', '0.75') ky 2 takes the usual backoff (0.3 s, 0.6 s, ...).
//   - A failure to connect or a connection cut is retried; a time-out, a broken answer (or one that is not HTTP),
//     a certificate or TLS handshake problem and a proxy's refusal are not: asking again would only fail again,
//     or wait again.
//   - A write whose answer was lost may still have been carried out: the error says so, and a retried DELETE
//     that then finds nothing (404) knows its own earlier attempt may have done the work.
import { BrokenAnswer } from './chain.js';
import { isCertificateError, notHttp, notSent, proxyStatus } from './network-errors.js';
import { TimedOut } from './step-timeout.js';

export const RETRY_LIMIT = 2;
/** Lower case, as ky compares them. */
export const RETRY_METHODS = ['get', 'put', 'delete'];
export const RETRY_STATUS = [408, 429, 500, 502, 503, 504];
/** The statuses whose Retry-After ky follows. */
export const RETRY_AFTER_STATUS = [413, 429, 503];
export const MAX_RETRY_AFTER_MS = 30_000;
export const BACKOFF_LIMIT_MS = 5_000;

/**
 * After an answer that is not a success: false, never again; undefined, again after the wait ky chooses (what
 * Retry-After says, for RETRY_AFTER_STATUS, else the usual backoff).
 */
export function retryAnswer(status: number): false | undefined {
  return RETRY_STATUS.includes(status) ? undefined : false;
}

/** After a failure to get an answer: whether another attempt could fare better. */
export function retryError(error: unknown): boolean {
  // A proxy that refused (407, 403) will refuse again.
  const refusedByProxy = (proxyStatus(error) ?? 500) < 500;
  return !(
    error instanceof TimedOut ||
    error instanceof BrokenAnswer ||
    notHttp(error) !== undefined ||
    isCertificateError(error) ||
    refusedByProxy
  );
}

/** Whether an attempt that failed so may have been carried out, its answer lost: a 5xx, or a cut after sending. */
export function mayHaveBeenCarriedOut(failure: { status: number } | { error: unknown }): boolean {
  if ('status' in failure) return failure.status >= 500;
  return !notSent(failure.error) && !(failure.error instanceof BrokenAnswer);
}

/** The hint for a POST or PATCH that failed after it was sent: it may have happened, and is never retried. */
export function writeMayHaveHappened(method: string, error: unknown): string | undefined {
  return (method === 'POST' || method === 'PATCH') && !notSent(error)
    ? "the request was sent, so it may have been carried out; check with 'cip env list' before trying again"
    : undefined;
}
