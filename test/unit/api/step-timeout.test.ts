// The time-out and abort step (src/api/step-timeout.ts): an attempt ends at the time-out with TimedOut, whether or
// not the step below heeds its signal, and at once when the run's signal aborts; a timely answer leaves no timer.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Outgoing, RawAnswer, Step } from '../../../src/api/chain.js';
import { TimedOut, timed } from '../../../src/api/step-timeout.js';

const ANSWER: RawAnswer = { status: 200, statusText: 'OK', httpVersion: '1.1', headers: new Headers(), body: null };

function outgoing(signal = new AbortController().signal): Outgoing {
  return { method: 'GET', url: 'http://api.test/ms', headers: new Headers(), body: undefined, signal };
}

/** A step that never answers, and rejects with its signal's reason when that aborts (as the transports do). */
const heeding: Step = (request) =>
  new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason as Error)));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('timed', () => {
  it('passes a timely answer through and leaves no timer behind', async () => {
    const answer = await timed(30)(() => Promise.resolve(ANSWER))(outgoing());
    expect(answer).toBe(ANSWER);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('passes a failure through as it is', async () => {
    const failure = Object.assign(new Error('reset'), { code: 'ECONNRESET' });
    await expect(timed(30)(() => Promise.reject(failure))(outgoing())).rejects.toBe(failure);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('aborts the step below at the time-out, with a TimedOut reason that says how long it waited', async () => {
    let below: AbortSignal | undefined;
    const result = timed(2)((request) => {
      below = request.signal;
      return heeding(request);
    })(outgoing());
    const failed = expect(result).rejects.toThrow(new TimedOut('no answer within 2s'));
    await vi.advanceTimersByTimeAsync(1999);
    expect(below!.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await failed;
    expect(below!.reason).toBeInstanceOf(TimedOut);
  });

  it('ends at the time-out even when the step below ignores its signal', async () => {
    const result = timed(0.5)(() => new Promise<RawAnswer>(() => undefined))(outgoing());
    const failed = expect(result).rejects.toBeInstanceOf(TimedOut);
    await vi.advanceTimersByTimeAsync(500);
    await failed;
  });

  it("ends at once with the run's reason when the run is interrupted, and clears its timer", async () => {
    const run = new AbortController();
    const result = timed(30)(heeding)(outgoing(run.signal));
    const reason = new Error('interrupted by the user');
    run.abort(reason);
    await expect(result).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });
});
