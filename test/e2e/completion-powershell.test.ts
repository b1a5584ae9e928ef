// PowerShell completion, driven for real: pwsh loads the completer as the README says, and TabExpansion2 (what
// Tab calls) completes each line; the test asserts what PowerShell would insert. Environment names that mean
// something to PowerShell come from the sandbox: a completed name must reach cip as one argument, and nothing
// in it may run, when completed or when the line is then run (`id` is a function that counts its calls).
// One pwsh runs every case (test/helpers/pwsh-complete.ps1): it takes a second to start.
import { execa } from 'execa';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { CIP, sandboxEnv, tempDir } from '../helpers/cli.js';
import { NO_PWSH_MESSAGE, findPwsh } from '../helpers/pwsh.js';
import { HOSTILE_NAMES } from '../helpers/hostile-names.js';

const PWSH = findPwsh();
const DRIVER = fileURLToPath(new URL('../helpers/pwsh-complete.ps1', import.meta.url));
const shQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** What is typed before Tab, and the one name it must complete to: the names every shell gets, and PowerShell's own. */
const HOSTILE: [typed: string, name: string][] = [
  ...HOSTILE_NAMES,
  // PowerShell reads the typographic quotes as quotes too: a name that closes its quotes with one runs `id`.
  ['sm', 'sm’;id;’'],
  ['br', 'br[a]ck'],
  // @ starts a splat: a name that starts with it is typed in quotes.
  ["'@", '@(id)'],
  ['cu', 'cu{id}'],
  ['co', 'co,mma'],
  ['~', '~/tilde'],
];
/** Two names that share a start: each is offered, quoted. */
const SHARED = ['pre;id one', 'pre;id two'];
const PLAIN = ['plain-name.1'];
const NAMES = [...HOSTILE.map(([, name]) => name), ...SHARED, ...PLAIN];

interface Match {
  text: string;
  list: string;
  type: string;
  tip: string;
}
interface Completed {
  line: string;
  matches: Match[];
  runs: { line: string; output: string[] }[];
}
interface Case {
  line: string;
  run?: boolean;
}

const CASES: Case[] = [
  { line: 'cip ' },
  { line: 'cip en' },
  { line: '$null = 1; cip en' },
  { line: 'cip env ' },
  { line: 'cip auth s' },
  { line: 'cip auth u' },
  { line: 'cip __' },
  { line: 'cip -o ' },
  { line: 'cip env list --output j' },
  { line: 'cip env list --output=j' },
  { line: 'cip auth use ' },
  { line: 'cip auth switch ' },
  { line: 'cip -p p' },
  { line: 'cip env list --profile ' },
  { line: 'cip completion ' },
  { line: 'cip env ls --c' },
  { line: 'cip env create -f name=x --js' },
  { line: 'cip env create -F' },
  { line: 'cip -p env ' },
  { line: 'cip -p dev env g' },
  { line: 'cip env create --if-exists ' },
  { line: 'cip env create --file pay' },
  { line: 'cip env get ' },
  { line: "cip env get 'ha" },
  { line: 'cip env get "ev' },
  { line: 'cip env get pl', run: true },
  { line: 'cip env rm plain-name.1 ha' },
  { line: 'cip env get plain-name.1 ' },
  ...HOSTILE.map(([typed]) => ({ line: `cip env get ${typed}`, run: true })),
  { line: 'cip env get pre', run: true },
];

let sandbox: Sandbox;
let results: Map<string, Completed>;
let planted: number;

const completed = (line: string): Completed => {
  const result = results.get(line);
  if (!result) throw new Error(`no result for ${line}`);
  return result;
};
/** What Tab offers for a line, as it would be inserted. */
const offered = (line: string) => completed(line).matches.map((match) => match.text);

if (!PWSH) it.skip(`PowerShell completion (${NO_PWSH_MESSAGE})`, () => undefined);

