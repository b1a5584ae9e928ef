// The small things a new user hits in the first minutes: help, typos, a first login, conflicting flags and
// the record view on a narrow terminal.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { expectOneErrorLine, loginArgs, readConfig, sandboxEnv, tempDir } from '../helpers/cli.js';
import { refusedUrl } from '../helpers/ports.js';
import { it, test } from '../helpers/fixture.js';

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
  it.for<[string[]]>([[[]], [['--json']], [['--verbose']]])('%j prints a short overview on stdout and exits 0', async ([args], { cip }) => {
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
  });

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

describe('auth login: what a failed check points at', () => {
  it('a network failure says to check the base URL and the network, not the keys', async ({ sandbox, cip }) => {
    const url = await refusedUrl('/ms');
    const configDir = tempDir();
    const args = loginArgs(sandbox).map((arg) => (arg === sandbox.url ? url : arg));
    const result = await cip(args, { configDir });
    expect(result.exitCode).toBe(8);
    const line = expectOneErrorLine(result.stderr);
    expect(line).toMatch(
      new RegExp(
        `\\(nothing was saved; check the base URL \\(${url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\) and the network, or pass --no-verify to save them unchecked\\)$`,
      ),
    );
    expect(line).not.toContain('check the keys');
    expect(readConfig(configDir)).toBeUndefined();
  });

  it('a 401 says to check the keys', async ({ sandbox, cip }) => {
    const args = loginArgs(sandbox);
    const keyFile = args[args.indexOf('--api-key-file') + 1]!;
    writeFileSync(keyFile, 'wrong-api-key-000000000000');
    const result = await cip(args);
    expect(result.exitCode).toBe(3);
    expect(expectOneErrorLine(result.stderr)).toMatch(
      /\(nothing was saved; check the keys at https:\/\/app\.copyl\.com\/en\/itops\/secrets, or pass --no-verify to save them unchecked\)$/,
    );
  });

  it('a 404 says to check the base URL, not the keys', async ({ sandbox, cip }) => {
    const args = loginArgs(sandbox);
    args[args.indexOf('--base-url') + 1] = `${sandbox.url}/nothing-here`;
    const result = await cip(args);
    expect(result.exitCode).toBe(5);
    expect(expectOneErrorLine(result.stderr)).toContain(
      `(nothing was saved; check the base URL (${sandbox.url}/nothing-here) and the enterprise id, or pass --no-verify to save them unchecked)`,
    );
  });

  // The harness keeps keys in the file (CIP_CREDENTIAL_STORE=file), which login says after its line.
  const plainText = (configDir: string) =>
    `warning: the keys of profile 'default' are stored in plain text in ${join(configDir, 'config.json')} (CIP_CREDENTIAL_STORE=file)\n`;

  it('--no-verify says the profile was saved without a check', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    const result = await cip(loginArgs(sandbox, ['--no-verify']), { configDir });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(
      `Saved (not checked): profile 'default' (enterprise ${sandbox.keys.enterpriseId}, ${sandbox.url}) is active.\n${plainText(configDir)}`,
    );
    expect(sandbox.requests).toHaveLength(0);
  });

  it('a checked login still says Logged in', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    const result = await cip(loginArgs(sandbox), { configDir });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(
      `Logged in: profile 'default' (enterprise ${sandbox.keys.enterpriseId}, ${sandbox.url}) is active.\n${plainText(configDir)}`,
    );
  });
});

describe('auth status with no profile', () => {
  it('at a terminal is one error line that says how to log in, exit 3', async ({ cip }) => {
    const result = await cip(['auth', 'status'], { terminalColumns: 100 });
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      "error: not logged in: no profile and no credentials in the environment (run 'cip auth login', or set CIP_API_KEY, CIP_SUBSCRIPTION_KEY and CIP_ENTERPRISE_ID)\n",
    );
  });

  it('as JSON is still the (empty) list, then the error', async ({ cip }) => {
    const result = await cip(['auth', 'status', '--json']);
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toBe('[]\n');
    expect(expectOneErrorLine(result.stderr)).toMatch(/^error: not logged in: /);
  });
});

describe('prompts under CI', () => {
  it('at a terminal with CI set, login says prompts are off under CI, not that there is no terminal', async ({ sandbox, cip }) => {
    const result = await cip(['auth', 'login', '--base-url', sandbox.url], { env: { CI: 'true' }, interactive: true });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      'error: missing enterprise id (--enterprise-id or CIP_ENTERPRISE_ID), API key (--api-key-file or CIP_API_KEY), subscription key (--subscription-key-file or CIP_SUBSCRIPTION_KEY) (prompts are off under CI; find your keys at https://app.copyl.com/en/itops/secrets)',
    );
  });

  it('without a terminal, it says there is no terminal to ask', async ({ sandbox, cip }) => {
    const result = await cip(['auth', 'login', '--base-url', sandbox.url]);
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(/\(there is no terminal to ask; find your keys at /);
  });

  it('at a terminal under --quiet, it says prompts are off under --quiet', async ({ sandbox, cip }) => {
    const result = await cip(['auth', 'login', '--quiet', '--base-url', sandbox.url], { interactive: true });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(/\(prompts are off under --quiet; find your keys at /);
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

describe('the record view keeps the id whole', () => {
  it.for([20, 40, 60])('at %i columns: on one line, nothing cut, other values still wrapped', async (columns, { sandbox, cip }) => {
    const result = await cip(['env', 'create', '-f', 'name=staging', '-f', 'description=a longer description of this environment'], {
      env: sandboxEnv(sandbox, { NO_COLOR: '1' }),
      terminalColumns: columns,
    });
    expect(result.exitCode).toBe(0);
    const id = /\(([0-9a-f-]{36})\)/.exec(result.stderr)?.[1];
    expect(id).toBeDefined();
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`id           ${id!}`);
    expect(result.stdout).not.toContain('…');
    expect(lines.slice(1).every((line) => line.length <= Math.max(columns, 'description  '.length + 10))).toBe(true);
    expect(lines.some((line) => line.startsWith('description  a longer'))).toBe(true);
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
    [['env', 'delete', 'alpha', '--force'], "error: unknown option '--force' ('cip env delete' has no --force: --yes skips the question)"],
    [['env', 'delete', 'alpha', '-f'], "error: unknown option '-f' ('cip env delete' has no -f: --yes skips the question)"],
    [
      ['env', 'apply', '--file', 'x.yaml', '--force', '--assume-yes'],
      "error: unknown option '--assume-yes' ('cip env apply' has no --assume-yes: --yes skips the question)",
    ],
    [['env', 'list', '--format', 'json'], "error: unknown option '--format' ('cip env list' has no --format: --output chooses the format)"],
    [['env', 'update', 'alpha', 'description=foo'], "error: too many arguments for 'update' (fields are set with -f: -f description=foo)"],
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
