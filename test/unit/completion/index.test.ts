// The completion scripts generated from the command tree (src/completion/index.ts): every script names
// each command, alias and option a user can see, and each shell is offered what it can complete. The shells
// themselves run the committed scripts in test/e2e/completion-shells.test.ts.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { generateCompletion } from '../../../src/completion/index.js';
import { SHELLS, type Shell } from '../../../src/completion/shells.js';
import { buildProgram, completeTree } from '../../../src/program.js';
import { fakeIO, testContext } from '../../helpers/io.js';

/** How each script asks cip for the profile names, errors silenced as its shell does. */
const PROFILES_CALL: Record<Shell, string> = {
  bash: 'cip __complete profiles 2>/dev/null',
  zsh: 'cip __complete profiles 2>/dev/null',
  fish: 'cip __complete profiles 2>/dev/null',
  powershell: 'cip __complete profiles 2>$null',
};

const program = (version = '0.0.0') => buildProgram(testContext(fakeIO(), {}, version));

/** Names and option flags of every command a user can see, read straight from commander. */
function visibleTree(command: Command): { names: string[]; flags: string[] } {
  const names: string[] = [];
  const flags: string[] = [];
  const visit = (cmd: Command) => {
    for (const option of cmd.options.filter((candidate) => !candidate.hidden))
      flags.push(...[option.short, option.long].filter((flag): flag is string => Boolean(flag)));
    for (const sub of cmd.commands) {
      if (sub.name() === '__complete') continue;
      names.push(sub.name(), ...sub.aliases());
      visit(sub);
    }
  };
  visit(command);
  return { names, flags };
}

const word = (text: string) => new RegExp(`(^|[^\\w-])${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\w-]|$)`, 'm');

/** How each script spells an option: fish names flags without their dashes. */
function optionMention(shell: Shell, flag: string): RegExp {
  if (shell !== 'fish') return word(flag);
  return flag.startsWith('--') ? word(`-l ${flag.slice(2)}`) : word(`-s ${flag.slice(1)}`);
}

describe.each(SHELLS)('generateCompletion(%s)', (shell) => {
  const script = generateCompletion(program(), shell);
  const tree = visibleTree(completeTree(program()));

  it('finds the commands and options this test expects', () => {
    expect(tree.names).toEqual(
      expect.arrayContaining([
        'auth',
        'login',
        'status',
        'switch',
        'logout',
        'env',
        'list',
        'ls',
        'create',
        'update',
        'delete',
        'rm',
        'completion',
        'sandbox',
      ]),
    );
    expect(tree.flags).toEqual(
      expect.arrayContaining(['-p', '--profile', '-o', '--output', '--file', '--api-key-file', '--subscription-key-file']),
    );
  });

  it('mentions every subcommand and alias', () => {
    for (const name of tree.names) expect(script, name).toMatch(word(name));
  });

  it('mentions every option', () => {
    for (const flag of [...tree.flags, '-h', '--help']) expect(script, flag).toMatch(optionMention(shell, flag));
  });

  it('offers the output formats and the shell names from their choices', () => {
    // PowerShell's tables hold lists of quoted words.
    const list = (...words: string[]) => (shell === 'powershell' ? words.map((word) => `'${word}'`).join(', ') : words.join(' '));
    expect(script).toContain(list('table', 'json'));
    expect(script).toContain(list('bash', 'zsh', 'fish', 'powershell'));
  });

  it('gets profile names from `cip __complete profiles`', () => {
    expect(script).toContain(PROFILES_CALL[shell]);
  });

  it('completes file names for the options that take a file', () => {
    const fileOption: Record<Shell, (flag: string) => RegExp> = {
      bash: (flag) => new RegExp(`/${flag}\\) __cip_files "\\$3" ;;$`, 'm'),
      zsh: (flag) => new RegExp(`'${flag}=\\[[^\\n]*\\]:path:_files'`),
      fish: (flag) => new RegExp(` -l ${flag.slice(2)} -d '[^\\n]*' -r -F$`, 'm'),
      powershell: (flag) => new RegExp(`^ {4}\\$values\\['cip [^'\\n]*/${flag}'\\] = 'files'$`, 'm'),
    };
    for (const flag of ['--file', '--api-key-file', '--subscription-key-file']) expect(script, flag).toMatch(fileOption[shell](flag));
  });

  it("completes file names for cip api's --input, whose value is a <file>", () => {
    const fileOption: Record<Shell, RegExp> = {
      bash: /\/--input\) __cip_files "\$3" ;;$/m,
      zsh: /'--input=\[[^\n]*\]:file:_files'/,
      fish: / -l input -d '[^\n]*' -r -F$/m,
      powershell: /^ {4}\$values\['cip api\/--input'\] = 'files'$/m,
    };
    expect(script).toMatch(fileOption[shell]);
  });

  it('does not offer the hidden __complete command', () => {
    expect(script.match(/__complete(?! profiles| environments)/g)).toBeNull();
  });

  it('is deterministic and carries no version', () => {
    expect(generateCompletion(program('9.9.9'), shell)).toBe(script);
  });
});

it('zsh offers -F and -f again, and not -p after --profile', () => {
  const script = generateCompletion(program(), 'zsh');
  expect(script).toContain("'*-F+[");
  expect(script).toContain("'*-f+[");
  expect(script).toContain("'(-p --profile)-p+[");
});

it("zsh offers every option that collects its values again: cip api's -H, env update's --unset", () => {
  const script = generateCompletion(program(), 'zsh');
  expect(script).toContain("'*-H+[");
  expect(script).toContain("'*--header=[");
  expect(script).toContain("'*--unset=[");
  // A single-valued option is offered once: a second is refused.
  expect(script).toContain("'(-X --method)-X+[");
  expect(script).not.toContain("'*--data=[");
});
