// The typed errors (src/errors.ts): what each failed status means (exit code, words, advice), and a failure
// restated in other words or with other advice keeping its class, exit code and status.
import { describe, expect, it } from 'vitest';
import { ApiError, InterruptedError, restated, statusSummary, UsageError, withHint } from '../../src/errors.js';

describe('failed statuses', () => {
  it.each([
    [400, 6, 'the API rejected the request', undefined],
    [401, 3, 'the API rejected the credentials', undefined],
    [403, 4, 'forbidden', 'the credentials lack permission for this operation or enterprise'],
    [404, 5, 'not found', undefined],
    [422, 6, 'the API rejected the request', undefined],
    [429, 6, 'the API rejected the request', 'too many requests; try again later'],
    [499, 6, 'the API rejected the request', undefined],
    [500, 7, 'the API failed', undefined],
    [503, 7, 'the API failed', undefined],
    [399, 7, 'the API failed', undefined],
  ])('HTTP %i: exit %i, "%s", advice %j', (status, code, summary, hint) => {
    expect(statusSummary(status)).toBe(summary);
    const error = new ApiError(status, 'cannot do it');
    expect(error.exitCode).toBe(code);
    expect(error.hint).toBe(hint);
    expect(error.status).toBe(status);
    expect(error.afterUncertainAttempt).toBe(false);
  });

  it("keeps the caller's advice over the status's own", () => {
    expect(new ApiError(403, 'cannot do it', 'ask the admin').hint).toBe('ask the admin');
    expect(new ApiError(500, 'cannot do it', 'retry', true).afterUncertainAttempt).toBe(true);
  });

  it('an interrupt says so unless told otherwise, and exits 130', () => {
    expect(new InterruptedError().message).toBe('interrupted');
    expect(new InterruptedError().exitCode).toBe(130);
    expect(new InterruptedError('stopped while reading').message).toBe('stopped while reading');
  });
});

describe('restated and withHint', () => {
  const original = new ApiError(404, 'cannot delete: not found (HTTP 404)', 'check the id', true);

  it('restates a failure in other words, keeping its class, exit code, status and advice', () => {
    const copy = restated(original, 'nothing was deleted');
    expect(copy).toBeInstanceOf(ApiError);
    expect(copy).not.toBe(original);
    expect(copy.message).toBe('nothing was deleted');
    expect(copy.hint).toBe('check the id');
    expect(copy.exitCode).toBe(5);
    expect((copy as ApiError).status).toBe(404);
    expect((copy as ApiError).afterUncertainAttempt).toBe(true);
    expect(original.message).toBe('cannot delete: not found (HTTP 404)');
  });

  it('restates a failure with other advice, or keeps its advice when given none', () => {
    const other = restated(new UsageError('bad', 'old advice'), 'worse', 'try again');
    expect(other).toBeInstanceOf(UsageError);
    expect([other.message, other.hint, other.exitCode]).toEqual(['worse', 'try again', 2]);
    const same = restated(new UsageError('bad', 'old advice'), 'worse');
    expect([same.message, same.hint, same.exitCode]).toEqual(['worse', 'old advice', 2]);
  });

  it('gives a failure other advice in the same words', () => {
    const copy = withHint(original, 'is the base URL right?');
    expect(copy).toBeInstanceOf(ApiError);
    expect([copy.message, copy.hint, copy.exitCode]).toEqual(['cannot delete: not found (HTTP 404)', 'is the base URL right?', 5]);
    expect(original.hint).toBe('check the id');
  });
});