// One sandbox for the file, not the fixture's one a test: every case reads the results of one pwsh run (pwsh takes
// seconds to start), which completed against this sandbox, and no case changes it.
describe.skipIf(!PWSH)('PowerShell completion (pwsh, TabExpansion2)', () => {
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 0 });
    sandbox.environments.clear();
    NAMES.forEach((name, index) => sandbox.environments.set(`e${String(index)}`, { id: `e${String(index)}`, name }));
    const home = tempDir();
    mkdirSync(join(home, 'bin'));
    // cip on PATH, a native command as PowerShell users have it; with CIP_ECHO_ARGS it prints its arguments instead.
    writeFileSync(
      join(home, 'bin', 'cip'),
      [
        '#!/bin/sh',
        `if [ -n "$CIP_ECHO_ARGS" ]; then for a; do printf 'ARG<%s>\\n' "$a"; done; exit 0; fi`,
        `exec ${shQuote(process.execPath)} ${shQuote(CIP)} "$@"`,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    const configDir = join(home, 'config');
    mkdirSync(configDir, { mode: 0o700 });
    const profile = { enterpriseId: sandbox.keys.enterpriseId, apiKey: 'api-key', subscriptionKey: 'sub-key' };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ activeProfile: 'dev', profiles: { dev: profile, prod: profile } }));
    writeFileSync(join(home, 'payload.json'), '{}');
    // Files that an unquoted star* or br[a]ck would name instead (PowerShell expands wildcards for a native command).
    writeFileSync(join(home, 'star.txt'), '');
    writeFileSync(join(home, 'brack'), '');
    writeFileSync(join(home, 'cases.json'), JSON.stringify(CASES));
    const env = {
      ...(sandboxEnv(sandbox) as Record<string, string>),
      PATH: `${join(home, 'bin')}:${process.env.PATH ?? ''}`,
      HOME: home,
      CIP_CONFIG_DIR: configDir,
      CIP_PS_CASES: join(home, 'cases.json'),
      CIP_PS_RESULT: join(home, 'result.json'),
      LANG: 'C.UTF-8',
      DOTNET_CLI_TELEMETRY_OPTOUT: '1',
      POWERSHELL_TELEMETRY_OPTOUT: '1',
      POWERSHELL_UPDATECHECK: 'Off',
    };
    // The names are fetched once here and cached for a minute, so no Tab waits on the API on a busy machine.
    const warm = await execa('cip', ['__complete', 'environments'], { env, extendEnv: false, reject: false });
    expect(warm.stdout.split('\n')).toEqual(expect.arrayContaining(NAMES));
    const result = await execa(PWSH!, ['-NoLogo', '-NoProfile', '-NonInteractive', '-File', DRIVER], {
      env,
      extendEnv: false,
      cwd: home,
      reject: false,
      timeout: 150_000,
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const parsed = JSON.parse(readFileSync(join(home, 'result.json'), 'utf8')) as { cases: Completed[]; planted: number };
    results = new Map(parsed.cases.map((entry) => [entry.line, entry]));
    planted = parsed.planted;
  }, 180_000);

  afterAll(() => sandbox?.close());

  it('completes commands and subcommands, aliases too', () => {
    expect(offered('cip en')).toEqual(['env']);
    // cip after another statement: the completer reads the words by their place in the whole line
    expect(offered('$null = 1; cip en')).toEqual(['env']);
    expect(offered('cip env ')).toEqual(expect.arrayContaining(['list', 'ls', 'create', 'update', 'delete', 'rm']));
    expect(offered('cip auth s')).toEqual(['status', 'switch']);
    expect(offered('cip auth u')).toEqual(['use', 'unprotect']);
    expect(offered('cip -p env ')).toEqual(['auth', 'env', 'api', 'doctor', 'completion', 'sandbox', 'help']);
    expect(offered('cip -p dev env g')).toEqual(['get']);
  });

  it('does not offer the hidden __complete command', () => {
    expect(offered('cip ')).not.toContain('__complete');
    expect(offered('cip __')).toEqual([]);
  });

  it("completes a command's own options and the global ones, with what each is for", () => {
    expect(offered('cip env ls --c')).toEqual(['--columns']);
    expect(offered('cip env create -f name=x --js')).toEqual(['--json']);
    // -F and -f are two options: Tab keeps them apart.
    expect(offered('cip env create -F')).toEqual(['-F']);
    expect(completed('cip env ls --c').matches[0]).toMatchObject({
      type: 'ParameterName',
      tip: expect.stringContaining('comma-separated'),
    });
  });

  it('completes the output formats, after the option or after =', () => {
    expect(offered('cip -o ')).toEqual(['table', 'json', 'yaml', 'tsv']);
    expect(offered('cip env list --output j')).toEqual(['json']);
    expect(offered('cip env list --output=j')).toEqual(['--output=json']);
    expect(offered('cip env create --if-exists ')).toEqual(['fail', 'skip', 'update']);
  });

  it('completes profile names for auth use (and its old name, switch) and --profile', () => {
    expect(offered('cip auth use ')).toEqual(['dev', 'prod']);
    expect(offered('cip auth switch ')).toEqual(['dev', 'prod']);
    expect(offered('cip -p p')).toEqual(['prod']);
    expect(offered('cip env list --profile ')).toEqual(['dev', 'prod']);
  });

  it('completes the shells for completion', () => {
    expect(offered('cip completion ')).toEqual(['bash', 'zsh', 'fish', 'powershell']);
  });

  it('leaves file names to PowerShell for --file', () => {
    expect(offered('cip env create --file pay')).toEqual(['./payload.json']);
  });

  it('completes environment ids and names, each quoted where PowerShell needs it', () => {
    const all = offered('cip env get ');
    expect(all).toEqual(expect.arrayContaining(['e0', 'plain-name.1', "'has space'", "'evil;id'", "'quo''te'", "'sm’’;id;’’'"]));
    expect(completed('cip env get ').matches.map((match) => match.list)).toEqual(expect.arrayContaining(NAMES));
    // every argument of env delete (rm) is one
    expect(offered('cip env rm plain-name.1 ha')).toEqual(["'has space'"]);
    // env get takes one
    expect(offered('cip env get plain-name.1 ')).not.toContain("'has space'");
  });

  it('completes a name typed in quotes', () => {
    expect(offered("cip env get 'ha")).toEqual(["'has space'"]);
    expect(offered('cip env get "ev')).toEqual(["'evil;id'"]);
  });

  it('inserts a plain name as it is', () => {
    expect(offered('cip env get pl')).toEqual(['plain-name.1']);
    expect(completed('cip env get pl').runs).toEqual([
      { line: 'cip env get plain-name.1', output: ['ARG<env>', 'ARG<get>', 'ARG<plain-name.1>'] },
    ]);
  });

  it.each(HOSTILE)('%s completes to %s: one argument when run, and nothing else runs', (typed, name) => {
    const result = completed(`cip env get ${typed}`);
    expect(result.matches).toHaveLength(1);
    expect(result.matches[0]!.list).toBe(name);
    expect(result.runs.map((run) => run.output)).toEqual([['ARG<env>', 'ARG<get>', `ARG<${name}>`]]);
  });

  it('offers each of two names that share a start, quoted', () => {
    expect(offered('cip env get pre')).toEqual(["'pre;id one'", "'pre;id two'"]);
    expect(completed('cip env get pre').runs.map((run) => run.output)).toEqual(
      SHARED.map((name) => ['ARG<env>', 'ARG<get>', `ARG<${name}>`]),
    );
  });

  it('never ran id: not while completing, not when the completed lines ran', () => {
    expect(planted).toBe(0);
  });
});
