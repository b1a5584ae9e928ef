// What Tab puts on a real shell's command line for environment names that mean something to a shell. Anyone
// who can name an environment must not be able to plant a command on a user's line: `cip env get ev<Tab>` for
// an environment named `evil;id` must insert a word that passes `evil;id` as one argument and runs nothing.
// Each shell runs interactively on a pseudo-terminal (util-linux `script`), with the committed script loaded,
// `cip` a function that prints its arguments (and calls the real cip for `__complete`), and `id` a function
// that says if it ran. The environments come from the sandbox.
import { execa, execaSync } from 'execa';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { CIP, sandboxEnv, shellQuote, tempDir } from '../helpers/cli.js';
import { test } from '../helpers/fixture.js';
import { HOSTILE_NAMES } from '../helpers/hostile-names.js';

const SCRIPT = '/usr/bin/script';
const COMPLETIONS = fileURLToPath(new URL('../../completions/', import.meta.url));
const installed = (name: string) => execaSync('sh', ['-c', `command -v ${name}`], { reject: false }).exitCode === 0;

/** What is typed before Tab, and the one argument the completed word must be. */
const CASES: [typed: string, name: string][] = [
  ...HOSTILE_NAMES,
  // Two names that share a start: Tab inserts the shared part, which must be quoted too.
  ['pre', 'pre;id '],
];
const NAMES = [...CASES.map(([, name]) => name).filter((name) => name !== 'pre;id '), 'pre;id one', 'pre;id two'];

/** A home with a `cip` on PATH that runs the built program, and the variables a shell there runs with. */
interface Shell {
  home: string;
  env: Record<string, string>;
}

// Each test gets a sandbox of its own holding NAMES (test/helpers/fixture.ts), and a shell home pointed at it.
const it = test.extend<{ shell: Shell }>({
  shell: async ({ sandbox }, use) => {
    const home = tempDir();
    mkdirSync(join(home, 'bin'));
    writeFileSync(join(home, 'bin', 'cip'), `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(CIP)} "$@"\n`, { mode: 0o755 });
    const configDir = join(home, 'config');
    mkdirSync(configDir);
    chmodSync(configDir, 0o700);
    await use({
      home,
      env: {
        ...(sandboxEnv(sandbox) as Record<string, string>),
        PATH: `${join(home, 'bin')}:${process.env.PATH ?? ''}`,
        HOME: home,
        CIP_CONFIG_DIR: configDir,
        TERM: 'dumb',
        LANG: 'C.UTF-8',
        LC_ALL: 'C.UTF-8',
      },
    });
  },
});
it.override({ sandboxOptions: { seed: NAMES.map((name, index) => ({ id: `e${String(index)}`, name })) } });

/** Types each case's line, Tab and Enter into an interactive shell; returns what the shell printed. */
async function typeInto({ home, env }: Shell, command: string): Promise<string> {
  // The names are fetched once here and cached for a minute, so no Tab waits on the API on a busy machine.
  const warm = await execa('cip', ['__complete', 'environments'], { env, extendEnv: false, reject: false });
  expect(warm.stdout.split('\n')).toEqual(expect.arrayContaining(NAMES));
  const lines = CASES.map(([typed]) => `cip env get ${typed}\t\r`).join('');
  const result = await execa(SCRIPT, ['-qfec', command, '/dev/null'], {
    env,
    extendEnv: false,
    cwd: home,
    reject: false,
    input: `${lines}exit\r`,
    timeout: 90_000,
  });
  expect(result.exitCode).toBe(0);
  return result.stdout.replace(/\r/g, '');
}

/** The arguments each run of the `cip` function received, one list per line typed. */
function argumentsSeen(output: string): string[][] {
  const runs: string[][] = [];
  for (const [, argument] of output.matchAll(/^ARG<(.*)>$/gmu)) {
    if (argument === 'env') runs.push([]);
    runs.at(-1)?.push(argument!);
  }
  return runs;
}

const EXPECTED = CASES.map(([, name]) => ['env', 'get', name]);

describe.skipIf(!existsSync(SCRIPT))('Tab on a real command line', () => {
  it('bash inserts each name quoted: it reaches cip as one argument, and nothing else runs', async ({ shell }) => {
    const rc = join(shell.home, 'bashrc');
    writeFileSync(
      rc,
      [
        `source ${shellQuote(join(COMPLETIONS, 'cip.bash'))}`,
        `cip() { if [[ $1 == __complete ]]; then command cip "$@"; else printf 'ARG<%s>\\n' "$@"; fi; }`,
        'id() { echo PLANTED; }',
        "PS1='$ '",
      ].join('\n'),
    );
    const output = await typeInto(shell, `bash --rcfile ${shellQuote(rc)} -i`);
    expect(output).not.toContain('PLANTED');
    expect(argumentsSeen(output)).toEqual(EXPECTED);
  }, 120_000);

  it.skipIf(!installed('zsh'))(
    'zsh inserts each name quoted (compadd quotes)',
    async ({ shell }) => {
      const zdot = join(shell.home, 'zsh');
      mkdirSync(zdot, { recursive: true });
      writeFileSync(
        join(zdot, '.zshrc'),
        [
          'autoload -U compinit && compinit -u -D',
          `source ${shellQuote(join(COMPLETIONS, '_cip'))}`,
          `cip() { if [[ $1 == __complete ]]; then command cip "$@"; else printf 'ARG<%s>\\n' "$@"; fi; }`,
          'id() { echo PLANTED; }',
          "PS1='$ '",
        ].join('\n'),
      );
      const output = await typeInto(shell, `ZDOTDIR=${shellQuote(zdot)} zsh -i`);
      expect(output).not.toContain('PLANTED');
      expect(argumentsSeen(output)).toEqual(EXPECTED);
    },
    120_000,
  );

  it.skipIf(!installed('fish'))(
    'fish inserts each name escaped',
    async ({ shell }) => {
      const rc = join(shell.home, 'rc.fish');
      writeFileSync(
        rc,
        [
          `source ${shellQuote(join(COMPLETIONS, 'cip.fish'))}`,
          `function cip; if test "$argv[1]" = __complete; command cip $argv; else; printf 'ARG<%s>\\n' $argv; end; end`,
          'function id; echo PLANTED; end',
          "function fish_prompt; echo '$ '; end",
        ].join('\n'),
      );
      const output = await typeInto(shell, `fish --no-config -C ${shellQuote(`source ${shellQuote(rc)}`)} -i`);
      expect(output).not.toContain('PLANTED');
      expect(argumentsSeen(output)).toEqual(EXPECTED);
    },
    120_000,
  );
});
