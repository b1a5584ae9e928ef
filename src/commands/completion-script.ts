// Shell completion scripts for bash, zsh and fish, generated from the commander tree so they cannot drift
// from the commands. Pure and self-contained (types only), so it loads only for `cip completion`.
import type { Argument, Command, Option } from 'commander';
import type { Shell } from './shells.js';

export type { Shell };

/** How a value is completed: from fixed choices, from the stored profile names, as a file path, or not at all. */
type ValueCompletion =
  | { kind: 'choices'; choices: readonly string[] }
  | { kind: 'profiles' }
  | { kind: 'files' }
  | { kind: 'none' };

interface OptionSpec {
  short?: string;
  long?: string;
  description: string;
  /** Absent for a flag. */
  value?: { name: string; optional: boolean; completion: ValueCompletion };
  /** May be given more than once, so the shell offers it again. */
  repeatable: boolean;
}

interface ArgumentSpec {
  name: string;
  description: string;
  variadic: boolean;
  completion: ValueCompletion;
}

interface CommandSpec {
  /** Names from the root, space-separated: 'cip', 'cip env list'. */
  path: string;
  /** The name, then the aliases. */
  names: string[];
  description: string;
  /** Options defined here and not already by an ancestor; commander accepts an ancestor's options anywhere below it. */
  options: OptionSpec[];
  /** Options usable here: its own, then its ancestors'. */
  allOptions: OptionSpec[];
  arguments: ArgumentSpec[];
  subcommands: CommandSpec[];
}

// Commander knows choices but not what other values mean; these are the ones a shell can fill in.
const PROFILE_OPTIONS = new Set(['--profile']);
const FILE_OPTIONS = new Set(['--file', '--api-key-file', '--subscription-key-file']);
const PROFILE_ARGUMENTS = new Set(['cip auth switch <name>']);
// Commander accepts any option twice (the last wins); these collect every value, so repeating them is useful.
const REPEATABLE_OPTIONS = new Set(['--field', '--raw-field']);

const PROFILES_COMMAND = 'cip __complete profiles 2>/dev/null';

function oneLine(text: string): string {
  return text.split('\n')[0]!.replace(/\s+/g, ' ').trim();
}

function optionSpec(option: Option): OptionSpec {
  const flag = option.long ?? option.short ?? '';
  const takesValue = option.required || option.optional;
  let completion: ValueCompletion = { kind: 'none' };
  if (option.argChoices) completion = { kind: 'choices', choices: option.argChoices };
  else if (PROFILE_OPTIONS.has(flag)) completion = { kind: 'profiles' };
  else if (FILE_OPTIONS.has(flag)) completion = { kind: 'files' };
  return {
    short: option.short,
    long: option.long,
    description: oneLine(option.description),
    value: takesValue
      ? { name: /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? 'value', optional: option.optional, completion }
      : undefined,
    repeatable: REPEATABLE_OPTIONS.has(flag),
  };
}

function argumentSpec(argument: Argument, path: string): ArgumentSpec {
  let completion: ValueCompletion = { kind: 'none' };
  if (argument.argChoices) completion = { kind: 'choices', choices: argument.argChoices };
  else if (PROFILE_ARGUMENTS.has(`${path} <${argument.name()}>`)) completion = { kind: 'profiles' };
  return { name: argument.name(), description: oneLine(argument.description), variadic: argument.variadic, completion };
}

const flagsOf = (option: OptionSpec) => [option.short, option.long].filter((flag): flag is string => Boolean(flag));

