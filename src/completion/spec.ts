// The command tree as completion scripts need it: commands, aliases, options (and which take values, and how
// those are completed), arguments. Shell-neutral; bash.ts, zsh.ts, fish.ts and powershell.ts turn it
// into scripts.
import type { Argument, Command, Option } from 'commander';
import { DeclaredArgument, DeclaredOption } from '../cli/declared.js';
import type { ValueSource } from '../cli/options.js';
import { oneLine } from '../text/sanitize.js';

/**
 * How a value is completed: from fixed choices, from the stored profile names, from the environments' ids and
 * names (asked of the API, cached briefly), as a file path, or not at all.
 */
export type ValueCompletion =
  { kind: 'choices'; choices: readonly string[] } | { kind: 'profiles' } | { kind: 'environments' } | { kind: 'files' } | { kind: 'none' };

export interface OptionSpec {
  short?: string;
  long?: string;
  description: string;
  /** Absent for a flag. */
  value?: { name: string; optional: boolean; completion: ValueCompletion };
  /** May be given more than once, so the shell offers it again. */
  repeatable: boolean;
}

export interface ArgumentSpec {
  name: string;
  description: string;
  variadic: boolean;
  completion: ValueCompletion;
}

export interface CommandSpec {
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

export const PROFILES_COMMAND = 'cip __complete profiles 2>/dev/null';
export const ENVIRONMENTS_COMMAND = 'cip __complete environments 2>/dev/null';

/** The first line of a description, as one clean line. */
function summary(text: string): string {
  return oneLine(text.split('\n', 1)[0] ?? '');
}

/** Fixed choices first (commander keeps them), else where the declaration says the values are. */
function completionOf(choices: readonly string[] | undefined, source: ValueSource | undefined): ValueCompletion {
  if (choices) return { kind: 'choices', choices };
  return source ? { kind: source } : { kind: 'none' };
}

function optionSpec(option: Option): OptionSpec {
  const declared = option instanceof DeclaredOption ? option : undefined;
  const takesValue = option.required || option.optional;
  return {
    short: option.short,
    long: option.long,
    description: summary(option.description),
    value: takesValue
      ? {
          name: /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? 'value',
          optional: option.optional,
          completion: completionOf(option.argChoices, declared?.completes),
        }
      : undefined,
    // An option that collects every value (-F, -H, --unset) is offered again; any other, once (a second is refused).
    repeatable: declared?.repeatable ?? option.variadic,
  };
}

function argumentSpec(argument: Argument): ArgumentSpec {
  const source = argument instanceof DeclaredArgument ? argument.completes : undefined;
  return {
    name: argument.name(),
    description: summary(argument.description),
    variadic: argument.variadic,
    completion: completionOf(argument.argChoices, source),
  };
}

export const flagsOf = (option: OptionSpec) => [option.short, option.long].filter((flag): flag is string => Boolean(flag));

export function describeCommand(command: Command, parent?: CommandSpec): CommandSpec {
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
    description: summary(command.description()),
    options,
    allOptions: [...options, ...inherited],
    arguments: command.registeredArguments.map(argumentSpec),
    subcommands: [],
  };
  spec.subcommands = help.visibleCommands(command).map((sub) => describeCommand(sub, spec));
  return spec;
}

/** Whether a command path is the program itself, whose options apply everywhere. */
export const isRoot = (path: string) => !path.includes(' ');

export function allCommands(spec: CommandSpec): CommandSpec[] {
  return [spec, ...spec.subcommands.flatMap(allCommands)];
}

/** Generates a completion script for the program's visible commands and options. Pure and deterministic. */
