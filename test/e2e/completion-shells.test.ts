// Shell completion through the built program: the committed scripts are what `cip completion` prints, and the
// shells installed here really complete with them (bash always; zsh and fish when present; PowerShell in
// completion-powershell.test.ts), asking the installed cip for profile names (`cip __complete profiles`). How the
// scripts are generated is in test/unit/completion/.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, execaSync } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCompletion } from '../../src/completion/index.js';
import { SHELLS, type Shell } from '../../src/completion/shells.js';
import { buildProgram } from '../../src/program.js';
import { CIP, shellQuote } from '../helpers/cli.js';
import { fakeIO, testContext } from '../helpers/io.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FILES: Record<Shell, string> = { bash: 'cip.bash', zsh: '_cip', fish: 'cip.fish', powershell: 'cip.ps1' };

const hasBash = existsSync('/bin/bash');
const installed = (name: string) => execaSync('sh', ['-c', `command -v ${name}`], { reject: false }).exitCode === 0;
const hasZsh = installed('zsh');
const hasFish = installed('fish');

const program = (version = '0.0.0') => buildProgram(testContext(fakeIO(), {}, version));

// A temp home: bin/cip on PATH (so scripts can call `cip __complete`), a config with two profiles, a file to find.
let home: string;
let configDir: string;
let env: Record<string, string>;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'cip-completion-'));
  mkdirSync(join(home, 'bin'));
  writeFileSync(join(home, 'bin', 'cip'), `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(CIP)} "$@"\n`, { mode: 0o755 });
  configDir = join(home, 'config');
  mkdirSync(configDir, { mode: 0o700 });
  const profile = { enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b', apiKey: 'api-key', subscriptionKey: 'sub-key' };
  writeFileSync(join(configDir, 'config.json'), JSON.stringify({ activeProfile: 'dev', profiles: { dev: profile, prod: profile } }));
  writeFileSync(join(home, 'payload.json'), '{}');
  for (const shell of SHELLS) writeFileSync(join(home, FILES[shell]), generateCompletion(program(), shell));
  env = { PATH: `${join(home, 'bin')}:${process.env.PATH ?? ''}`, HOME: home, CIP_CONFIG_DIR: configDir };
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

function runCip(args: string[], extraEnv: Record<string, string> = {}) {
  return execa(process.execPath, [CIP, ...args], {
    env: { ...env, ...extraEnv },
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    stdin: 'ignore',
  });
}

describe('committed completion scripts', () => {
  it.each(SHELLS)('completions for %s are what `cip completion` prints', async (shell) => {
    const result = await runCip(['completion', shell]);
    expect(result.exitCode).toBe(0);
    const path = join(ROOT, 'completions', FILES[shell]);
    const committed = existsSync(path) ? readFileSync(path, 'utf8') : '';
    expect(result.stdout, `completions/${FILES[shell]} is stale: run \`npm run completions\``).toBe(committed);
  });
});

describe.skipIf(!hasBash)('bash completion', () => {
  /** Runs the completion function on the words of a command line (the last one is under the cursor). */
  async function complete(...words: string[]): Promise<string[]> {
    const result = await execa(
      '/bin/bash',
      [
        '-c',
        'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _cip; printf "%s\\n" "${COMPREPLY[@]}"',
        'bash',
        join(home, FILES.bash),
        ...words,
      ],
      { env, extendEnv: false, reject: false, cwd: home },
    );
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    return result.stdout.split('\n').filter(Boolean);
  }

  it('completes commands and subcommands', async () => {
    expect(await complete('cip', 'en')).toEqual(['env']);
    expect(await complete('cip', 'env', '')).toEqual(expect.arrayContaining(['list', 'create', 'update', 'delete']));
    expect(await complete('cip', 'auth', 's')).toEqual(['status', 'switch']);
    expect(await complete('cip', 'auth', '')).toEqual(expect.arrayContaining(['use', 'switch']));
  });

  it('does not offer the hidden __complete command', async () => {
    expect(await complete('cip', '')).not.toContain('__complete');
    expect(await complete('cip', '__')).toEqual([]);
  });

  it('completes the output formats, also after =', async () => {
    expect(await complete('cip', '-o', '')).toEqual(['table', 'json', 'yaml', 'tsv']);
    expect(await complete('cip', 'env', 'list', '--output', '=', 'j')).toEqual(['json']);
  });

  it('completes profile names for auth use (and its old name, switch) and --profile', async () => {
    expect(await complete('cip', 'auth', 'use', '')).toEqual(['dev', 'prod']);
    expect(await complete('cip', 'auth', 'switch', '')).toEqual(['dev', 'prod']);
    expect(await complete('cip', 'auth', 'us')).toEqual(['use']);
    expect(await complete('cip', 'auth', 'u')).toEqual(['use', 'unprotect']);
    expect(await complete('cip', '-p', 'p')).toEqual(['prod']);
  });

  it('completes shell names for completion', async () => {
    expect(await complete('cip', 'completion', '')).toEqual(['bash', 'zsh', 'fish', 'powershell']);
  });

  it("completes a command's own options and the global ones", async () => {
    expect(await complete('cip', 'env', 'ls', '--c')).toEqual(['--columns']);
    expect(await complete('cip', 'env', 'create', '-f', 'name=x', '--js')).toEqual(['--json']);
  });

  it('skips option values when finding the command', async () => {
    expect(await complete('cip', '-p', 'env', '')).toEqual(['auth', 'env', 'api', 'doctor', 'completion', 'sandbox', 'help']);
  });

  it('completes file names for --file', async () => {
    expect(await complete('cip', 'env', 'create', '--file', 'pay')).toEqual(['payload.json']);
  });
});

describe.skipIf(!hasZsh)('zsh completion', () => {
  it('parses and registers _cip for cip', async () => {
    const file = join(home, FILES.zsh);
    expect((await execa('zsh', ['-n', file], { reject: false })).exitCode).toBe(0);
    const result = await execa(
      'zsh',
      ['-f', '-c', 'autoload -U compinit && compinit -u -D && source "$1" && print -r -- "$_comps[cip]"', 'zsh', file],
      {
        env,
        extendEnv: false,
        reject: false,
      },
    );
    expect(result.stdout.trim()).toBe('_cip');
  });
});

describe.skipIf(!hasFish)('fish completion', () => {
  async function complete(line: string): Promise<string[]> {
    const result = await execa('fish', ['-c', 'source $CIP_TEST_SCRIPT; complete -C "$CIP_TEST_LINE"'], {
      env: { ...env, CIP_TEST_SCRIPT: join(home, FILES.fish), CIP_TEST_LINE: line },
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode).toBe(0);
    return result.stdout
      .split('\n')
      .filter(Boolean)
      .map((candidate) => candidate.split('\t')[0]!);
  }

  it('completes commands, output formats, profiles and shells', async () => {
    expect(await complete('cip en')).toEqual(['env']);
    expect(await complete('cip env ')).toEqual(expect.arrayContaining(['list', 'create', 'update', 'delete']));
    expect(await complete('cip -o ')).toEqual(expect.arrayContaining(['table', 'json']));
    expect(await complete('cip auth switch ')).toEqual(expect.arrayContaining(['dev', 'prod']));
    expect(await complete('cip completion ')).toEqual(expect.arrayContaining(['bash', 'zsh', 'fish']));
  });
});

describe('cip __complete profiles', () => {
  it('prints each profile name on its own line', async () => {
    const result = await runCip(['__complete', 'profiles']);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'dev\nprod\n', stderr: '' });
  });

  it('prints nothing for a broken config file, and succeeds', async () => {
    const broken = mkdtempSync(join(home, 'broken-'));
    writeFileSync(join(broken, 'config.json'), '{"profiles": ');
    const result = await runCip(['__complete', 'profiles'], { CIP_CONFIG_DIR: broken });
    expect(result).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('prints nothing without a config file, or for values it does not know', async () => {
    expect(await runCip(['__complete', 'profiles'], { CIP_CONFIG_DIR: join(home, 'none') })).toMatchObject({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
    expect(await runCip(['__complete', 'nothing-such'])).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
  });
});