function describeCommand(command: Command, parent?: CommandSpec): CommandSpec {
  const path = parent ? `${parent.path} ${command.name()}` : command.name();
  const help = command.createHelp();
  const inherited = parent?.allOptions ?? [];
  const inheritedFlags = new Set(inherited.flatMap(flagsOf));
  // The help option is copied to every subcommand; it is offered once, from the root.
  const options = help
    .visibleOptions(command)
    .map(optionSpec)
    .filter((option) => !flagsOf(option).some((flag) => inheritedFlags.has(flag)));
  const spec: CommandSpec = {
    path,
    names: [command.name(), ...command.aliases()],
    description: oneLine(command.description()),
    options,
    allOptions: [...options, ...inherited],
    arguments: command.registeredArguments.map((argument) => argumentSpec(argument, path)),
    subcommands: [],
  };
  spec.subcommands = help.visibleCommands(command).map((sub) => describeCommand(sub, spec));
  return spec;
}

/** Whether a command path is the program itself, whose options apply everywhere. */
const isRoot = (path: string) => !path.includes(' ');

function allCommands(spec: CommandSpec): CommandSpec[] {
  return [spec, ...spec.subcommands.flatMap(allCommands)];
}

/** Generates a completion script for the program's visible commands and options. Pure and deterministic. */
export function generateCompletion(program: Command, shell: Shell): string {
  const root = describeCommand(program);
  switch (shell) {
    case 'bash':
      return bashScript(root);
    case 'zsh':
      return zshScript(root);
    case 'fish':
      return fishScript(root);
  }
}

// ---- bash ----

const SHELL_SAFE = /^[A-Za-z0-9_./,:=+@%-]+$/;

