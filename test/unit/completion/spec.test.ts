// The completion spec and scripts for a small made-up command tree with what cip's own tree lacks: a short-only
// flag, an optional value, a value without a name, choices a shell must have quoted, an argument without a
// description, a variadic argument with choices, a subcommand name with a colon, an option shadowing an
// ancestor's flag.
import { Argument, Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { DeclaredArgument, DeclaredOption } from '../../../src/cli/declared.js';
import { bashScript } from '../../../src/completion/bash.js';
import { fishScript } from '../../../src/completion/fish.js';
import { powershellScript } from '../../../src/completion/powershell.js';
import { allCommands, describeCommand, type CommandSpec } from '../../../src/completion/spec.js';
import { zshScript } from '../../../src/completion/zsh.js';

function tree(): Command {
  // No help subcommands: the real tree has them, and they would only lengthen the lists below.
  const cip = new Command('cip').description('a tool\nwith a second line').helpCommand(false);
  // What a declaration says (cli/options.ts): where the values come from.
  cip.addOption(new DeclaredOption('-p, --profile <name>', 'the profile', false, 'profiles'));
  cip.option('-q', 'quiet, short only');
  cip.addOption(new Option('--color [when]', 'colour: [auto]').choices(['auto', "it's", 'a b']));
  cip.option('--thing <>', 'a value without a name');
  const env = cip.command('env').alias('e').description('environments').helpCommand(false);
  env
    .command('get')
    .description('one environment')
    .option('-p, --port <n>', 'shares -p with --profile')
    .addArgument(new DeclaredArgument('<id-or-name>', 'the id or name', 'environments'));
  cip.command('a:b').description('a colon').argument('<thing>');
  cip
    .command('shells')
    .description('pick shells')
    .addArgument(new Argument('<shells...>', 'the shells').choices(['bash', 'zsh']));
  return cip;
}

// Built inside each test, not once at import: a mutation run counts only what a test itself runs.
const described = (): CommandSpec => describeCommand(tree());
const byPath = (root: CommandSpec, path: string): CommandSpec => allCommands(root).find((command) => command.path === path)!;
const flags = (spec: CommandSpec) => spec.options.map((option) => [option.short, option.long]);

describe('describeCommand', () => {
  it('lists every visible command, depth first, with its aliases and the first line of its description', () => {
    const root = described();
    expect(allCommands(root).map(({ path, names, description }) => ({ path, names, description }))).toEqual([
      { path: 'cip', names: ['cip'], description: 'a tool' },
      { path: 'cip env', names: ['env', 'e'], description: 'environments' },
      { path: 'cip env get', names: ['get'], description: 'one environment' },
      { path: 'cip a:b', names: ['a:b'], description: 'a colon' },
      { path: 'cip shells', names: ['shells'], description: 'pick shells' },
    ]);
  });

  it('offers an option once, where it is first defined, and every ancestor option below', () => {
    const root = described();
    expect(flags(root)).toEqual([
      ['-p', '--profile'],
      ['-q', undefined],
      [undefined, '--color'],
      [undefined, '--thing'],
      ['-h', '--help'],
    ]);
    expect(root.allOptions).toEqual(root.options);
    // -h and --help are the root's; -p, --port shares -p with --profile, which commander would take first.
    for (const path of ['cip env', 'cip env get', 'cip a:b', 'cip shells']) {
      expect(byPath(root, path).options, path).toEqual([]);
      expect(byPath(root, path).allOptions, path).toEqual(root.options);
    }
  });

  it('says which options take values, what they are called and how they are completed', () => {
    const root = described();
    expect(root.options.map((option) => option.value)).toEqual([
      { name: 'name', optional: false, completion: { kind: 'profiles' } },
      undefined,
      { name: 'when', optional: true, completion: { kind: 'choices', choices: ['auto', "it's", 'a b'] } },
      { name: 'value', optional: false, completion: { kind: 'none' } },
      undefined,
    ]);
    expect(root.options.map((option) => option.description)).toEqual([
      'the profile',
      'quiet, short only',
      'colour: [auto]',
      'a value without a name',
      'display help for command',
    ]);
  });

  it('describes the arguments and how they are completed', () => {
    const root = described();
    expect(allCommands(root).map((command) => command.arguments)).toEqual([
      [],
      [],
      [{ name: 'id-or-name', description: 'the id or name', variadic: false, completion: { kind: 'environments' } }],
      [{ name: 'thing', description: '', variadic: false, completion: { kind: 'none' } }],
      [{ name: 'shells', description: 'the shells', variadic: true, completion: { kind: 'choices', choices: ['bash', 'zsh'] } }],
    ]);
  });
});

describe('the scripts for the made-up tree', () => {
  it('bash quotes choices that are not plain words', () => {
    const root = described();
    const script = bashScript(root);
    expect(script).toContain(`    */--color) __cip_words "$3" auto 'it'\\''s' 'a b' ;;\n`);
    expect(script).toContain(`    'cip shells/'*) __cip_words "$3" bash zsh ;;\n`);
    expect(script).toContain(`    cip) __cip_words "$2" -p --profile -q --color --thing -h --help ;;\n`);
  });

  it('fish names a short-only flag, escapes choices, and completes a variadic argument at every position', () => {
    const root = described();
    const script = fishScript(root);
    expect(script).toContain(`\ncomplete -c cip -s q -d 'quiet, short only'\n`);
    expect(script).toContain(`\ncomplete -c cip -l color -d 'colour: [auto]' -x -a 'auto it\\\\\\'s a\\\\ b'\n`);
    expect(script).toContain(`\ncomplete -c cip -n '__cip_argument \\'cip shells\\' 0 or-later' -a 'bash zsh' -d 'the shells'\n`);
    expect(script).toContain(`\ncomplete -c cip -l thing -d 'a value without a name' -x\n`);
  });

  it('zsh marks an optional value, escapes choices and colons, and names an argument without a description', () => {
    const root = described();
    const script = zshScript(root);
    expect(script).toContain(`    '--color=[colour\\: \\[auto\\]]::when:(auto it\\'\\''s a\\ b)' \\\n`);
    expect(script).toContain(`    '--thing=[a value without a name]:value: ' \\\n`);
    expect(script).toContain(`    '-q[quiet, short only]' \\\n`);
    expect(script).toContain(`    'a\\:b:a colon'\n`);
    expect(script).toMatch(/\n {4}':thing: '\n\}\n/);
    expect(script).toMatch(/\n {4}'\*:the shells:\(bash zsh\)'\n\}\n/);
  });

  it('powershell keeps quotes in its tables, a colon in a name, and completes a variadic argument at every position', () => {
    const root = described();
    const script = powershellScript(root);
    expect(script).toContain(`\n    $values['cip/--color'] = 'choices', 'auto', 'it''s', 'a b'\n`);
    expect(script).toContain(`\n    $values['cip/--thing'] = 'none'\n`);
    expect(script).toContain(`\n    $arguments['cip shells/0+'] = 'choices', 'bash', 'zsh'\n`);
    expect(script).toContain(`\n        '-q', 'quiet, short only'\n`);
    expect(script).toContain(`\n    $children['cip/a:b'] = 'a:b'\n`);
    expect(script).toContain(`\n    $children['cip/e'] = 'env'\n`);
    // An argument completed from nothing has no entry: PowerShell completes file names there.
    expect(script).not.toContain(`$arguments['cip a:b/`);
  });
});
