// Records (src/json/record.ts): setOwn's keys behave as ordinary data, __proto__ too.
import { describe, expect, it } from 'vitest';
import { setOwn } from '../../../src/json/record.js';

describe('setOwn', () => {
  it('sets a key that can be changed and deleted afterwards like any other, __proto__ too', () => {
    const target: Record<string, unknown> = {};
    setOwn(target, 'name', 'a');
    setOwn(target, '__proto__', 'b');
    target.name = 'c';
    setOwn(target, '__proto__', 'd');
    expect(JSON.stringify(target)).toBe('{"name":"c","__proto__":"d"}');
    expect(delete target.name).toBe(true);
    expect(Object.keys(target)).toEqual(['__proto__']);
  });
});
