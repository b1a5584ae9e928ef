import { isExactNumber } from './exact.js';

/** A JSON object: not null, not an array, not a number kept exact. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isExactNumber(value);
}

/**
 * Sets a key as the object's own data, whatever its name: a plain assignment to `__proto__` would change the
 * object's prototype and the key would silently vanish from what is sent or shown.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
