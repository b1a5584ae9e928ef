// `cip completion <shell>` in-process: it prints exactly the script committed under completions/ (the one
// packaged and documented), with the values each option and argument is completed from.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixture.js';

const COMMITTED = { bash: 'cip.bash', zsh: '_cip', fish: 'cip.fish', powershell: 'cip.ps1' } as const;
const committed = (shell: keyof typeof COMMITTED) =>
  readFileSync(fileURLToPath(new URL(`../../completions/${COMMITTED[shell]}`, import.meta.url)), 'utf8');

describe.each(Object.keys(COMMITTED) as (keyof typeof COMMITTED)[])('cip completion %s', (shell) => {
  it('prints the committed script, and nothing on stderr', async ({ cip }) => {
    expect(await cip(['completion', shell])).toEqual({ exitCode: 0, stdout: committed(shell), stderr: '' });
  });
});

// What each shell does with the values the command tree knows: profiles, environments, files, choices.
const LINES: Record<keyof typeof COMMITTED, string[]> = {
  bash: [
    `    */-p|*/--profile) __cip_profiles "$3" ;;`,
    `    */-o|*/--output) __cip_words "$3" table json yaml tsv ;;`,
    `    'cip env create'/--file|'cip env create '*/--file) __cip_files "$3" ;;`,
    `    'cip env get/0') __cip_environments "$3" ;;`,
    `    'cip env delete/'*) __cip_environments "$3" ;;`,
    `    'cip auth use/0') __cip_profiles "$3" ;;`,
    `    'cip completion/0') __cip_words "$3" bash zsh fish powershell ;;`,
  ],
  zsh: [
    `'(-p --profile)--profile=[profile to use (default\\: the active one)]:name:_cip_profiles'`,
    `:_cip_environments'`,
    `:(bash zsh fish powershell)'`,
  ],
  fish: [
    `complete -c cip -s o -l output -d 'output format (default: table on a terminal, json otherwise)' -x -a 'table json yaml tsv'`,
    `complete -c cip -n '__cip_argument \\'cip env get\\' 0' -a '(cip __complete environments 2>/dev/null)' -d 'environment id, or its exact name'`,
    `complete -c cip -n '__cip_argument \\'cip env delete\\' 0 or-later' -a '(cip __complete environments 2>/dev/null)' -d`,
    `complete -c cip -n '__cip_argument \\'cip auth use\\' 0' -a '(cip __complete profiles 2>/dev/null)' -d 'profile name'`,
    `complete -c cip -n '__cip_under \\'cip env create\\'' -l file -d `,
  ],
  powershell: [
    `    $values['cip/-p'] = 'profiles'`,
    `    $values['cip/--output'] = 'choices', 'table', 'json', 'yaml', 'tsv'`,
    `    $values['cip env create/--file'] = 'files'`,
    `    $values['cip env delete/--confirm'] = 'profiles'`,
    `    $arguments['cip env get/0'] = 'environments'`,
    `    $arguments['cip env delete/0+'] = 'environments'`,
    `    $arguments['cip auth use/0'] = 'profiles'`,
    `    $arguments['cip completion/0'] = 'choices', 'bash', 'zsh', 'fish', 'powershell'`,
    `cip __complete profiles 2>$null`,
    `cip __complete environments 2>$null`,
  ],
};

it.for(Object.keys(COMMITTED) as (keyof typeof COMMITTED)[])(
  '%s completes profiles, environments, files and choices',
  async (shell, { cip }) => {
    const { stdout } = await cip(['completion', shell]);
    for (const line of LINES[shell]) expect(stdout, line).toContain(line);
  },
);
