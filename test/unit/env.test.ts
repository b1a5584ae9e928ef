// Environment switches (src/env.ts): which values turn a CIP_* switch on, and which count as empty.
import { describe, expect, it } from 'vitest';
import { isTruthyEnv, nonEmpty } from '../../src/env.js';

describe('environment switches', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['0', false],
    ['false', false],
    ['FALSE', false],
    ['False', false],
    ['1', true],
    ['true', true],
    ['yes', true],
    ['no', true],
  ])('isTruthyEnv(%j) is %s', (value, expected) => {
    expect(isTruthyEnv(value)).toBe(expected);
  });

  it('nonEmpty: blank is unset, anything else is kept as it is', () => {
    expect(nonEmpty(undefined)).toBeUndefined();
    expect(nonEmpty('')).toBeUndefined();
    expect(nonEmpty(' \t\n')).toBeUndefined();
    expect(nonEmpty(' x ')).toBe(' x ');
  });
});
