// `env list` at a terminal, on the data `cip sandbox` serves, at the widths people use: the id and the name are
// always there (as kubectl and gh keep NAME), long cells are cut with … before a column is hidden, and the
// columns hidden are the least important ones (the rightmost).
import { describe, expect } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandboxEnv } from '../helpers/cli.js';
import { it, test, type Fixtures } from '../helpers/fixture.js';

// What `cip sandbox` serves: its default three environments.
test.override({ sandboxOptions: { seed: 3 } });

/** The ids and names of the sandbox's environments, in its order. */
function seeded(sandbox: Sandbox): { ids: string[]; names: string[] } {
  const records = [...sandbox.environments.values()] as { id: string; name: string }[];
  return { ids: records.map((record) => record.id), names: records.map((record) => record.name) };
}

const lines = (text: string) => text.split('\n').filter((line) => line !== '');

async function listAt({ sandbox, cip }: Pick<Fixtures, 'sandbox' | 'cip'>, columns: number) {
  const result = await cip(['env', 'list', '--no-color'], { env: sandboxEnv(sandbox), terminalColumns: columns });
  expect(result.exitCode).toBe(0);
  const [header, ...rows] = lines(result.stdout);
  for (const line of [header!, ...rows]) expect(line.length, line).toBeLessThanOrEqual(columns);
  expect(rows).toHaveLength(3);
  return { header: header!.split(/ {2,}/), rows, stderr: result.stderr, ...seeded(sandbox) };
}

describe('env list at a terminal keeps ID and NAME', () => {
  it('at 40 columns: ID (cut, with …) and NAME whole; the note says so', async ({ sandbox, cip }) => {
    const { header, rows, stderr, ids, names } = await listAt({ sandbox, cip }, 40);
    expect(header).toEqual(['ID', 'NAME']);
    rows.forEach((row, index) => {
      const [id, name] = row.split(/ {2,}/);
      expect(name).toBe(names[index]);
      expect(id).toMatch(/…$/);
      expect(ids[index]!.startsWith(id!.slice(0, -1))).toBe(true);
      expect(id!.length).toBeGreaterThanOrEqual(9);
    });
    expect(stderr).toBe(
      '(id cut and 9 columns hidden to fit the terminal: displayName, description, type, isActive, region, createdAt, updatedAt, tags, settings; widen it, or use --columns or -o json)\n',
    );
  });

  it('at 80 columns: the id whole, NAME, and long cells cut before columns are hidden', async ({ sandbox, cip }) => {
    const { header, rows, stderr, ids, names } = await listAt({ sandbox, cip }, 80);
    expect(header.slice(0, 4)).toEqual(['ID', 'NAME', 'DISPLAY NAME', 'DESCRIPTION']);
    rows.forEach((row, index) => expect(row.startsWith(`${ids[index]}  ${names[index]}  `)).toBe(true));
    expect(rows.join('\n')).toContain('…');
    expect(stderr).toBe(
      '(7 columns hidden to fit the terminal: type, isActive, region, createdAt, updatedAt, tags, settings; widen it, or use --columns or -o json)\n',
    );
  });

  it('at 120 columns: seven columns shown, the four least important hidden', async ({ sandbox, cip }) => {
    const { header, rows, stderr, ids, names } = await listAt({ sandbox, cip }, 120);
    expect(header).toEqual(['ID', 'NAME', 'DISPLAY NAME', 'DESCRIPTION', 'TYPE', 'IS ACTIVE', 'REGION']);
    rows.forEach((row, index) => expect(row.startsWith(`${ids[index]}  ${names[index]}  `)).toBe(true));
    expect(stderr).toBe(
      '(4 columns hidden to fit the terminal: createdAt, updatedAt, tags, settings; widen it, or use --columns or -o json)\n',
    );
  });

  it('with --columns, the name is kept beside the id wherever they are', async ({ sandbox, cip }) => {
    const { ids, names } = seeded(sandbox);
    const result = await cip(['env', 'list', '--no-color', '--columns', 'description,name,id'], {
      env: sandboxEnv(sandbox),
      terminalColumns: 40,
    });
    const [header, ...rows] = lines(result.stdout);
    expect(header!.split(/ {2,}/)).toEqual(['NAME', 'ID']);
    rows.forEach((row, index) => expect(row.startsWith(`${names[index]}  ${ids[index]!.slice(0, 20)}`)).toBe(true));
    for (const line of lines(result.stdout)) expect(line.length).toBeLessThanOrEqual(40);
    expect(result.stderr).toBe('(id cut and 1 column hidden to fit the terminal: description; widen it, or use --columns or -o json)\n');
  });
});