function bashQuote(text: string): string {
  return SHELL_SAFE.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Case patterns matching `<path>/<flag>` where an option defined on `path` applies: there and below. */
function bashOptionPatterns(path: string, option: OptionSpec): string[] {
  return flagsOf(option).flatMap((flag) =>
    isRoot(path)
      ? [`*/${bashQuote(flag)}`]
      : [`${bashQuote(path)}/${bashQuote(flag)}`, `${bashQuote(`${path} `)}*/${bashQuote(flag)}`],
  );
}

function bashCompleter(completion: ValueCompletion, cur: string): string | undefined {
  switch (completion.kind) {
    case 'choices':
      return `__cip_words ${cur} ${completion.choices.map(bashQuote).join(' ')}`;
    case 'profiles':
      return `__cip_profiles ${cur}`;
    case 'files':
      return `__cip_files ${cur}`;
    case 'none':
      return undefined;
  }
}

function bashScript(root: CommandSpec): string {
  const commands = allCommands(root);
  const withValue = commands.flatMap((command) =>
    command.options.filter((option) => option.value).map((option) => ({ command, option })),
  );
  const caseLine = (patterns: string[], body: string) => `    ${patterns.join('|')}) ${body} ;;`;

  const children = commands.flatMap((command) =>
    command.subcommands.map((sub) =>
      caseLine(sub.names.map((name) => `${bashQuote(command.path)}/${bashQuote(name)}`), `child=${bashQuote(sub.names[0]!)}`),
    ),
  );
  const takesValue = withValue.map(({ command, option }) => bashOptionPatterns(command.path, option)).flat();
  const optionValues = withValue.flatMap(({ command, option }) => {
    const completer = bashCompleter(option.value!.completion, '"$3"');
    return completer ? [caseLine(bashOptionPatterns(command.path, option), completer)] : [];
  });
  const optionLists = commands.map((command) =>
    caseLine([bashQuote(command.path)], `__cip_words "$2" ${command.allOptions.flatMap(flagsOf).map(bashQuote).join(' ')}`),
  );
  const subcommandLists = commands
    .filter((command) => command.subcommands.length)
    .map((command) =>
      caseLine([bashQuote(command.path)], `__cip_words "$2" ${command.subcommands.flatMap((sub) => sub.names).map(bashQuote).join(' ')}`),
    );
  const argumentLines = commands.flatMap((command) =>
    command.arguments.flatMap((argument, index) => {
      const completer = bashCompleter(argument.completion, '"$3"');
      // A variadic argument is the last one, so it takes every index from its own on.
      const at = argument.variadic ? `${bashQuote(`${command.path}/`)}*` : bashQuote(`${command.path}/${index}`);
      return completer ? [caseLine([at], completer)] : [];
    }),
  );

  return `# bash completion for cip. Generated by \`cip completion bash\`; do not edit.

# Adds the words after $1 that start with $1 to COMPREPLY.
__cip_words() {
  local cur=$1 word
  shift
  for word; do
    if [[ $word == "$cur"* ]]; then COMPREPLY+=("$word"); fi
  done
}

# Adds the stored profile names that start with $1.
__cip_profiles() {
  local name
  while IFS= read -r name; do
    if [[ $name == "$1"* ]]; then COMPREPLY+=("$name"); fi
  done < <(${PROFILES_COMMAND})
}

# Adds the file names that start with $1.
__cip_files() {
  local file
  # quote names with spaces and mark folders, when this bash can
  compopt -o filenames 2>/dev/null
  while IFS= read -r file; do COMPREPLY+=("$file"); done < <(compgen -f -- "$1")
}

# Sets child to the name of subcommand $2 of command path $1 (aliases resolved); fails if it is none.
__cip_child() {
  case $1/$2 in
${children.join('\n')}
    *) return 1 ;;
  esac
}

# Succeeds if option $2 takes a value in command path $1.
__cip_takes_value() {
  case $1/$2 in
    ${takesValue.join('|')}) return 0 ;;
    *) return 1 ;;
  esac
}

# Completes the value $3 of option $2 in command path $1.
__cip_option_value() {
  case $1/$2 in
${optionValues.join('\n')}
  esac
}

# Completes the options of command path $1 that start with $2.
__cip_options() {
  case $1 in
${optionLists.join('\n')}
  esac
}

# Completes the subcommands of command path $1 that start with $2; fails if it has none.
__cip_subcommands() {
  case $1 in
${subcommandLists.join('\n')}
    *) return 1 ;;
  esac
}

# Completes $3 as argument number $2 (from 0) of command path $1.
__cip_arguments() {
  case $1/$2 in
${argumentLines.join('\n')}
  esac
}

_cip() {
  local cur=\${COMP_WORDS[COMP_CWORD]} path=cip option='' args=0 child word i
  COMPREPLY=()
  # Find the command path and whether the cursor is on an option's value from the words before it.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    if [[ -n $option ]]; then
      # bash splits --option=value at '=' (COMP_WORDBREAKS), so the value may follow an '=' word
      [[ $word == = ]] || option=''
    elif [[ $word == -?* ]]; then
      __cip_takes_value "$path" "$word" && option=$word
    elif ((args == 0)) && __cip_child "$path" "$word"; then
      path="$path $child"
    else
      args=$((args + 1))
    fi
  done
  if [[ -n $option ]]; then
    [[ $cur == = ]] && cur=''
    __cip_option_value "$path" "$option" "$cur"
  elif [[ $cur == -* ]]; then
    __cip_options "$path" "$cur"
  elif ((args > 0)) || ! __cip_subcommands "$path" "$cur"; then
    __cip_arguments "$path" "$args" "$cur"
  fi
}

complete -F _cip cip
`;
}

// ---- zsh ----

function zshQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Escapes what _arguments and _describe give meaning to inside descriptions and messages. */
function zshEscape(text: string): string {
  return text.replace(/[\\[\]:]/g, (char) => `\\${char}`);
}

function zshAction(completion: ValueCompletion): string {
  switch (completion.kind) {
    case 'choices':
      return `(${completion.choices.map((choice) => choice.replace(/[^A-Za-z0-9_./,=+@%-]/g, (char) => `\\${char}`)).join(' ')})`;
    case 'profiles':
      return '_cip_profiles';
    case 'files':
      return '_files';
    case 'none':
      return ' ';
  }
}

function zshFunctionName(path: string): string {
  return `_${path.replace(/ /g, '_')}`;
}

function zshOptionSpecs(option: OptionSpec): string[] {
  const flags = flagsOf(option);
  const exclusive = !option.repeatable && flags.length > 1 ? `(${flags.join(' ')})` : '';
  const value = option.value;
  return flags.map((flag) => {
    const isLong = flag.startsWith('--');
    // -p+ and --profile= accept the value attached as well as in the next word.
    const suffix = value ? (isLong ? '=' : '+') : '';
    const argument = value
      ? `${value.optional ? '::' : ':'}${zshEscape(value.name)}:${zshAction(value.completion)}`
      : '';
    return zshQuote(`${option.repeatable ? '*' : ''}${exclusive}${flag}${suffix}[${zshEscape(option.description)}]${argument}`);
  });
}

function zshFunction(command: CommandSpec): string {
  const name = zshFunctionName(command.path);
  const specs = command.allOptions.flatMap(zshOptionSpecs);
  if (!command.subcommands.length) {
    for (const argument of command.arguments) {
      const message = zshEscape(argument.description || argument.name);
      specs.push(zshQuote(`${argument.variadic ? '*' : ''}:${message}:${zshAction(argument.completion)}`));
    }
    return `${name}() {
  _arguments -s -S \\
    ${specs.join(' \\\n    ')}
}
`;
  }
  const entries = command.subcommands.flatMap((sub) =>
    sub.names.map((subName) => zshQuote(`${subName.replace(/:/g, '\\:')}:${sub.description}`)),
  );
  const dispatch = command.subcommands.map(
    (sub) => `      ${sub.names.map(zshQuote).join('|')}) ${zshFunctionName(sub.path)} && ret=0 ;;`,
  );
  specs.push(`': :${name}_commands'`, `'*:: :->command'`);
  return `${name}_commands() {
  local -a commands=(
    ${entries.join('\n    ')}
  )
  _describe -t commands ${zshQuote(`${command.path} command`)} commands
}

${name}() {
  local curcontext=$curcontext state state_descr line ret=1
  typeset -A opt_args
  _arguments -C -s -S \\
    ${specs.join(' \\\n    ')} && ret=0
  if [[ $state == command ]]; then
    # words now start at the subcommand
    curcontext=\${curcontext%:*:*}:${command.path.replace(/ /g, '-')}-$words[1]:
    case $words[1] in
${dispatch.join('\n')}
    esac
  fi
  return ret
}
`;
}

function zshScript(root: CommandSpec): string {
  return `#compdef cip
# zsh completion for cip. Generated by \`cip completion zsh\`; do not edit.

_cip_profiles() {
  local -a profiles expl
  profiles=(\${(f)"$(${PROFILES_COMMAND})"})
  _wanted profiles expl 'profile' compadd -a profiles
}

${allCommands(root).map(zshFunction).join('\n')}
# Autoloaded from fpath, this file is the body of _cip; sourced, it registers _cip.
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _cip "$@"
else
  compdef _cip cip
fi
`;
}

// ---- fish ----

function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, (char) => `\\${char}`)}'`;
}

