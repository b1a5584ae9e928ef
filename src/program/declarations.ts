// How a declaration (commands/define.ts) becomes a commander command: its arguments and options (fixed choices in
// any letter case, lists, parsed values), its help text, and an action that hands run() the values it declares.
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { AnyCommand } from '../commands/define.js';
import { DeclaredArgument, DeclaredOption } from '../cli/declared.js';
import type { ArgumentSpecs, OptionSpec, OptionSpecs } from '../cli/options.js';
import type { Context } from '../context.js';
import { meant } from '../text/similar.js';
import { asCip, completeTree } from './cip-command.js';
import { refuseEmptyValues, refuseRepeats } from './checks.js';
import { helpAfter, helpWidth } from './help-text.js';

export function addOption(command: Command, spec: OptionSpec): void {
  const option = toOption(spec);
  command.addOption(option);
  if (spec.kind === 'value') refuseRepeats(command, option);
}

/**
 * The value of an option or argument with fixed choices, in any letter case (`-o JSON` is `-o json`): the choices
 * are lower case words, no two alike but for case. Anything else is exit 2, with the choice it is nearest to.
 */
function choiceParser(choices: readonly string[]): (text: string) => string {
  return (text) => {
    const choice = choices.find((candidate) => candidate === text) ?? choices.find((candidate) => candidate === text.toLowerCase());
    if (choice !== undefined) return choice;
    const near = meant(text.toLowerCase(), choices);
    throw new InvalidArgumentError(`Allowed choices are ${choices.join(', ')}${near ? ` (${near})` : '.'}`);
  };
}

function toOption(spec: OptionSpec): Option {
  const option = new DeclaredOption(spec.flags, spec.description, spec.kind === 'list', spec.completes);
  // choices() keeps them for help and completion; the parser after it decides what is accepted.
  if (spec.choices) option.choices(spec.choices).argParser(choiceParser(spec.choices));
  if (spec.kind === 'list') {
    const parse = spec.parse ?? ((text: string) => text);
    option.argParser((text, previous: unknown[] | undefined) => [...(previous ?? []), parse(text)]);
  } else if (spec.parse) {
    const parse = spec.parse;
    // Number('') is 0: without this, `--port ""` would be a port.
    option.argParser((text: string) => {
      if (text.trim() === '') throw new InvalidArgumentError('an empty value is refused, never read as a default');
      return parse(text);
    });
  }
  if (spec.defaultValue !== undefined) option.default(spec.defaultValue);
  if (spec.hidden) option.hideHelp();
  return option;
}

/**
 * The values of declared options as run() receives them: switches always true or false (a `--no-...` switch true
 * unless given), lists always lists. A lone `--no-...` is cip's rule, not commander's default: commander 15 sets
 * that default just before it calls saveStateBeforeParse, where a command is built, so a command built then (its
 * options added) has none.
 */
export function valuesOf(specs: OptionSpecs, given: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(specs)) {
    const value = given[key];
    if (spec.kind === 'flag') values[key] = new Option(spec.flags).negate ? value !== false : value === true;
    else if (spec.kind === 'list') values[key] = value ?? [];
    else values[key] = value;
  }
  return values;
}

export function addCommand(parent: Command, spec: AnyCommand, ctx: Context, root: Command): void {
  const command = asCip(parent.command(spec.name, { hidden: spec.hidden ?? false }).description(spec.description));
  for (const alias of spec.aliases ?? []) command.alias(alias);
  command.later(() => completeCommand(command, spec, ctx, root), {
    options: Object.keys((spec.options ?? {}) as OptionSpecs).length > 0,
    args: Object.values((spec.args ?? {}) as ArgumentSpecs).map((arg) => arg.name),
  });
}

/** The arguments, options, help text and action of a command, added the first time it is needed. */
function completeCommand(command: Command, spec: AnyCommand, ctx: Context, root: Command): void {
  const parent = command.parent!;
  const args = (spec.args ?? {}) as ArgumentSpecs;
  for (const arg of Object.values(args)) {
    const argument = new DeclaredArgument(arg.name, arg.description, arg.completes);
    if (arg.choices) argument.choices(arg.choices).argParser(choiceParser(arg.choices));
    command.addArgument(argument);
  }
  const options = (spec.options ?? {}) as OptionSpecs;
  for (const option of Object.values(options)) addOption(command, option);
  command.addHelpText('after', ({ error }) => helpAfter(spec, helpWidth(ctx, error)));
  const name = `${parent.parent ? `${parent.name()} ` : ''}${spec.name}`;
  command.action(async (...params: unknown[]) => {
    refuseEmptyValues(options, command);
    // The format is decided here, for every command alike, before it sends anything.
    ctx.io.command = { command: `cip ${name}`, takes: spec.outputs, preferred: spec.defaultOutput };
    // eslint-disable-next-line @typescript-eslint/no-unused-expressions -- the getter throws for a format the command cannot write
    ctx.io.outputFormat;
    const values = valuesOf(options, command.opts());
    Object.keys(args).forEach((name, index) => {
      values[name] = params[index];
    });
    // Completion scripts are generated from the root: every command, built in full when it is asked for.
    await spec.run(ctx, values, {
      get root() {
        return completeTree(root);
      },
    });
  });
}
