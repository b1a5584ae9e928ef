// Each command is built in two steps (src/program/cip-command.ts, src/program/declarations.ts): its name, aliases and description at once, its arguments,
// options, help text and action when it is run or its help is shown. Start-up pays for one command, not twenty;
// nothing a user sees changes. The hook that builds the command being run, saveStateBeforeParse, is commander's
// (documented for subclasses): the cases that run a command fail if a commander upgrade stops calling it.
import { Command, Help } from 'commander';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildProgram, completeTree } from '../../../src/program.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { loginArgs, sandboxForFile } from '../../helpers/cli.js';
import { cipInProcess as cip } from '../../helpers/harness.js';
import { fakeIO, testContext } from '../../helpers/io.js';

/** Every command of the tree by its path ('env list'), the root as ''. */
function byPath(command: Command, path: string[] = []): Map<string, Command> {
  const found = new Map<string, Command>([[path.join(' '), command]]);
  for (const sub of command.commands) for (const [key, value] of byPath(sub, [...path, sub.name()])) found.set(key, value);
  return found;
}

/** The commands whose options or arguments are built. */
const built = (program: Command) =>
  [...byPath(program)].filter(([, command]) => command.options.length || command.registeredArguments.length).map(([path]) => path);

/** Parses argv as run() does, up to the command's action, which is not run: returns the command that would run. */
async function dispatch(argv: string[]): Promise<{ program: Command; ran: Command }> {
  const program = buildProgram(testContext(fakeIO(), {}));
  const stop = new Error('stop before the action');
  let ran: Command | undefined;
  program.hook('preAction', (_root, command) => {
    ran = command;
    throw stop;
  });
  await expect(program.parseAsync(argv, { from: 'user' })).rejects.toBe(stop);
  return { program, ran: ran! };
}

describe('commands are built when they are needed', () => {
  it('a new program has every command by name, alias, description and hidden flag, and only the global options', () => {
    const program = buildProgram(testContext(fakeIO(), {}));
    expect(built(program)).toEqual(['']);
    const tree = byPath(program);
    expect([...tree.keys()]).toContain('env list');
    expect(tree.get('env list')!.aliases()).toEqual(['ls']);
    expect(tree.get('env list')!.description()).toBe('list all environments');
    expect(tree.get('__complete')!.description()).toBe('values for the completion scripts');
    const visible = program.createHelp().visibleCommands(program);
    expect(visible.map((command) => command.name())).toEqual(['auth', 'env', 'api', 'doctor', 'completion', 'sandbox', 'help']);
    expect(built(program)).toEqual(['']);
  });

  it('running `env list` builds env list alone, and its options parse', async () => {
    const { program, ran } = await dispatch(['env', 'list', '--columns', 'id,name']);
    expect(ran.name()).toBe('list');
    expect(ran.opts()).toEqual({ columns: ['id', 'name'] });
    expect(built(program)).toEqual(['', 'env list']);
  });

  it('an alias builds its command', async () => {
    const { program, ran } = await dispatch(['env', 'ls', '--columns', 'id']);
    expect(ran.opts()).toEqual({ columns: ['id'] });
    expect(built(program)).toEqual(['', 'env list']);
  });

  it('a command with arguments gets them: `env get NAME`', async () => {
    const { program, ran } = await dispatch(['env', 'get', 'alpha']);
    expect(ran.name()).toBe('get');
    expect(ran.args).toEqual(['alpha']);
    expect(built(program)).toEqual(['', 'env get']);
  });

  it('help for a group builds none of the commands it lists', () => {
    const program = buildProgram(testContext(fakeIO(), {}));
    const text = byPath(program).get('env')!.helpInformation();
    expect(text).toMatch(/\n {2}list\|ls \[options\] +list all environments\n/);
    expect(built(program)).toEqual(['']);
  });

  it("a command not built yet is listed as commander's Help lists it built", () => {
    const lazy = buildProgram(testContext(fakeIO(), {}));
    const full = byPath(completeTree(buildProgram(testContext(fakeIO(), {}))));
    const parents = [...byPath(lazy)].filter(([, command]) => command.commands.length);
    const terms = parents.flatMap(([path, parent]) => {
      const help = parent.createHelp();
      return parent.commands.map((sub) => [
        help.subcommandTerm(sub),
        new Help().subcommandTerm(full.get(path ? `${path} ${sub.name()}` : sub.name())!),
      ]);
    });
    expect(built(lazy)).toEqual(['']);
    expect(terms.length).toBeGreaterThan(20);
    for (const [listed, commanders] of terms) expect(listed).toBe(commanders);
    expect(terms.map(([listed]) => listed)).toContain('delete|rm [options] [id-or-name...]');
  });

  it('completeTree builds every command, as the completion scripts need', () => {
    const program = completeTree(buildProgram(testContext(fakeIO(), {})));
    const withNothing = [...byPath(program)].filter(
      ([, command]) => !command.options.length && !command.registeredArguments.length && !command.commands.length,
    );
    // Every command takes an option or an argument, or is a group, but the one that takes neither.
    expect(withNothing.map(([path]) => path)).toEqual(['doctor']);
  });
});

