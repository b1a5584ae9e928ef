// cip as a whole, in-process: help, mistyped commands, usage errors and the global options every command takes.
import status from '../../src/commands/auth/status.js';
import useProfile from '../../src/commands/auth/use.js';
import remove from '../../src/commands/env/delete.js';
import { writeFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { expectOneErrorLine, sandboxEnv, tempDir, sandboxTarget } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';
import { COMMAND_TREE } from '../../src/program.js';
import type { AnyCommand } from '../../src/commands/define.js';
import { NAMED_SANDBOX } from '../helpers/named-environments.js';
import { configWith, sandboxProfile } from '../helpers/stored-profiles.js';
import { EXACT_RECORDS_SANDBOX } from '../helpers/exact-records.js';

describe('boundaries found by mutation testing', () => {
  test.override({ sandboxOptions: { seed: 1 } });

  describe('--quiet', () => {
    it('silences the lines for people, and keeps data and warnings', async ({ sandbox, cip }) => {
      const env = sandboxEnv(sandbox);
      const created = await cip(['env', 'create', '-f', 'name=quiet', '--quiet'], { env });
      expect(created.exitCode).toBe(0);
      expect(created.stderr).toBe('');
      const { id } = JSON.parse(created.stdout) as { id: string };
      expect(await cip(['env', 'update', id, '-f', 'name=quieter', '-q'], { env })).toMatchObject({ exitCode: 0, stderr: '' });
      const deleted = await cip(['env', 'delete', id, '--yes', '-q'], { env });
      expect(deleted).toMatchObject({ exitCode: 0, stderr: '' });
      expect(JSON.parse(deleted.stdout)).toEqual([{ given: id, id, name: 'quieter', result: 'deleted', error: null }]);
      const configDir = configWith({ a: sandboxProfile(sandbox), b: sandboxProfile(sandbox) }, 'a');
      expect(await cip(['auth', 'switch', 'b', '--quiet'], { configDir })).toMatchObject({ exitCode: 0, stderr: '' });
      const warned = await cip(['env', 'list', '--quiet'], { configDir, env: { CIP_API_KEY: sandbox.keys.apiKey } });
      expect(warned.stderr).toBe("warning: CIP_API_KEY from the environment overrides profile 'b'\n");
    });

    it('without it, the same commands say what they did', async ({ cip, sandbox }) => {
      const configDir = configWith({ a: sandboxProfile(sandbox), b: sandboxProfile(sandbox) }, 'a');
      expect(await cip(['auth', 'switch', 'b'], { configDir })).toMatchObject({ exitCode: 0, stderr: "Profile 'b' is now active.\n" });
      const created = await cip(['env', 'create', '-f', 'name=loud'], { configDir });
      expect(created.stderr).toMatch(/^Created environment 'loud' \([0-9a-f-]{36}\)\n {2}in profile 'b', enterprise /);
    });
  });

  describe('--verbose', () => {
    it('shows the reason phrase on one line, its control characters replaced', async ({ sandbox, cip }) => {
      sandbox.inject({
        fault: { kind: 'raw', response: 'HTTP/1.1 200 OK\u001b[2J\tNow\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]' },
      });
      const result = await cip(['env', 'list', '--verbose'], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toMatch(/^< 200 OK\?\[2J Now \(\d+ ms, 2 bytes\)$/m);
      expect(result.stderr).not.toContain('\u001b');
    });
  });
});

describe('help at its width', () => {
  // Help fits the width it is printed at (80 when not a terminal): descriptions, notes, examples and the lists of
  // `cip --help` alike. The global options are listed once, in `cip --help` and `cip help globals`; each command's
  // help ends with one line that points there.

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
});

describe('--jq', () => {
  // --jq as jq runs a filter: results as they come and what came before a run-time error; a failing filter that
  // never hides the command's own failure; a compile check that does not run the filter; and $ENV, env, $__loc__
  // and input_filename as for `jq FILTER` reading stdin. In-process against the sandbox.

  test.override({
    sandboxOptions: {
      seed: [
        { id: 'e1', name: 'alpha' },
        { id: 'e2', name: 'beta' },
        { id: 'e3', name: 'gamma' },
      ],
    },
  });

  const RAN = '(the command itself did its work; only the filter failed)';

  describe('a filter that fails at run time', () => {
    it('has printed what came before the error; exit 12, the command did its work', async ({ env, cip }) => {
      const result = await cip(['env', 'list', '--jq', '.[].name, error("boom")'], { env });
      expect(result).toEqual({ exitCode: 12, stdout: 'alpha\nbeta\ngamma\n', stderr: `error: --jq: boom ${RAN}\n` });
    });

    it('keeps white space at the end of the last result before the error', async ({ env, cip }) => {
      const result = await cip(['api', 'Environments', '--jq', '.[0].name + "\\t", error("boom")'], { env });
      expect(result).toEqual({ exitCode: 12, stdout: 'alpha\t\n', stderr: `error: --jq: boom ${RAN}\n` });
    });

    it("never hides the command's own failure: a bulk delete with a failure is still exit 9", async ({ sandbox, env, cip }) => {
      sandbox.inject({
        fault: { kind: 'status', status: 500, body: '{"message":"locked"}' },
        method: 'DELETE',
        match: (request) => request.url.endsWith('/e2'),
        times: Infinity,
      });
      const result = await cip(
        ['env', 'delete', 'e1', 'e2', 'e3', '--yes', '--jq', '.[] | if .result == "failed" then error("boom") else .id end'],
        {
          env,
        },
      );
      expect(result.exitCode).toBe(9);
      expect(result.stdout).toBe('e1\n');
      const errors = result.stderr.split('\n').filter((line) => line.startsWith('error:'));
      expect(errors).toEqual([
        'error: --jq: boom',
        `error: partly done: 2 deleted, 1 failed of 3 ${sandboxTarget(sandbox)} (the failed ones are listed above; run the command again for them)`,
      ]);
      expect(sandbox.environments.has('e3')).toBe(false);
    });
  });

  describe('the compile check', () => {
    it('compiles the filter without running it: a filter that would end with exit 3 on null is not taken for a syntax error', async ({
      env,
      cip,
    }) => {
      const result = await cip(['env', 'list', '--jq', 'if . == null then "ran on null" | halt_error(3) else .[].id end'], { env });
      expect(result).toEqual({ exitCode: 0, stdout: 'e1\ne2\ne3\n', stderr: '' });
    });

    it('still refuses what jq cannot compile, before anything is sent', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'list', '--jq', '.[] | nosuch'], { env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe(
        "error: --jq: nosuch/0 is not defined at <top-level>, line 1, column 7: '.[] | nosuch' (at 'nosuch')",
      );
      expect(sandbox.requests).toHaveLength(0);
    });
  });

  describe("what a filter knows as jq would: `jq FILTER` with the data on stdin, in the caller's environment", () => {
    it('$ENV and env are the caller environment', async ({ env, cip }) => {
      const result = await cip(['env', 'list', '--jq', '.[] | select(.name == $ENV.TARGET) | .id, env.HOME'], {
        env: { ...env, TARGET: 'beta', HOME: '/home/me' },
      });
      expect(result).toEqual({ exitCode: 0, stdout: 'e2\n/home/me\n', stderr: '' });
    });

    it('without the credentials', async ({ env, cip }) => {
      const result = await cip(
        ['env', 'list', '--jq', '[$ENV.CIP_API_KEY, $ENV.CIP_SUBSCRIPTION_KEY, env.CIP_TOKEN, $ENV.CIP_ENTERPRISE_ID != null] | @json'],
        {
          env: { ...env, CIP_TOKEN: 'a-token' },
        },
      );
      expect(result).toEqual({ exitCode: 0, stdout: '[null,null,null,true]\n', stderr: '' });
    });

    it('$__loc__ is line 1 of <top-level> for the first line, and input_filename is null (stdin)', async ({ env, cip }) => {
      const result = await cip(['env', 'get', 'alpha', '--jq', '$__loc__, input_filename'], { env });
      expect(result).toEqual({ exitCode: 0, stdout: '{\n  "file": "<top-level>",\n  "line": 1\n}\nnull\n', stderr: '' });
    });
  });
});

describe('what a new user hits first', () => {
  test.override({ sandboxOptions: { seed: [{ id: 'e1', name: 'alpha' }] } });

  describe('cip help <command...>', () => {
    it.for<[string[], string[]]>([
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
    ])('%j prints what %j prints, on stdout, exit 0', async ([args, same], { cip }) => {
      const [result, expected] = await Promise.all([cip(args), cip(same)]);
      expect(result).toEqual({ exitCode: 0, stdout: expected.stdout, stderr: '' });
      expect(result.stdout).toMatch(/^Usage: cip/);
    });

    it('is listed in the help of cip and of each group', async ({ cip }) => {
      for (const args of [['--help'], ['env', '--help'], ['auth', '--help']]) {
        expect((await cip(args)).stdout).toMatch(/^ {2}help \[command\.\.\.\] +show help for a command$/m);
      }
    });

    it.for<[string[], string]>([
      [['help', 'nope'], "error: unknown command 'nope' (run 'cip help' to see the commands)"],
      [['help', 'env', 'lst'], "error: unknown command 'env lst' (Did you mean list?)"],
      [['env', 'help', 'nope'], "error: unknown command 'env nope' (run 'cip env help' to see the commands)"],
      [['help', 'env', 'create', 'more'], "error: unknown command 'env create more' ('cip env create' has no subcommands)"],
    ])('%j is exit 2: %s', async ([args, line], { cip }) => {
      const result = await cip(args);
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`${line}\n`);
    });
  });

  describe('a mistyped command', () => {
    it.for<[string[], string]>([
      [['env', 'lst'], "error: unknown command 'lst' (Did you mean list?)"],
      [['env', 'l'], "error: unknown command 'l' (Did you mean list?)"],
      [['env', 'creat'], "error: unknown command 'creat' (Did you mean create?)"],
      [['env', 'rn'], "error: unknown command 'rn' (Did you mean delete?)"],
      [['hlp'], "error: unknown command 'hlp' (Did you mean help?)"],
      [['auth', 'sttus'], "error: unknown command 'sttus' (Did you mean status?)"],
      [['env', 'zzzzzz'], "error: unknown command 'zzzzzz'"],
    ])('%j names each command once, by its name: %s', async ([args, line], { cip }) => {
      const result = await cip(args);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toBe(`${line}\n`);
    });
  });

  describe('bare cip', () => {
    it.for<[string[]]>([[[]], [['--json']], [['--verbose']]])(
      '%j prints a short overview on stdout and exits 0',
      async ([args], { cip }) => {
        const result = await cip(args);
        expect(result.exitCode).toBe(0);
        expect(result.stderr).toBe('');
        const lines = result.stdout.split('\n');
        expect(lines.length).toBeLessThan(30);
        expect(lines.slice(0, 6)).toEqual([
          'Manage environments of the Copyl Integration Platform from the command line.',
          '',
          'Usage: cip <command> [options]',
          '',
          'Commands:',
          '  auth        log in, inspect and switch profiles',
        ]);
        for (const name of ['env', 'api', 'doctor', 'completion', 'sandbox', 'help'])
          expect(result.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
        expect(result.stdout).toContain("Start with 'cip auth login', or try cip offline against 'cip sandbox'.\n");
        // The full help is one flag away, and keeps its environment variables and exit codes.
        expect(result.stdout).not.toContain('Exit codes:');
        expect((await cip(['--help'])).stdout).toContain('Exit codes:');
      },
    );

    it('wraps to the terminal', async ({ cip }) => {
      const result = await cip([], { terminalColumns: 50 });
      expect(result.exitCode).toBe(0);
      expect(Math.max(...result.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(50);
      expect(result.stdout).toContain(
        '  env         list, get, create, update and delete\n              environments; export, diff and apply\n',
      );
    });
  });

  describe('a command typed where a newcomer expects it', () => {
    it.for<[string[], string]>([
      [['login'], 'cip auth login'],
      [['logout'], 'cip auth logout'],
      [['status'], 'cip auth status'],
      [['whoami'], 'cip auth status'],
      [['version'], 'cip --version'],
      [['list'], 'cip env list'],
      [['envs'], 'cip env list'],
      [['environments'], 'cip env list'],
      [['delete'], 'cip env delete'],
      [['auth', 'whoami'], 'cip auth status'],
      [['env', 'show'], 'cip env get'],
      [['env', 'remove'], 'cip env delete'],
      [['help', 'login'], 'cip auth login'],
    ])('%j is exit 2 and names %s', async ([args, meant], { cip }) => {
      const result = await cip(args);
      expect(result).toEqual({
        exitCode: 2,
        stdout: '',
        stderr: `error: unknown command '${args.at(-1)!}' (Did you mean '${meant}'?)\n`,
      });
    });
  });

  describe('an option that would take a key', () => {
    const SECRET = 'typed-secret-0123456789abcdef';
    const why = 'keys are not taken as options, so that shell history and process lists never show them';
    it.for([
      [
        ['auth', 'login', '--api-key', SECRET],
        '--api-key',
        'use --api-key-file FILE (- for stdin), the CIP_API_KEY variable, or the hidden prompt at a terminal',
      ],
      [
        ['auth', 'login', `--api-key=${SECRET}`],
        '--api-key',
        'use --api-key-file FILE (- for stdin), the CIP_API_KEY variable, or the hidden prompt at a terminal',
      ],
      [
        ['auth', 'login', '--subscription-key', SECRET],
        '--subscription-key',
        'use --subscription-key-file FILE (- for stdin), the CIP_SUBSCRIPTION_KEY variable, or the hidden prompt at a terminal',
      ],
      [['auth', 'login', `--token=${SECRET}`], '--token', 'use --token-file FILE (- for stdin)'],
      ...['--key', '--password', '--secret'].map((flag) => [
        ['auth', 'login', `${flag}=${SECRET}`],
        flag,
        'use --api-key-file and --subscription-key-file FILE (- for stdin), the CIP_API_KEY and CIP_SUBSCRIPTION_KEY variables, or the hidden prompt at a terminal',
      ]),
      [
        ['env', 'list', '--api-key', SECRET],
        '--api-key',
        "'cip auth login' keeps them in a profile, or set CIP_API_KEY, CIP_SUBSCRIPTION_KEY and CIP_ENTERPRISE_ID",
      ],
      [
        ['--token', SECRET, 'env', 'list'],
        '--token',
        "'cip auth login --token-file FILE' keeps a token in a profile, or set CIP_TOKEN and CIP_SUBSCRIPTION_KEY",
      ],
    ] as [string[], string, string][])(
      '%j is exit 2, says why and what to use, and never repeats the value',
      async ([args, flag, ways], { sandbox, cip }) => {
        const result = await cip(args);
        expect(result).toEqual({ exitCode: 2, stdout: '', stderr: `error: unknown option '${flag}' (${why}; ${ways})\n` });
        expect(sandbox.requests).toHaveLength(0);
      },
    );

    it.for<[string[], string]>([
      [
        ['auth', 'login', `--api-key-fil=${'typed-secret-0123456789abcdef'}`],
        "error: unknown option '--api-key-fil' (Did you mean --api-key-file?)",
      ],
      [['env', 'list', '--colums=typed-secret-0123456789abcdef'], "error: unknown option '--colums' (Did you mean --columns?)"],
      [['auth', 'login', '-ktyped-secret-0123456789abcdef'], "error: unknown option '-k'"],
    ])('any other unknown option with a value glued to it is named without the value: %j', async ([args, line], { cip }) => {
      const result = await cip(args);
      expect(result).toEqual({ exitCode: 2, stdout: '', stderr: `${line}\n` });
    });
  });

  describe('conflicting and repeated options are usage errors, and nothing is sent', () => {
    it.for<[string[], string]>([
      [
        ['--json', '-o', 'table', 'env', 'list'],
        "error: --json and --output table disagree (give one of them; --json is the same as '--output json')",
      ],
      [
        ['env', 'list', '-o', 'table', '--json'],
        "error: --json and --output table disagree (give one of them; --json is the same as '--output json')",
      ],
      [['env', 'create', '--data', '{"name":"a"}', '--data', '{"name":"b"}'], 'error: --data was given more than once (give it once)'],
      [['env', 'create', '--file', 'a.json', '--file', 'b.json'], 'error: --file was given more than once (give it once)'],
      [['-o', 'json', 'env', 'list', '-o', 'table'], 'error: --output was given more than once (give it once)'],
      [
        ['env', 'list', '--base-url', 'http://127.0.0.1:1/ms', '--base-url', 'http://127.0.0.1:2/ms'],
        'error: --base-url was given more than once (give it once)',
      ],
      [['env', 'list', '--timeout', '5', '--timeout', '6'], 'error: --timeout was given more than once (give it once)'],
      [['env', 'list', '--columns', 'id', '--columns', 'name'], 'error: --columns was given more than once (give it once)'],
    ])('%j: %s', async ([args, line], { sandbox, cip }) => {
      const result = await cip(args, { env: sandboxEnv(sandbox) });
      expect(result).toEqual({ exitCode: 2, stdout: '', stderr: `${line}\n` });
      expect(sandbox.requests).toHaveLength(0);
    });

    it('--json with -o json agrees', async ({ sandbox, cip }) => {
      const result = await cip(['--json', '-o', 'json', 'env', 'list'], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject([{ id: 'e1' }]);
    });

    it('--json with CIP_OUTPUT=table is --json: the option wins over the variable', async ({ sandbox, cip }) => {
      const result = await cip(['--json', 'env', 'list'], { env: sandboxEnv(sandbox, { CIP_OUTPUT: 'table' }) });
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject([{ id: 'e1' }]);
    });

    it('repeatable options still repeat', async ({ sandbox, cip }) => {
      const result = await cip(['env', 'create', '-f', 'name=a', '-f', 'description=b', '-F', 'isActive=true', '-F', 'n=1'], {
        env: sandboxEnv(sandbox),
      });
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ name: 'a', description: 'b', isActive: true, n: 1 });
    });
  });

  describe('first mistakes: exit 2, one error line that names the right spelling, nothing sent', () => {
    it.for<[string[], string]>([
      [['env', 'create', '--name', 'foo'], "error: unknown option '--name' (to set the field 'name', use -f name=foo)"],
      [['env', 'create', '--name=foo'], "error: unknown option '--name' (to set the field 'name', use -f name=foo)"],
      [['env', 'create', '--name', 'my env'], "error: unknown option '--name' (to set the field 'name', use -f 'name=my env')"],
      [['env', 'create', '--name', "it's"], `error: unknown option '--name' (to set the field 'name', use -f 'name=it'\\''s')`],
      [['env', 'create', '--name', '$(touch x)'], "error: unknown option '--name' (to set the field 'name', use -f 'name=$(touch x)')"],
      [['env', 'create', '--isActive', 'false'], "error: unknown option '--isActive' (to set the field 'isActive', use -F isActive=false)"],
      [['env', 'create', '--retention=30'], "error: unknown option '--retention' (to set the field 'retention', use -F retention=30)"],
      [
        ['env', 'update', 'alpha', '--description'],
        "error: unknown option '--description' (to set the field 'description', use -f description=VALUE)",
      ],
      [
        ['env', 'update', 'alpha', '--description', '--dry-run'],
        "error: unknown option '--description' (to set the field 'description', use -f description=VALUE)",
      ],
      [['env', 'update', 'alpha', '--owner', 'ops'], "error: unknown option '--owner' (to set the field 'owner', use -f owner=ops)"],
      [['api', 'Environments', '--name', 'x'], "error: unknown option '--name' (to set the field 'name', use -f name=x)"],
      [
        ['env', 'delete', 'alpha', '--force'],
        "error: unknown option '--force' ('cip env delete' has no --force: --yes skips the question)",
      ],
      [['env', 'delete', 'alpha', '-f'], "error: unknown option '-f' ('cip env delete' has no -f: --yes skips the question)"],
      [
        ['env', 'apply', '--file', 'x.yaml', '--force', '--assume-yes'],
        "error: unknown option '--assume-yes' ('cip env apply' has no --assume-yes: --yes skips the question)",
      ],
      [
        ['env', 'list', '--format', 'json'],
        "error: unknown option '--format' ('cip env list' has no --format: --output chooses the format)",
      ],
      [
        ['env', 'update', 'alpha', 'description=foo'],
        "error: too many arguments for 'update' (fields are set with -f: -f description=foo)",
      ],
      [
        ['env', 'create', 'name=foo', 'isActive=true'],
        "error: too many arguments for 'create' (fields are set with -f: -f name=foo -F isActive=true)",
      ],
      [['api', 'Environments', 'name=x y'], "error: too many arguments for 'api' (fields are set with -f: -f 'name=x y')"],
      // A typo of an option is that option.
      [['env', 'create', '--dryrun'], "error: unknown option '--dryrun' (Did you mean --dry-run?)"],
      [['env', 'update', 'alpha', '--forse'], "error: unknown option '--forse' (Did you mean --force?)"],
    ])('%j', async ([args, line], { sandbox, cip }) => {
      const result = await cip(args, { env: sandboxEnv(sandbox) });
      expect(result).toEqual({ exitCode: 2, stdout: '', stderr: `${line}\n` });
      expect(sandbox.requests).toHaveLength(0);
    });

    it('never repeats a value that may be a secret, nor one that would reach the terminal as control characters', async ({
      sandbox,
      cip,
    }) => {
      for (const [args, shown] of [
        [['env', 'create', '--connection-string=Server=x;Password=hunter2'], 'connection-string=VALUE'],
        [['env', 'create', '--webhookToken', 'abc'], 'webhookToken=VALUE'],
        [['env', 'create', '--note', 'a\u001b[2Jb'], 'note=VALUE'],
        [['env', 'create', '--note', 'x'.repeat(65)], 'note=VALUE'],
        [['env', 'create', `authHeader=abc`], 'authHeader=VALUE'],
      ] as const) {
        const result = await cip([...args], { env: sandboxEnv(sandbox) });
        expect(result.exitCode, args.join(' ')).toBe(2);
        expect(result.stderr, args.join(' ')).toContain(`-f ${shown}`);
        expect(result.stderr).not.toMatch(/hunter2|abc|\u001b|x{65}/);
        expect(result.stderr.split('\n')).toHaveLength(2);
      }
    });

    it("the run's keys are redacted from a hint that repeats what was typed", async ({ sandbox, cip }) => {
      const result = await cip(['env', 'update', 'alpha', `description=${sandbox.keys.apiKey}`], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toBe("error: too many arguments for 'update' (fields are set with -f: -f description=***)\n");
    });

    it.for<[string[], string]>([
      [['env', 'update', 'alpha', '-f', 'a=b', '--yes'], "error: unknown option '--yes'"],
      [['api', 'Environments/e1', '-X', 'DELETE', '--force'], "error: unknown option '--force'"],
    ])("an option other tools have is no field: %j keeps commander's message", async ([args, line], { sandbox, cip }) => {
      const result = await cip(args, { env: sandboxEnv(sandbox) });
      expect(result).toEqual({ exitCode: 2, stdout: '', stderr: `${line}\n` });
      expect(sandbox.requests).toHaveLength(0);
    });

    it("a command that takes no fields keeps commander's own message", async ({ sandbox, cip }) => {
      const result = await cip(['env', 'get', 'alpha', '--name', 'x'], { env: sandboxEnv(sandbox) });
      expect(result).toEqual({ exitCode: 2, stdout: '', stderr: "error: unknown option '--name'\n" });
      const extra = await cip(['env', 'get', 'alpha', 'name=x'], { env: sandboxEnv(sandbox) });
      expect(extra).toEqual({
        exitCode: 2,
        stdout: '',
        stderr: "error: too many arguments for 'get'. Expected 1 argument but got 2: alpha, name=x.\n",
      });
    });
  });

  describe('format names and other choices, in any letter case', () => {
    it.for<[string]>([['JSON'], ['Json'], ['jSoN']])('-o %s is -o json, for every command', async ([format], { sandbox, cip }) => {
      const result = await cip(['env', 'list', '-o', format], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(0);
      expect((JSON.parse(result.stdout) as unknown[])[0]).toMatchObject({ id: 'e1' });
      // The value is the format's own name from then on: -o JSON agrees with --json.
      expect((await cip(['--json', '-o', format, 'env', 'list'], { env: sandboxEnv(sandbox) })).exitCode).toBe(0);
    });

    it('CIP_OUTPUT=YAML is yaml', async ({ sandbox, cip }) => {
      const result = await cip(['env', 'list'], { env: sandboxEnv(sandbox, { CIP_OUTPUT: 'YAML' }) });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toMatch(/^- id: "e1"\n/);
    });

    it.for<[string[], string]>([
      [
        ['-o', 'jsn'],
        "error: option '-o, --output <format>' argument 'jsn' is invalid. Allowed choices are table, json, yaml, tsv (Did you mean json?)",
      ],
      [
        ['-o', 'YML'],
        "error: option '-o, --output <format>' argument 'YML' is invalid. Allowed choices are table, json, yaml, tsv (Did you mean yaml?)",
      ],
      [
        ['-o', 'csv'],
        "error: option '-o, --output <format>' argument 'csv' is invalid. Allowed choices are table, json, yaml, tsv (Did you mean tsv?)",
      ],
      [['-o', 'xml'], "error: option '-o, --output <format>' argument 'xml' is invalid. Allowed choices are table, json, yaml, tsv."],
    ])('a near miss is exit 2 naming the format meant, nothing sent: %j', async ([flags, line], { sandbox, cip }) => {
      const result = await cip(['env', 'list', ...flags], { env: sandboxEnv(sandbox) });
      expect(result).toEqual({ exitCode: 2, stdout: '', stderr: `${line}\n` });
      expect(sandbox.requests).toHaveLength(0);
    });

    it('CIP_OUTPUT=jsn says which format it is near, nothing sent', async ({ sandbox, cip }) => {
      const result = await cip(['env', 'list'], { env: sandboxEnv(sandbox, { CIP_OUTPUT: 'jsn' }) });
      expect(result).toEqual({
        exitCode: 2,
        stdout: '',
        stderr: "error: CIP_OUTPUT must be one of table, json, yaml, tsv, not 'jsn' (Did you mean json?)\n",
      });
      expect(sandbox.requests).toHaveLength(0);
    });

    it("a command's own choices too: --if-missing OK, cip completion BASH", async ({ sandbox, cip }) => {
      const result = await cip(['env', 'delete', 'nope', '--if-missing', 'OK', '--yes'], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toContain("'nope' is no environment's id or name");
      const script = await cip(['completion', 'BASH']);
      expect(script.exitCode).toBe(0);
      expect(script.stdout).toBe((await cip(['completion', 'bash'])).stdout);
    });
  });
});

describe('output formats a command cannot honour', () => {
  // Which output formats each command takes, decided in one place (output/format.ts, from each declaration): a
  // format asked for on the command line that the command cannot honour is exit 2 naming what it writes, before
  // anything is sent; a CIP_OUTPUT it cannot honour is passed over, so one set for a whole CI job breaks nothing.

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
});

describe('platform features', () => {
  test.override({ sandboxOptions: EXACT_RECORDS_SANDBOX });

  describe('--jq', () => {
    it('prints strings raw and keeps numbers above 2^53 exact', async ({ env, cip }) => {
      const names = await cip(['env', 'list', '--jq', '.[].name'], { env });
      expect(names).toEqual({ exitCode: 0, stdout: 'alpha\nbeta\n', stderr: '' });
      const big = await cip(['env', 'get', 'alpha', '--jq', '.big'], { env });
      expect(big.stdout).toBe('12345678901234567890\n');
    });

    it('has real jq: select, map, string interpolation, @tsv and @csv', async ({ env, cip }) => {
      const tsv = await cip(['env', 'list', '--jq', '.[] | [.id, .name, .note] | @tsv'], { env });
      expect(tsv.stdout).toBe('e1\talpha\ttab\\there\ne2\tbeta\t\n');
      const csv = await cip(['env', 'list', '--jq', 'map(select(.settings)) | .[] | [.name, .settings.retention] | @csv'], { env });
      expect(csv.stdout).toBe('"alpha",30\n');
      const text = await cip(['env', 'list', '--jq', '.[] | "\\(.name) is \\(.id)"'], { env });
      expect(text.stdout).toBe('alpha is e1\nbeta is e2\n');
    });

    it('works on cip api answers too', async ({ env, cip }) => {
      const result = await cip(['api', 'Environments', '--jq', 'length'], { env });
      expect(result.stdout).toBe('2\n');
    });

    it("an invalid expression is exit 2 with jq's message, before anything is sent", async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'list', '--jq', '.[] |'], { env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toMatch(/^error: --jq: syntax error, unexpected end of file/);
      expect(sandbox.requests).toHaveLength(0);
    });

    it('disagrees with -o table', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'list', '--jq', '.', '-o', 'table'], { env });
      expect(result.exitCode).toBe(2);
      expect(sandbox.requests).toHaveLength(0);
    });
  });

  describe('-o tsv', () => {
    it('writes a header line and one line per item, nested values as compact JSON, numbers exact', async ({ env, cip }) => {
      const result = await cip(['env', 'list', '-o', 'tsv', '--columns', 'id,name,big,settings,note'], { env });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe(
        'id\tname\tbig\tsettings\tnote\ne1\talpha\t12345678901234567890\t{"retention":30}\ttab\\there\ne2\tbeta\t\t\t\n',
      );
    });

    it("--no-headers leaves the header out; without --columns the table's choice of columns is used", async ({ env, cip }) => {
      const result = await cip(['env', 'list', '-o', 'tsv', '--no-headers', '--columns', 'name'], { env });
      expect(result.stdout).toBe('alpha\nbeta\n');
      const chosen = await cip(['env', 'list', '-o', 'tsv'], { env });
      expect(chosen.stdout.split('\n')[0]).toBe('id\tname\tbig\tnote\tsettings');
    });

    it('works for one record', async ({ env, cip }) => {
      const result = await cip(['env', 'get', 'beta', '-o', 'tsv'], { env });
      expect(result.stdout).toBe('id\tname\ne2\tbeta\n');
    });

    it("escapes as jq 1.8's @tsv does: tab, newline, carriage return, backslash and NUL, nothing else", async ({ sandbox, env, cip }) => {
      sandbox.environments.set('e3', { id: 'e3', name: 'gamma', note: 'nul\0tab\tnl\ncr\rbs\\soh\u0001del\u007f' });
      const tsv = await cip(['env', 'list', '-o', 'tsv', '--no-headers', '--columns', 'id,name,note'], { env });
      expect(tsv.stdout.split('\n')[2]).toBe('e3\tgamma\tnul\\0tab\\tnl\\ncr\\rbs\\\\soh\u0001del\u007f');
      const jq = await cip(['env', 'list', '--jq', '.[] | [.id, .name, .note] | @tsv'], { env });
      expect(tsv.stdout).toBe(jq.stdout);
    });
  });
});

describe('the program at its edges', () => {
  // The command tree as a user meets it (src/program.ts, src/cli/globals.ts): what help shows and how wide,
  // commander's own usage errors on one line, empty and out-of-range option values, and options that disagree.

  test.override({ sandboxOptions: { seed: [{ id: 'e1', name: 'alpha' }] } });

  const SRC = join(import.meta.dirname, '../../src');

  const LAST_GLOBAL_OPTION = '  --no-headers            leave out the header line of -o tsv\n';

  const POINTER = "Global options (--profile, --output, --json, --jq, ...): see 'cip help globals'.\n";

  it('cip completion bash writes a script for the whole command tree', async ({ cip }) => {
    const result = await cip(['completion', 'bash']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^# bash completion for cip\./);
    for (const word of ['auth', 'env', 'apply', 'sandbox', 'doctor']) expect(result.stdout).toContain(word);
  });

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
});

describe('the everyday workflow', () => {
  // Read as JSON texts, so the store keeps the exact digits as the sandbox parses them.
  test.override({ sandboxOptions: NAMED_SANDBOX });

  describe('--verbose', () => {
    it('logs request and response bodies, keys redacted, long ones cut', async ({ sandbox, env, cip }) => {
      const long = 'x'.repeat(2500);
      const result = await cip(['env', 'create', '-f', `name=${long}`, '-f', `note=${sandbox.keys.apiKey}`, '--verbose'], { env });
      expect(result.exitCode).toBe(0);
      const requestBody = result.stderr.split('\n').find((line) => line.startsWith('>   body: '))!;
      expect(requestBody).toBe(`>   body: {"name":"${'x'.repeat(2000 - 9)}… (2547 characters in all)`);
      const answerBody = result.stderr.split('\n').find((line) => line.startsWith('<   body: '))!;
      expect(answerBody).toMatch(/^< {3}body: \{.*… \(\d+ characters in all\)$/);
      expect(result.stderr).not.toContain(sandbox.keys.apiKey);
    });

    it('logs the headers as they are sent, accept-encoding among them', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'list', '--verbose'], { env });
      expect(result.exitCode).toBe(0);
      expect(sandbox.requests.at(-1)!.headers['accept-encoding']).toBe('gzip, deflate, br');
      expect(result.stderr).toContain('\n>   accept-encoding: gzip, deflate, br\n');
      expect(result.stderr).toContain('\n>   ocp-apim-subscription-key: ***\n');
      expect(result.stderr).not.toContain(sandbox.keys.subscriptionKey);
    });
  });
});
