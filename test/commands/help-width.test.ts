// Help fits the width it is printed at (80 when not a terminal): descriptions, notes, examples and the lists of
// `cip --help` alike. The global options are listed once, in `cip --help` and `cip help globals`; each command's
// help ends with one line that points there.
import { describe, expect } from 'vitest';
import { COMMAND_TREE } from '../../src/program.js';
import { it } from '../helpers/fixture.js';

const PATHS: string[][] = [
  [],
  ...COMMAND_TREE.flatMap((entry) =>
    'commands' in entry
      ? [[entry.name], ...entry.commands.map((command) => [entry.name, command.name])]
      : entry.hidden
        ? []
        : [[entry.name]],
  ),
];
const POINTER = "Global options (--profile, --output, --json, --jq, ...): see 'cip help globals'.";

const widest = (text: string) => Math.max(...text.split('\n').map((line) => line.length));

describe('help is wrapped to the width', () => {
  it.for([undefined, 60, 100, 120])('every help at %s columns (80 when not a terminal)', async (columns, { cip }) => {
    const width = columns ?? 80;
    for (const path of [...PATHS.map((path) => [...path, '--help']), ['help', 'globals'], ['help', 'environment']]) {
      const result = await cip(path, columns === undefined ? {} : { terminalColumns: columns });
      expect(result.exitCode, path.join(' ')).toBe(0);
      const long = result.stdout.split('\n').filter((line) => line.length > width);
      expect(long, `cip ${path.join(' ')}`).toEqual([]);
    }
  });

  it('uses a wide terminal: the notes of env apply run past 80 columns at 120', async ({ cip }) => {
    const result = await cip(['env', 'apply', '--help'], { terminalColumns: 120 });
    expect(widest(result.stdout)).toBeGreaterThan(100);
    expect(widest(result.stdout)).toBeLessThanOrEqual(120);
  });

  it('a long example is continued with a backslash, never cut inside quotes', async ({ cip }) => {
    const result = await cip(['env', 'delete', '--help']);
    expect(result.stdout).toContain(
      `  cip env list --json | jq -r \\\n      '.[] | select(.name | startswith("review-")) | .id' | cip env delete \\\n      --stdin --yes\n`,
    );
  });
});

describe('the global options are listed once', () => {
  it('cip env --help lists its commands, not the 12 global options, and ends by pointing to them', async ({ cip }) => {
    const result = await cip(['env', '--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toMatch(/Global Options|--base-url|--no-headers/);
    expect(result.stdout.endsWith(`\n\n${POINTER}\n`)).toBe(true);
    expect(result.stdout.split('\n').length).toBeLessThan(35);
  });

  it.for(PATHS.filter((path) => path.length).map((path) => [path.join(' '), path] as const))(
    'cip %s --help ends with the pointer, once',
    async ([_name, path], { cip }) => {
      const result = await cip([...path, '--help']);
      expect(result.stdout.endsWith(`\n${POINTER}\n`)).toBe(true);
      expect(result.stdout.split(POINTER)).toHaveLength(2);
      expect(result.stdout).not.toContain('--enterprise-id <guid>');
    },
  );

  it("cip help globals lists every global option, as cip --help does under 'Global options:'", async ({ cip }) => {
    const [globals, root] = await Promise.all([cip(['help', 'globals']), cip(['--help'])]);
    expect(globals.exitCode).toBe(0);
    expect(globals.stderr).toBe('');
    const list = globals.stdout.split('\n').slice(1).join('\n');
    expect(root.stdout).toContain(`\nGlobal options:\n${list}`);
    for (const flag of [
      '--profile',
      '--output',
      '--json',
      '--base-url',
      '--enterprise-id',
      '--timeout',
      '--verbose',
      '--quiet',
      '--no-color',
      '--jq',
      '--no-headers',
    ]) {
      expect(list).toContain(flag);
    }
  });

  it('cip help environment is the variables and the credentials rule', async ({ cip }) => {
    const result = await cip(['help', 'environment']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Environment variables:\n {2}CIP_PROFILE /);
    expect(result.stdout).toContain('Which credentials a command uses');
  });
});
