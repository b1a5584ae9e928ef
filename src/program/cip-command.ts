// commander's Command as cip needs it: a typo suggests each command once, by its name; an unknown option or an
// extra argument that a newcomer's habit explains names the right spelling; bare `cip` prints an overview; and a
// command is built in two steps, its name, aliases and description at once, the rest (arguments, options, help
// text, action) the first time it is run or its help is shown.
import { Command, CommanderError, type Help, type HelpContext } from 'commander';
import { overview } from '../cli/overview.js';
import {
  commandElsewhere,
  didYouMean,
  fieldArguments,
  flagOnly,
  keyOptionHint,
  optionMistake,
  type OptionsTaken,
  type Suggestible,
} from '../cli/suggest.js';

/** commander's Command, with a typo suggestion that names each command once, never an alias beside its command. */
export class CipCommand extends Command {
  /** The rest of this command (arguments, options, help text, action), not built yet: see complete(). */
  private rest: (() => void) | undefined;
  /** What help lists of this command before it is built: whether it has options, and its arguments as declared. */
  private declared: { options: boolean; args: readonly string[] } | undefined;

  override createCommand(name?: string): Command {
    return new CipCommand(name);
  }

  /** Leaves the rest of this command to be built the first time it is run or its help is shown. */
  later(build: () => void, declared: { options: boolean; args: readonly string[] }): this {
    this.rest = build;
    this.declared = declared;
    return this;
  }

  /** Builds the rest of this command, once. */
  complete(): this {
    const build = this.rest;
    this.rest = undefined;
    build?.();
    return this;
  }

  /**
   * commander calls this (a documented method, for subclasses) on each command it is about to parse argv with:
   * the root, then each subcommand it dispatches to, before anything is parsed or any hook runs. This is where
   * the command being run gets its arguments, options and action. test/unit/program/cip-command.test.ts fails if
   * commander stops calling it.
   */
  override saveStateBeforeParse(): void {
    this.complete();
    super.saveStateBeforeParse();
  }

  /**
   * All help goes through this (`--help`, `cip help ...`, help after a usage error, completion scripts): the
   * command's own help needs its arguments and options. Its subcommands are listed without being built: see
   * listedTerm().
   */
  override createHelp(): Help {
    this.complete();
    const help = super.createHelp();
    const term = help.subcommandTerm.bind(help);
    help.subcommandTerm = (sub) => (sub instanceof CipCommand && sub.rest ? sub.listedTerm() : term(sub));
    return help;
  }

  /**
   * How the help of its parent lists a command not built yet: what commander's Help.subcommandTerm writes of it
   * once built (`list|ls [options]`, `get [options] <id-or-name>`), from its declaration.
   * test/unit/program/cip-command.test.ts holds the two equal for every command.
   */
  listedTerm(): string {
    const { options, args } = this.declared!;
    const alias = this.aliases()[0];
    return [`${this.name()}${alias ? `|${alias}` : ''}`, ...(options ? ['[options]'] : []), ...args].join(' ');
  }

  /** commander calls this for an unknown subcommand (it is not in commander's typings). */
  unknownCommand(): never {
    const word = this.args[0] ?? '';
    const suggestion = commandElsewhere(commandPath(this), word) ?? didYouMean(word, suggestible(this));
    this.error(`error: unknown command '${word}'${suggestion ? ` (${suggestion})` : ''}`, { code: 'commander.unknownCommand' });
  }

  /**
   * commander calls this with `{ error: true }` for a command that needs a subcommand and was given none. Bare
   * `cip` is how people start: it prints a short overview on stdout and succeeds, as gh does.
   */
  override help(context?: HelpContext | ((text: string) => string)): never {
    if (this.parent || typeof context !== 'object' || !context.error) return super.help(context as HelpContext);
    const output = this.configureOutput();
    const commands = this.createHelp()
      .visibleCommands(this)
      .map((command) => ({ name: command.name(), description: command.description() }));
    output.writeOut!(overview(this.description(), commands, output.getOutHelpWidth?.() ?? 80));
    throw new CommanderError(0, 'commander.help', '(overview)');
  }

  /**
   * commander calls this for an unknown option, with the argument as typed. A value glued to it
   * (`--api-key=...`) is never repeated: it may be a key. An option that would take a key says why there is none.
   */
  unknownOption(flag: string): never {
    const name = flagOnly(flag);
    const hint = keyOptionHint(
      name,
      this.options.some((option) => option.long === '--api-key-file'),
    );
    if (hint) this.error(`error: unknown option '${name}' (${hint})`, { code: 'commander.unknownOption' });
    // The option is the first unknown word in args, which are the operands (no option among them), then the rest.
    const next = this.args[this.args.indexOf(flag) + 1];
    const mistake = optionMistake(flag, next, taken(this));
    if (mistake) this.error(`error: unknown option '${name}' (${mistake})`, { code: 'commander.unknownOption' });
    return (Command.prototype as unknown as { unknownOption(flag: string): never }).unknownOption.call(this, name);
  }

  /** commander calls this for more arguments than the command takes (it is not in commander's typings). */
  _excessArguments(received: string[]): void {
    const hint = fieldArguments(received.slice(this.registeredArguments.length), taken(this).fields);
    if (hint) this.error(`error: too many arguments for '${this.name()}' (${hint})`, { code: 'commander.excessArguments' });
    (Command.prototype as unknown as { _excessArguments(received: string[]): void })._excessArguments.call(this, received);
  }
}

/** The flags a command takes (its own and those of the commands above it), for the hints of a mistaken option. */
function taken(command: Command): OptionsTaken {
  const flags: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) {
    for (const option of at.options) flags.push(...[option.long, option.short].filter((flag) => flag !== undefined));
  }
  return { command: commandPath(command).join(' '), flags, fields: flags.includes('--raw-field') };
}

/** A command of the tree: CipCommand.createCommand made it. */
export function asCip(command: Command): CipCommand {
  if (!(command instanceof CipCommand)) throw new Error(`'${command.name()}' was not made by CipCommand`);
  return command;
}

/** The commands help lists under a command, as candidates for a suggestion. */
export function suggestible(command: Command): Suggestible[] {
  return command
    .createHelp()
    .visibleCommands(command)
    .map((sub) => ({ name: sub.name(), aliases: sub.aliases() }));
}

/** ['cip', 'env'] for `cip env`. */
export function commandPath(command: Command): string[] {
  return command.parent ? [...commandPath(command.parent), command.name()] : [command.name()];
}

/** Every command of the tree built in full: what walks the tree without parsing or help (tests) needs it. */
export function completeTree(command: Command): Command {
  if (command instanceof CipCommand) command.complete();
  for (const sub of command.commands) completeTree(sub);
  return command;
}