describe('a command built late behaves as before', () => {
  let sandbox!: Sandbox;
  let env: Record<string, string | undefined> = {};
  sandboxForFile({ seed: [{ id: 'e1', name: 'alpha' }] }, (started) => ({ sandbox, env } = started));
  beforeEach(() => {
    sandbox.reset();
  });

  it('its options parse', async () => {
    const result = await cip(['env', 'list', '--columns', 'name', '-o', 'tsv'], { env });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('name\nalpha\n');
    expect(result.exitCode).toBe(0);
  });

  it('a single-valued option given twice is refused', async () => {
    const result = await cip(['env', 'list', '--columns', 'id', '--columns', 'name'], { env });
    expect(result.stderr).toBe('error: --columns was given more than once (give it once)\n');
    expect(result.exitCode).toBe(2);
    expect(sandbox.requests).toEqual([]);
  });

  it('its lone --no-... switch is on unless given: auth login checks the keys, and with --no-verify does not', async () => {
    // commander 15 sets that default before saveStateBeforeParse, where the command gets its options.
    const checked = await cip(loginArgs(sandbox, ['--insecure-storage']), { env: {} });
    expect(checked.exitCode).toBe(0);
    expect(sandbox.requests.length).toBeGreaterThan(0);
    sandbox.reset();
    const unchecked = await cip(loginArgs(sandbox, ['--insecure-storage', '--no-verify']), { env: {} });
    expect(unchecked.exitCode).toBe(0);
    expect(sandbox.requests).toEqual([]);
  });

  it('an option it does not have is an unknown option', async () => {
    const result = await cip(['env', 'list', '--colums', 'id'], { env });
    expect(result.stderr).toMatch(/^error: unknown option '--colums'/);
    expect(result.exitCode).toBe(2);
  });

  it('its --help lists its options, notes and examples', async () => {
    const result = await cip(['env', 'list', '--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Usage: cip env list\|ls \[options\]\n/);
    expect(result.stdout).toContain('\n  --columns <fields>  comma-separated fields to show');
    expect(result.stdout).toContain('\nExamples:\n  cip env list\n');
  });

  it('`cip help env list` and `cip env help list` print the same help', async () => {
    const flag = await cip(['env', 'list', '--help']);
    expect((await cip(['help', 'env', 'list'])).stdout).toBe(flag.stdout);
    expect((await cip(['env', 'help', 'list'])).stdout).toBe(flag.stdout);
  });

  it("a group's help lists its commands with their options and arguments", async () => {
    const result = await cip(['env', '--help']);
    expect(result.stdout).toMatch(/\n {2}list\|ls \[options\] +list all environments\n/);
    expect(result.stdout).toMatch(/\n {2}get \[options\] <id-or-name> +/);
    expect(result.stdout).toMatch(/\n {2}help \[command\.\.\.\] +show help for a command\n/);
  });
});
