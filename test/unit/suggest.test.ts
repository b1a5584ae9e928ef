// "Did you mean ...?" for a mistyped command: each command once, by its name.
import { describe, expect, it } from 'vitest';
import { didYouMean, similarCommands } from '../../src/cli/suggest.js';

const ENV = [
  { name: 'list', aliases: ['ls'] },
  { name: 'create', aliases: [] },
  { name: 'update', aliases: [] },
  { name: 'delete', aliases: ['rm'] },
  { name: 'help', aliases: [] },
];

describe('similarCommands', () => {
  it.each([
    ['lst', ['list']],
    ['ls', ['list']],
    ['lis', ['list']],
    ['rn', ['delete']],
    ['creat', ['create']],
    ['craete', ['create']],
    ['udpate', ['update']],
    ['hepl', ['help']],
    ['xyz', []],
    ['', []],
  ])('%j: %j', (word, names) => {
    expect(similarCommands(word, ENV)).toEqual(names);
  });

  it('names every command at the nearest distance, in the order given', () => {
    const commands = [
      { name: 'stop', aliases: [] },
      { name: 'step', aliases: [] },
      { name: 'stepper', aliases: [] },
    ];
    expect(similarCommands('stap', commands)).toEqual(['stop', 'step']);
  });

  it('never offers a one-letter alias for a one-letter typo', () => {
    expect(similarCommands('x', [{ name: 'list', aliases: ['l'] }])).toEqual([]);
  });
});

describe('didYouMean', () => {
  it('says one name, several, or nothing', () => {
    expect(didYouMean('lst', ENV)).toBe('Did you mean list?');
    expect(
      didYouMean('stap', [
        { name: 'stop', aliases: [] },
        { name: 'step', aliases: ['st'] },
      ]),
    ).toBe('Did you mean one of stop, step?');
    expect(didYouMean('zzzz', ENV)).toBeUndefined();
  });
});