/** The -a word list for a value: fish expands it, so fixed choices are escaped and profiles are a command substitution. */
function fishValues(completion: ValueCompletion): string | undefined {
  switch (completion.kind) {
    case 'choices':
      return fishQuote(completion.choices.map((choice) => choice.replace(/[^A-Za-z0-9_./,=+@%-]/g, (char) => `\\${char}`)).join(' '));
    case 'profiles':
      return fishQuote(`(${PROFILES_COMMAND})`);
    case 'files':
    case 'none':
      return undefined;
  }
}

function fishOptionLine(command: CommandSpec, option: OptionSpec): string {
  const parts = ['complete -c cip'];
  if (!isRoot(command.path)) parts.push(`-n ${fishQuote(`__cip_under ${fishQuote(command.path)}`)}`);
  if (option.short) parts.push(`-s ${option.short.slice(1)}`);
  if (option.long) parts.push(`-l ${option.long.slice(2)}`);
  parts.push(`-d ${fishQuote(option.description)}`);
  const value = option.value;
  if (value) {
    // -r: the option takes a value; -F: it is a file name, -x: anything else (no file names)
    parts.push(value.completion.kind === 'files' ? '-r -F' : '-x');
    const values = fishValues(value.completion);
    if (values) parts.push(`-a ${values}`);
  }
  return parts.join(' ');
}

