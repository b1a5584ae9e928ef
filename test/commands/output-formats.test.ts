// Which output formats each command takes, decided in one place (output/format.ts, from each declaration): a
// format asked for on the command line that the command cannot honour is exit 2 naming what it writes, before
// anything is sent; a CIP_OUTPUT it cannot honour is passed over, so one set for a whole CI job breaks nothing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import type { AnyCommand } from '../../src/commands/define.js';
import { COMMAND_TREE } from '../../src/program.js';
import { expectOneErrorLine, tempDir } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';

test.override({ sandboxOptions: { records: ['{"id":"a1","name":"alpha","type":"Test"}'] } });

const ALL = ['table', 'json', 'yaml', 'tsv'];

it('every command states the formats it takes', () => {
  const declared = Object.fromEntries(
    COMMAND_TREE.flatMap((entry) =>
      'commands' in entry ? entry.commands.map((command) => [entry.name, command] as const) : [['', entry] as const],
    ).map(([group, command]: readonly [string, AnyCommand]) => [`${group} ${command.name}`.trim(), command.outputs]),
  );
  expect(declared).toEqual({
    'auth login': ALL,
    'auth status': ALL,
    'auth use': ALL,
    'auth logout': ALL,
    'auth protect': ALL,
    'auth unprotect': ALL,
    'env list': ALL,
    'env get': ALL,
    'env create': ALL,
    'env update': ALL,
    'env delete': ALL,
    'env export': ['yaml', 'json'],
    'env diff': ['table', 'json', 'yaml'],
    'env apply': ALL,
    'env history': ALL,
    'env restore': ALL,
    api: ['json'],
    doctor: ALL,
    completion: [],
    sandbox: [],
    __complete: [],
  });
});

describe('a format the command cannot honour is exit 2, and nothing is sent', () => {
  it.for<[string[], string]>([
    [['env', 'export', '-o', 'tsv'], 'cip env export cannot write tsv: it writes yaml or json'],
    [['env', 'export', '-o', 'table'], 'cip env export cannot write table: it writes yaml or json'],
    [['env', 'diff', '--file', 'environments.yaml', '-o', 'tsv'], 'cip env diff cannot write tsv: it writes table, json or yaml'],
    [['env', 'plan', '--file', 'environments.yaml', '--output', 'tsv'], 'cip env diff cannot write tsv: it writes table, json or yaml'],
    [['api', 'Environments', '-o', 'yaml'], 'cip api cannot write yaml: it writes json'],
    [['api', 'Environments', '-o', 'tsv'], 'cip api cannot write tsv: it writes json'],
    [['completion', 'bash', '--json'], 'cip completion cannot write json (--json): it writes a text of its own, in no other format'],
    [['sandbox', '--jq', '.'], 'cip sandbox cannot write json (--jq): it writes a text of its own, in no other format'],
  ])('cip %j', async ([args, message], { sandbox, env, cip }) => {
    const result = await cip(args, { env });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(expectOneErrorLine(result.stderr)).toBe(`error: ${message}`);
    expect(sandbox.requests).toEqual([]);
  });
});

describe('CIP_OUTPUT a command cannot honour is passed over', () => {
  it('env export writes its YAML under CIP_OUTPUT=tsv and CIP_OUTPUT=table', async ({ env, cip }) => {
    for (const value of ['tsv', 'table']) {
      const result = await cip(['env', 'export'], { env: { ...env, CIP_OUTPUT: value } });
      expect(result).toEqual({
        exitCode: 0,
        stdout: expect.stringMatching(/^exported:\n[^]*\nenvironments:\n {2}- name: alpha\n {4}type: Test\n$/),
        stderr: '',
      });
    }
  });

  it('env diff writes its plan as JSON in a pipe and as lines at a terminal under CIP_OUTPUT=tsv', async ({ env, cip }) => {
    const path = join(tempDir(), 'environments.yaml');
    writeFileSync(path, 'environments:\n  - name: alpha\n    type: Staging\n');
    const piped = await cip(['env', 'diff', '--file', path], { env: { ...env, CIP_OUTPUT: 'tsv' } });
    expect(piped.exitCode).toBe(0);
    expect(JSON.parse(piped.stdout)).toEqual({
      create: [],
      update: [{ key: 'alpha', id: 'a1', changes: { type: { old: 'Test', new: 'Staging' } } }],
      delete: [],
      unlisted: [],
      conflicts: [],
    });
    const shown = await cip(['env', 'diff', '--file', path], { env: { ...env, CIP_OUTPUT: 'tsv', NO_COLOR: '1' }, terminalColumns: 80 });
    expect(shown.stdout).toBe('~ update name \'alpha\' (a1)\n    type: "Test" → "Staging"\n');
  });

  it('cip completion writes its script under CIP_OUTPUT=json', async ({ env, cip }) => {
    const result = await cip(['completion', 'bash'], { env: { ...env, CIP_OUTPUT: 'json' } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^# bash completion for cip/);
  });

  it('a CIP_OUTPUT the command takes is still used', async ({ env, cip }) => {
    const result = await cip(['env', 'export'], { env: { ...env, CIP_OUTPUT: 'json' } });
    expect(JSON.parse(result.stdout)).toEqual({ environments: [{ name: 'alpha', type: 'Test' }], exported: expect.any(Object) });
  });
});
