// What people see at a terminal: tables that fit the width, the id column kept whole, a note for what was
// hidden, bold headers only where colour is wanted, records as field/value lines. Run in-process with
// stdout and stderr flagged as a terminal.
import { describe, expect } from 'vitest';
import { sandboxEnv } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';

const ID = '7d1c0b2e-4f3a-4b5c-8d6e-9f0a1b2c3d4e';
const WIDE = { id: ID, name: 'wide', description: 'd'.repeat(50), owner: 'o'.repeat(50), region: 'r'.repeat(50) };

test.override({ sandboxOptions: { seed: [WIDE] } });
// A terminal that can show colour, where colour is asked for.
test.override('env', ({ sandbox }) => ({ ...sandboxEnv(sandbox), TERM: 'xterm-256color' }));

const ESC = '\u001b';
const lines = (text: string) => text.split('\n').filter((line) => line !== '');

describe('a table at a terminal', () => {
  it('fits the width, keeps the id whole, and says which columns it hid', async ({ env, cip }) => {
    const result = await cip(['env', 'list', '--no-color'], { env, terminalColumns: 80 });
    expect(result.exitCode).toBe(0);
    for (const line of lines(result.stdout)) expect(line.length).toBeLessThanOrEqual(80);
    expect(result.stdout).toContain(ID);
    const note = /^\((\d+) columns? hidden to fit the terminal: ([^;]+); widen it, or use --columns or -o json\)$/m.exec(result.stderr);
    expect(note, result.stderr).not.toBeNull();
    const hidden = note![2]!.split(', ');
    expect(Number(note![1])).toBe(hidden.length);
    for (const column of hidden) expect(result.stdout).not.toContain(column.toUpperCase());
  });

  it('says "1 column" when one is hidden', async ({ env, cip }) => {
    const result = await cip(['env', 'list', '--no-color', '--columns', 'id,name,description,owner'], { env, terminalColumns: 60 });
    expect(result.stderr).toContain('(1 column hidden to fit the terminal: owner; widen it, or use --columns or -o json)');
  });

  it('keeps the id column whole wherever --columns puts it', async ({ env, cip }) => {
    const result = await cip(['env', 'list', '--no-color', '--columns', 'description,owner,ID'], { env, terminalColumns: 60 });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(ID);
    for (const line of lines(result.stdout)) expect(line.length).toBeLessThanOrEqual(60);
  });

  it('with room for everything hides nothing and says nothing', async ({ env, cip }) => {
    const result = await cip(['env', 'list', '--no-color', '--columns', 'id,name'], { env, terminalColumns: 200 });
    expect(result.stderr).toBe('');
    expect(lines(result.stdout)).toHaveLength(2);
  });

  it('in a pipe is never cut, whatever the width of the terminal elsewhere', async ({ env, cip }) => {
    const result = await cip(['env', 'list', '-o', 'table'], { env });
    expect(result.stdout).toContain(WIDE.description);
    expect(result.stdout).toContain(WIDE.region);
    expect(result.stderr).toBe('');
  });

  it('has bold headers at a colour terminal, and none with NO_COLOR, --no-color, CI or TERM=dumb', async ({ env, cip }) => {
    const coloured = await cip(['env', 'list', '--columns', 'id,name'], { env, terminalColumns: 120 });
    expect(coloured.stdout.startsWith(`${ESC}[1mID`)).toBe(true);
    for (const [extraEnv, args] of [
      [{ NO_COLOR: '1' }, []],
      [{}, ['--no-color']],
      [{ CI: 'true' }, []],
      [{ TERM: 'dumb' }, []],
    ] as const) {
      const plain = await cip(['env', 'list', '--columns', 'id,name', ...args], { env: { ...env, ...extraEnv }, terminalColumns: 120 });
      expect(plain.stdout).not.toContain(ESC);
      expect(plain.stdout.startsWith('ID')).toBe(true);
    }
  });
});

describe('a record at a terminal', () => {
  it('is field/value lines within the width, long values wrapped, no JSON', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'create', '--no-color', '--data', JSON.stringify({ name: 'rec', description: 'w'.repeat(120) })], {
      env,
      terminalColumns: 60,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toContain('{');
    for (const line of lines(result.stdout)) expect(line.length).toBeLessThanOrEqual(60);
    expect(result.stdout.replace(/\s+/g, '')).toContain('w'.repeat(120));
    expect(result.stdout).toMatch(/^name\s+rec$/m);
    sandbox.environments.forEach((record, id) => {
      if (record.name === 'rec') sandbox.environments.delete(id);
    });
  });

  it('with --json is JSON, with control characters escaped for the terminal', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'create', '--json', '--data', JSON.stringify({ name: 'esc\u009b2J' })], { env, terminalColumns: 60 });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('"name": "esc\\u009b2J"');
    sandbox.environments.forEach((record, id) => {
      if (record.name === 'esc\u009b2J') sandbox.environments.delete(id);
    });
  });

  it('shows nested values as compact JSON and numbers with their digits', async ({ sandbox, env, cip }) => {
    sandbox.inject({
      fault: {
        kind: 'status',
        status: 201,
        body: '{"id":"n1","settings":{"retention":7,"tags":["a","b"]},"big":12345678901234567890,"none":null}',
      },
      method: 'POST',
    });
    const result = await cip(['env', 'create', '--no-color', '-f', 'name=x'], { env, terminalColumns: 80 });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('id        n1\nsettings  {"retention":7,"tags":["a","b"]}\nbig       12345678901234567890\nnone\n');
  });

  it('an answer of {} prints nothing', async ({ sandbox, env, cip }) => {
    sandbox.inject({ fault: { kind: 'status', status: 201, body: '{}' }, method: 'POST' });
    const result = await cip(['env', 'create', '--no-color', '-f', 'name=x'], { env, terminalColumns: 80 });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
  });

  it('a value never gets less than 10 columns, however long the field names', async ({ sandbox, env, cip }) => {
    const key = 'k'.repeat(50);
    sandbox.inject({ fault: { kind: 'status', status: 201, body: JSON.stringify({ [key]: 'v'.repeat(25) }) }, method: 'POST' });
    const result = await cip(['env', 'create', '--no-color', '-f', 'name=x'], { env, terminalColumns: 40 });
    expect(result.stdout).toBe(`${key}  vvvvvvvvvv\n${' '.repeat(52)}vvvvvvvvvv\n${' '.repeat(52)}vvvvv\n`);
  });
});

describe('text beyond ASCII', () => {
  it('is aligned by display width: wide characters take two cells (the Unicode tables load on demand)', async ({ cip, startSandbox }) => {
    const wide = await startSandbox({
      seed: [
        { id: 'a1', name: '日本語', type: 'x' },
        { id: 'b2', name: 'ab', type: 'y' },
      ],
    });
    try {
      const result = await cip(['env', 'list', '-o', 'table', '--columns', 'id,name,type'], { env: sandboxEnv(wide) });
      expect(result.exitCode).toBe(0);
      expect(lines(result.stdout)).toEqual(['ID  NAME    TYPE', 'a1  日本語  x', 'b2  ab      y']);
    } finally {
      await wide.close();
    }
  });
});