function fishScript(root: CommandSpec): string {
  const commands = allCommands(root);
  const withValue = commands.flatMap((command) =>
    command.options.filter((option) => option.value).map((option) => ({ command, option })),
  );
  const fishPatterns = (path: string, option: OptionSpec) =>
    flagsOf(option).flatMap((flag) =>
      isRoot(path) ? [`*/${flag}`] : [`${path}/${flag}`, `${path} */${flag}`],
    ).map(fishQuote);

  const children = commands.flatMap((command) =>
    command.subcommands.map(
      (sub) => `        case ${sub.names.map((name) => fishQuote(`${command.path}/${name}`)).join(' ')}\n            echo ${fishQuote(sub.names[0]!)}`,
    ),
  );
  const takesValue = withValue.flatMap(({ command, option }) => fishPatterns(command.path, option));

  const lines: string[] = [];
  for (const command of commands) {
    for (const option of command.options) lines.push(fishOptionLine(command, option));
    for (const sub of command.subcommands) {
      for (const name of sub.names) {
        lines.push(
          `complete -c cip -n ${fishQuote(`__cip_needs_subcommand ${fishQuote(command.path)}`)} -a ${fishQuote(name)} -d ${fishQuote(sub.description)}`,
        );
      }
    }
    command.arguments.forEach((argument, index) => {
      const values = fishValues(argument.completion);
      if (!values || command.subcommands.length) return;
      const condition = `__cip_argument ${fishQuote(command.path)} ${index}${argument.variadic ? ' or-later' : ''}`;
      lines.push(`complete -c cip -n ${fishQuote(condition)} -a ${values} -d ${fishQuote(argument.description || argument.name)}`);
    });
  }

  return `# fish completion for cip. Generated by \`cip completion fish\`; do not edit.

# Prints the name of subcommand $word of command path $path (aliases resolved); fails if it is none.
function __cip_child --argument-names path word
    switch "$path/$word"
${children.join('\n')}
        case '*'
            return 1
    end
end

# Succeeds if option $word takes a value in command path $path.
function __cip_takes_value --argument-names path word
    switch "$path/$word"
        case ${takesValue.join(' ')}
            return 0
    end
    return 1
end

# Prints the command path before the cursor (e.g. "cip env list"), then how many arguments follow it.
function __cip_state
    set -l words (commandline -opc)
    set -e words[1]
    set -l path cip
    set -l args 0
    set -l value 0
    for word in $words
        if test $value = 1
            set value 0
        else if string match -qr -- '^-.' $word
            __cip_takes_value $path $word; and set value 1
        else if test $args = 0; and __cip_child $path $word >/dev/null
            set path "$path "(__cip_child $path $word)
        else
            set args (math $args + 1)
        end
    end
    echo $path
    echo $args
end

# Succeeds if the cursor is where a subcommand of command path $argv[1] goes.
function __cip_needs_subcommand
    set -l state (__cip_state)
    test "$state[1]" = $argv[1]; and test $state[2] = 0
end

# Succeeds if the command path is $argv[1] or below it, where the options of $argv[1] apply.
function __cip_under
    set -l state (__cip_state)
    test "$state[1]" = $argv[1]; or string match -q -- "$argv[1] *" "$state[1]"
end

# Succeeds if the cursor is on argument number $argv[2] (from 0) of command path $argv[1], or later with or-later.
function __cip_argument
    set -l state (__cip_state)
    test "$state[1]" = $argv[1]; or return 1
    if set -q argv[3]
        test $state[2] -ge $argv[2]
    else
        test $state[2] -eq $argv[2]
    end
end

# Arguments are not file names unless an option says so.
complete -c cip -f
${lines.join('\n')}
`;
}
