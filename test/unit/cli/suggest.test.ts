// "Did you mean ...?" for a mistyped command (src/cli/suggest.ts): each command once, by its name; at the edges
// of the distance, a swap of neighbours counts as one edit (optimal string alignment), a suggestion is at most
// two edits away and more than 40% alike, one-letter names are never offered, and only the nearest commands
// are named.
import { describe, expect, it } from 'vitest';
import { didYouMean, similarCommands, type Suggestible } from '../../../src/cli/suggest.js';

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

const ALIASES: Record<string, string[]> = { list: ['ls'], delete: ['rm'], status: ['st'] };
const commands = (...names: string[]): Suggestible[] => names.map((name) => ({ name, aliases: ALIASES[name] ?? [] }));

describe('similarCommands at the edges of the distance', () => {
  it.each([
    // A swap of neighbours is one edit, wherever it falls in the word.
    ['olgut', commands('use', 'logout', 'show'), ['logout'], 'two swaps: 2 edits (4 without swaps)'],
    ['sohwl', commands('show'), ['show'], 'a swap and an extra letter at the end: 2 edits'],
    ['aitff', commands('get', 'doctor', 'diff'), ['diff'], 'a wrong letter and a swap: 2 edits, not 1'],
    ['pals', commands('status', 'apply', 'logout'), [], "'apply' is 3 edits away: a swap (pa/ap) and two letters"],
    ['swh', commands('diff', 'show', 'list'), [], "'show' is 3 edits: a swap and an insertion in it would edit one place twice"],
    // Plain insertions, deletions and substitutions.
    ['loginm', commands('login'), ['login'], 'one extra letter'],
    ['nogibn', commands('login', 'export'), ['login'], 'a wrong first letter and an extra one: 2 edits, still offered'],
    ['ihf', commands('diff'), ['diff'], '2 edits over 4 letters: 50% alike, measured against the longer word'],
    ['uew', commands('use', 'export', 'diff'), [], "'use' is 2 edits from 'uew' of 3 letters: 33% alike, too little"],
    // More than two edits is never a typo, however long the word.
    ['omplotionv', commands('completion', 'list'), [], '3 edits over 10 letters is 70% alike, but still 3 edits'],
    ['complexxxn', commands('completion'), [], 'three wrong letters'],
    ['complexion', commands('completion'), ['completion'], 'one wrong letter'],
  ])('%j among %j: %j (%s)', (word, candidates, expected) => {
    expect(similarCommands(word, candidates)).toEqual(expected);
  });

  it('names only the nearest commands, not every one in reach', () => {
    // 'list' is the word itself; status's alias 'st' (2 edits) is in reach but farther.
    expect(similarCommands('list', commands('login', 'list', 'status'))).toEqual(['list']);
    expect(similarCommands('logn', commands('logout', 'login'))).toEqual(['login']);
    expect(similarCommands('logot', commands('login', 'logout'))).toEqual(['logout']);
    expect(similarCommands('logit', commands('login', 'logout'))).toEqual(['login']);
  });

  it('never offers a one-letter name or alias, even one edit away', () => {
    expect(similarCommands('la', [{ name: 'list', aliases: ['l'] }])).toEqual([]);
    expect(similarCommands('l', [{ name: 'list', aliases: ['l'] }])).toEqual([]);
    expect(similarCommands('lx', [{ name: 'l', aliases: ['lx'] }])).toEqual(['l']);
  });

  it('names the commands reached by two-letter aliases', () => {
    // 'sl' is one swap from 'ls' and one letter from 'st': 50% alike, both offered, by their names.
    expect(similarCommands('sl', commands('list', 'status', 'delete'))).toEqual(['list', 'status']);
    expect(didYouMean('sl', commands('list', 'status', 'delete'))).toBe('Did you mean one of list, status?');
  });
});
