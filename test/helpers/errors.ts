// What a piece of work failed with, for tests that go on to check the failure's words.
import { expect } from 'vitest';

/**
 * Awaits `work` (a promise, or a function run first) and returns what it rejected or threw with, after checking
 * it is a `kind`. The test fails when the work settles without failing, or fails with something else.
 */
export async function caught<T extends Error>(
  work: Promise<unknown> | (() => unknown),
  kind: abstract new (...args: never[]) => T,
): Promise<T> {
  let error: unknown;
  try {
    await (typeof work === 'function' ? work() : work);
  } catch (thrown) {
    error = thrown;
  }
  expect(error, `expected a ${kind.name}`).toBeInstanceOf(kind);
  return error as T;
}
