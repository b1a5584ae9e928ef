// The command tree as a user meets it (src/program.ts, src/cli/globals.ts): what help shows and how wide,
// commander's own usage errors on one line, empty and out-of-range option values, and options that disagree.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import status from '../../src/commands/auth/status.js';
import useProfile from '../../src/commands/auth/use.js';
import remove from '../../src/commands/env/delete.js';
import { sandboxEnv } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';

test.override({ sandboxOptions: { seed: [{ id: 'e1', name: 'alpha' }] } });

const SRC = join(import.meta.dirname, '../../src');

const LAST_GLOBAL_OPTION = '  --no-headers            leave out the header line of -o tsv\n';
const POINTER = "Global options (--profile, --output, --json, --jq, ...): see 'cip help globals'.\n";

describe('cip --help', () => {
  it('describes cip, lists its options, its commands in the order of the tree, the variables and the exit codes', async ({ cip }) => {
    const result = await cip(['--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(
      /^Usage: cip \[options\] \[command\]\n\nManage environments of the Copyl Integration Platform from the command line\.\n\nOptions:\n {2}-V, --version +print the version\n/,
    );
    const commands = /\nCommands:\n([\s\S]*?)\n\n/.exec(result.stdout)![1]!;
    const names = [...commands.matchAll(/^ {2}(\S+)/gm)].map((match) => match[1]);
    expect(names).toEqual(['auth', 'env', 'api', 'doctor', 'completion', 'sandbox', 'help']);
    expect(result.stdout).toContain('\n\nEnvironment variables:\n  CIP_PROFILE            profile to use (like --profile)\n');
    expect(result.stdout).toContain('\n\nExit codes:\n    0  success\n');
    expect(result.stdout).toMatch(/\n {2}143 {2}terminated \(SIGTERM\)\n\n$/);
  });

  it('lists every CIP_ variable cip reads, CIP_CREDENTIAL_STORE among them', async ({ cip }) => {
    const read = new Set<string>();
    for (const file of readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'))) {
      for (const match of readFileSync(join(SRC, file), 'utf8').matchAll(/\bCIP_[A-Z_]*[A-Z]\b/g)) read.add(match[0]);
    }
    expect(read).toContain('CIP_CREDENTIAL_STORE');
    const variables = /\n\nEnvironment variables:\n([\s\S]*?)\n\n/.exec((await cip(['--help'])).stdout)![1]!;
    const listed = new Set([...variables.matchAll(/^ {2}(CIP_[A-Z_]+)/gm)].map((match) => match[1]));
    expect([...read].sort()).toEqual([...listed].sort());
    expect(variables).toContain('  CIP_CREDENTIAL_STORE   where login keeps keys: keychain (default) or file\n');
  });

  it('--version prints the version alone', async ({ cip }) => {
    expect(await cip(['--version'])).toEqual({ exitCode: 0, stdout: '0.0.0\n', stderr: '' });
  });

  it("a command's help points to the global options, which cip --help and 'cip help globals' list once", async ({ cip }) => {
    const result = await cip(['env', 'list', '--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toContain('--base-url');
    expect(result.stdout.endsWith(`\n\n${POINTER}`)).toBe(true);
    const root = await cip(['--help']);
    expect(root.stdout).toMatch(/\nGlobal options:\n {2}-p, --profile <name> +profile to use/);
    expect(root.stdout.match(/--base-url <url>/g)).toHaveLength(1);
    const globals = await cip(['help', 'globals']);
    expect(globals).toEqual({ exitCode: 0, stdout: expect.stringMatching(/^Global options \(every command takes them/), stderr: '' });
    expect(globals.stdout).toContain(LAST_GLOBAL_OPTION);
  });
});

describe("a command's notes and examples close its help, before the pointer to the global options", () => {
  const squash = (text: string) => text.replace(/ \\\n/g, ' ').replace(/\s+/g, ' ').trim();
  const examples = (list: readonly string[]) => `Examples: ${list.join(' ')}`;

  it('the three commands below have what their names say', () => {
    expect(remove.notes).toBeDefined();
    expect(remove.examples!.length).toBeGreaterThan(1);
    expect([status.notes, status.examples]).toEqual([expect.any(String), undefined]);
    expect([useProfile.notes, useProfile.examples]).toEqual([undefined, expect.any(Array)]);
  });

  it.for<[string, string[], string]>([
    ['env delete: notes, then examples', ['env', 'delete', '--help'], `${remove.notes} ${examples(remove.examples!)}`],
    ['auth use: examples only', ['auth', 'use', '--help'], examples(useProfile.examples!)],
    ['auth status: notes only', ['auth', 'status', '--help'], status.notes!],
  ])('%s', async ([_name, args, tail], { cip }) => {
    const result = await cip(args);
    expect(result.exitCode).toBe(0);
    const after = result.stdout.split('  -h, --help')[1]!.replace(/^.*\n/, '');
    expect(after.endsWith(`\n\n${POINTER}`)).toBe(true);
    expect(squash(after.slice(0, -POINTER.length))).toBe(squash(tail));
  });
});

describe('help wraps to the width of the stream it is written to', () => {
  const WIDE = '\nlist, get, create, update and delete environments; export, diff and apply them\nas code\n';
  const NARROW = '\nlist, get, create, update and delete\nenvironments; export, diff and apply\nthem as code\n';

  it.for([
    ['stdout, no terminal: 80 columns', { stream: 'stdout' }, WIDE],
    ['stdout, a terminal of 40 columns', { stream: 'stdout', terminalColumns: 40 }, NARROW],
    ['stderr, no terminal: 80 columns', { stream: 'stderr' }, WIDE],
    ['stderr, a terminal of 40 columns', { stream: 'stderr', terminalColumns: 40, spinners: true }, NARROW],
    ['stderr that reports no size, beside a stdout of 40 columns: 80 columns', { stream: 'stderr', terminalColumns: 40 }, WIDE],
  ] as const)('%s', async ([_name, { stream, ...options }, description], { cip }) => {
    // `cip env --help` is asked for (stdout, exit 0); `cip env` alone lacks its subcommand (stderr, exit 2).
    const result = await cip(stream === 'stdout' ? ['env', '--help'] : ['env'], options);
    expect(result.exitCode).toBe(stream === 'stdout' ? 0 : 2);
    expect(result[stream === 'stdout' ? 'stderr' : 'stdout']).toBe('');
    expect(result[stream]).toMatch(/^Usage: cip env \[options\] \[command\]\n/);
    expect(result[stream]).toContain(description);
  });
});

describe("commander's usage errors are one line, exit 2", () => {
  it.for<[string[], string]>([
    [['env', 'list', '--jsn'], "error: unknown option '--jsn' (Did you mean --json?)"],
    [['env', 'list', '--zzzzzz'], "error: unknown option '--zzzzzz'"],
    [['env', 'get'], "error: missing required argument 'id-or-name'"],
    [['help', 'nope', 'more'], "error: unknown command 'nope' (run 'cip help' to see the commands)"],
    [['help', 'env', 'lst', 'more'], "error: unknown command 'env lst' (Did you mean list?)"],
    // commander 15 names the excess arguments; a control character among them is shown, never obeyed.
    [
      ['env', 'get', 'a', 'b\u001b[31mred\nnext'],
      "error: too many arguments for 'get'. Expected 1 argument but got 2: a, b\\u001b[31mred next.",
    ],
  ])('%j: %s', async ([args, line], { cip }) => {
    expect(await cip(args)).toEqual({ exitCode: 2, stdout: '', stderr: `${line}\n` });
  });
});

describe('an empty value is refused before anything is sent', () => {
  it.for<[string[], string]>([
    [['--profile', '', 'env', 'list'], '--profile'],
    [['env', 'list', '-p', ' '], '--profile'],
    [['--base-url', '', 'env', 'list'], '--base-url'],
    [['env', 'list', '--enterprise-id', '\t'], '--enterprise-id'],
    [['--jq', ' ', 'env', 'list'], '--jq'],
    [['env', 'create', '--data', ''], '--data'],
    [['env', 'create', '--data', '  '], '--data'],
  ])('%j: %s', async ([args, flag], { sandbox, cip }) => {
    const result = await cip(args, { env: sandboxEnv(sandbox) });
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `error: ${flag} was given an empty value (give it a value or leave ${flag} out; an empty value is refused, never read as 'not given')\n`,
    });
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe('--timeout takes a positive number of seconds, at most 2,000,000', () => {
  it.for(['0', '-1', '2000001', 'Infinity', 'NaN', 'soon'])(
    '--timeout=%s is exit 2, and nothing is sent',
    async (value, { sandbox, cip }) => {
      const result = await cip([`--timeout=${value}`, 'env', 'list'], { env: sandboxEnv(sandbox) });
      expect(result).toEqual({
        exitCode: 2,
        stdout: '',
        stderr: `error: option '--timeout <seconds>' argument '${value}' is invalid. expected a positive number of seconds\n`,
      });
      expect(sandbox.requests).toHaveLength(0);
    },
  );

  it.for(['2000000', '1e6'])('--timeout %s is taken', async (value, { sandbox, cip }) => {
    const result = await cip(['--timeout', value, 'env', 'list', '--json'], { env: sandboxEnv(sandbox) });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject([{ id: 'e1' }]);
  });
});

describe('--jq with --output', () => {
  it('agrees with -o json', async ({ sandbox, cip }) => {
    const result = await cip(['--jq', '.[0].id', '-o', 'json', 'env', 'list'], { env: sandboxEnv(sandbox) });
    expect(result).toEqual({ exitCode: 0, stdout: 'e1\n', stderr: '' });
  });

  it('disagrees with -o table, and nothing is sent', async ({ sandbox, cip }) => {
    const result = await cip(['--jq', '.', '-o', 'table', 'env', 'list'], { env: sandboxEnv(sandbox) });
    expect(result).toEqual({ exitCode: 2, stdout: '', stderr: 'error: --jq and --output table disagree (--jq filters the JSON data)\n' });
    expect(sandbox.requests).toHaveLength(0);
  });
});

it('cip completion bash writes a script for the whole command tree', async ({ cip }) => {
  const result = await cip(['completion', 'bash']);
  expect(result.exitCode).toBe(0);
  expect(result.stderr).toBe('');
  expect(result.stdout).toMatch(/^# bash completion for cip\./);
  for (const word of ['auth', 'env', 'apply', 'sandbox', 'doctor']) expect(result.stdout).toContain(word);
});
