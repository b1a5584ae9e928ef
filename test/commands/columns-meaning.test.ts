// One meaning for --columns: a dotted path picks the nested value, in `env list` and `env get`, in a table and
// in JSON, YAML and TSV alike, with numbers exact.
import { describe, expect } from 'vitest';
import { sandboxEnv } from '../helpers/cli.js';
import { it, test, type Fixtures } from '../helpers/fixture.js';

test.override({ sandboxOptions: { records: ['{"id":"e1","name":"alpha","settings":{"retention":90,"quota":12345678901234567890.50}}'] } });

const COLUMNS = ['--columns', 'name,settings.retention,settings.quota'];

async function run({ sandbox, cip }: Pick<Fixtures, 'sandbox' | 'cip'>, args: string[], terminalColumns?: number) {
  const result = await cip(['env', ...args, ...COLUMNS, '--no-color'], { env: sandboxEnv(sandbox), terminalColumns });
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  return result.stdout;
}

describe('--columns settings.retention', () => {
  it('at a terminal: a SETTINGS.RETENTION column in list, a settings.retention line in get', async ({ sandbox, cip }) => {
    expect(await run({ sandbox, cip }, ['list'], 80)).toBe(
      'NAME   SETTINGS.RETENTION  SETTINGS.QUOTA\nalpha  90                  12345678901234567890.50\n',
    );
    expect(await run({ sandbox, cip }, ['get', 'alpha'], 80)).toBe(
      'name                alpha\nsettings.retention  90\nsettings.quota      12345678901234567890.50\n',
    );
  });

  it.for<[string, (list: string) => string]>([
    [
      'json',
      (list: string) =>
        `${list
          .split('\n')
          .slice(1, -2)
          .map((line) => line.slice(2))
          .join('\n')}\n`,
    ],
    ['yaml', (list: string) => list.replace(/^- /, '').replace(/^ {2}/gm, '')],
    ['tsv', (list: string) => list],
  ])('-o %s: get writes what list writes for its one item', async ([format, one], { sandbox, cip }) => {
    const list = await run({ sandbox, cip }, ['list', '-o', format]);
    const get = await run({ sandbox, cip }, ['get', 'alpha', '-o', format]);
    expect(get.replace('12345678901234567890.50', 'Q')).toBe(one(list.replace('12345678901234567890.50', 'Q')));
    expect(get).toContain('12345678901234567890.50');
    expect(get).not.toContain('"retention":90}');
  });
});
