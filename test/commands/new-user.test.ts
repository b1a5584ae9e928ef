// The small things a new user hits in the first minutes: help, typos, a first login, conflicting flags and
// the record view on a narrow terminal.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { cipInProcess as cip } from '../helpers/harness.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: [{ id: 'e1', name: 'alpha' }] });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => {
  sandbox.reset();
});

describe('cip help <command...>', () => {
  it.each([
    [['help'], ['--help']],
    [
      ['help', 'env'],
      ['env', '--help'],
    ],
    [
      ['help', 'env', 'create'],
      ['env', 'create', '--help'],
    ],
    [
      ['help', 'auth', 'login'],
      ['auth', 'login', '--help'],
    ],
    [
      ['help', 'env', 'ls'],
      ['env', 'ls', '--help'],
    ],
    [
      ['env', 'help'],
      ['env', '--help'],
    ],
    [
      ['env', 'help', 'create'],
      ['env', 'create', '--help'],
    ],
  ])('%j prints what %j prints, on stdout, exit 0', async (args, same) => {
    const [result, expected] = await Promise.all([cip(args), cip(same)]);
    expect(result).toEqual({ exitCode: 0, stdout: expected.stdout, stderr: '' });
    expect(result.stdout).toMatch(/^Usage: cip/);
  });

  it('is listed in the help of cip and of each group', async () => {
    for (const args of [['--help'], ['env', '--help'], ['auth', '--help']]) {
      expect((await cip(args)).stdout).toMatch(/^ {2}help \[command\.\.\.\] +show help for a command$/m);
    }
  });

  it.each([
    [['help', 'nope'], "error: unknown command 'nope' (run 'cip help' to see the commands)"],
    [['help', 'env', 'lst'], "error: unknown command 'env lst' (Did you mean list?)"],
    [['env', 'help', 'nope'], "error: unknown command 'env nope' (run 'cip env help' to see the commands)"],
    [['help', 'env', 'create', 'more'], "error: unknown command 'env create more' ('cip env create' has no subcommands)"],
  ])('%j is exit 2: %s', async (args, line) => {
    const result = await cip(args);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`${line}\n`);
  });
});

describe('a mistyped command', () => {
  it.each([
    [['env', 'lst'], "error: unknown command 'lst' (Did you mean list?)"],
    [['env', 'l'], "error: unknown command 'l' (Did you mean list?)"],
    [['env', 'creat'], "error: unknown command 'creat' (Did you mean create?)"],
    [['env', 'rn'], "error: unknown command 'rn' (Did you mean delete?)"],
    [['hlp'], "error: unknown command 'hlp' (Did you mean help?)"],
    [['auth', 'sttus'], "error: unknown command 'sttus' (Did you mean status?)"],
    [['env', 'zzzzzz'], "error: unknown command 'zzzzzz'"],
  ])('%j names each command once, by its name: %s', async (args, line) => {
    const result = await cip(args);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(`${line}\n`);
  });
});
