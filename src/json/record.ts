import { isExactNumber } from './exact.js';

/** A JSON object: not null, not an array, not a number kept exact. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isExactNumber(value);
}
