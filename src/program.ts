// The command tree: the list of commands, and how a declaration (commands/define.ts) becomes a commander command.
// A fresh commander program is built for every run (commander objects keep parse state). Commands are small
// and bundled together; what is heavy (third-party packages, Node's HTTP server) is imported where it is
// used, so start-up pays only for what the command being run needs. Likewise each command is built in two
// steps: its name, aliases, description and hidden flag at once (listings, suggestions and dispatch need only
// those), its arguments, options, help text and action the first time it is run or its help is shown.
import { Command, CommanderError, InvalidArgumentError, Option, type Help, type HelpContext } from 'commander';
import type { AnyCommand, CommandGroup } from './commands/define.js';
import { DeclaredArgument, DeclaredOption } from './cli/declared.js';
import { GLOBAL_OPTIONS, type GlobalOptions } from './cli/globals.js';
import type { ArgumentSpecs, OptionSpec, OptionSpecs } from './cli/options.js';
import { wrapExample, wrapHelp } from './cli/help.js';
import { overview } from './cli/overview.js';
import {
  commandElsewhere,
  didYouMean,
  fieldArguments,
  flagOnly,
  keyOptionHint,
  optionMistake,
  type OptionsTaken,
  type Suggestible,
} from './cli/suggest.js';
import type { Context } from './context.js';
import { EXIT_CODES, UsageError } from './errors.js';
import { escapeControls, printable } from './text/sanitize.js';
import { meant } from './text/similar.js';
import { DEFAULT_BASE_URL } from './config/validate.js';
import { OUTPUT_FORMATS, oneOf } from './output/format.js';
import login from './commands/auth/login.js';
import logout from './commands/auth/logout.js';
import protect from './commands/auth/protect.js';
import status from './commands/auth/status.js';
import unprotect from './commands/auth/unprotect.js';
import useProfile from './commands/auth/use.js';
import { complete, completion } from './commands/completion/command.js';
import create from './commands/env/create.js';
import remove from './commands/env/delete.js';
import get from './commands/env/get.js';
import exportEnvironments from './commands/env/export.js';
import diff from './commands/env/diff.js';
import apply from './commands/env/apply.js';
import list from './commands/env/list.js';
import update from './commands/env/update.js';
import history from './commands/env/history.js';
import restore from './commands/env/restore.js';
import sandbox from './commands/sandbox.js';
import api from './commands/api.js';
import doctor from './commands/doctor.js';

/** Every command, in the order help lists them. */
export const COMMAND_TREE: readonly (CommandGroup | AnyCommand)[] = [
  {
    name: 'auth',
    description: 'log in, inspect and switch profiles',
    commands: [login, status, useProfile, logout, protect, unprotect],
  },
  {
    name: 'env',
    description: 'list, get, create, update and delete environments; export, diff and apply them as code',
    commands: [list, get, create, update, remove, exportEnvironments, diff, apply, history, restore],
  },
  api,
  doctor,
  completion,
  sandbox,
  complete,
];

const EXIT_CODE_HELP = `\nExit codes:\n${EXIT_CODES.map(({ code, meaning }) => `  ${String(code).padStart(3)}  ${meaning}`).join('\n')}`;

const ENVIRONMENT_HELP = `
Environment variables:
  CIP_PROFILE            profile to use (like --profile)
  CIP_API_KEY            API key
  CIP_TOKEN              a token (JWT), sent as Authorization: Bearer instead of an API
                         key; it needs no enterprise id
  CIP_SUBSCRIPTION_KEY   APIM subscription key
  CIP_ENTERPRISE_ID      enterprise GUID (like --enterprise-id)
  CIP_BASE_URL           API base URL (like --base-url; default ${DEFAULT_BASE_URL})
  CIP_OUTPUT             ${oneOf(OUTPUT_FORMATS)} (like --output)
  CIP_CONFIG_DIR         where profiles are stored
  CIP_CREDENTIAL_STORE   where login keeps keys: keychain (default) or file
                         (plain text, like --insecure-storage: for servers)
  CIP_KEYCHAIN_TIMEOUT   seconds one visit to the keychain may take (default 3)
  CIP_ALLOW_HTTP=1       allow http:// base URLs to hosts other than this machine
  CIP_MAX_ANSWER_BYTES   the largest answer cip reads (default 256 MiB)
  CIP_JOURNAL=off        record no writes in the journal (like --no-journal)
  CIP_JOURNAL_DAYS       days the journal keeps its entries (default 30)
  CIP_JOURNAL_MAX_MB     the journal's largest size in MB (default 50)
  CIP_DEBUG=1            print a stack trace with an error (for bug reports)
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY   proxies, as curl reads them; never for this machine
  NO_COLOR, FORCE_COLOR, CI
An empty variable counts as unset; an empty option value (--profile "") is an error.

Precedence: flags, then environment variables, then the project file, then the active profile.
The project file is the nearest .cip.json from the current folder upward (up to your home folder), holding {"profile": "prod"}, or {"enterpriseId": "GUID", "baseUrl": "https://..."}; 'cip auth use NAME --here' writes one. One that others can write to is ignored, with a warning.

Which credentials a command uses (the first rule that applies):
  1. --profile or CIP_PROFILE names a profile: that profile; CIP_TOKEN, CIP_API_KEY,
     CIP_SUBSCRIPTION_KEY, CIP_ENTERPRISE_ID and CIP_BASE_URL are ignored (with a warning), and
     the project file is not read.
  2. CIP_TOKEN and CIP_API_KEY are both set: an enterprise id (CIP_ENTERPRISE_ID, --enterprise-id
     or the project file's) picks the API key, in that enterprise, and CIP_TOKEN is not used;
     without one, cip refuses (exit 2) rather than guess which enterprise you meant.
  3. CIP_TOKEN and CIP_SUBSCRIPTION_KEY are set, or CIP_API_KEY, CIP_SUBSCRIPTION_KEY and an
     enterprise id are: the variables (and CIP_BASE_URL); no profile is used.
  4. Some of those variables are set: the project file's profile, else the active one, those
     variables overriding it (with a warning); CIP_TOKEN replaces a profile's API key and
     enterprise id.
  5. None is set: the project file's profile, else the active profile.
A project file naming an unknown profile is exit 2. Its enterprise id and base URL override the profile's; a base URL on another host than the keys are for is exit 2. An enterprise id or a token for another enterprise than the project file pins is exit 2.
--base-url and --enterprise-id override the value chosen by every rule. A token acts for the
enterprise it was issued for: an enterprise id given with one is refused (exit 2). A token that has
expired is refused before anything is sent (exit 3); one that expires within 5 minutes is warned of.
'cip auth status' shows which profile and values a command would use now, and where each comes from.`;

const GLOBAL_HEADING = 'Global options:';

/** The help topics of `cip help TOPIC`, beside the commands. */
const TOPICS_HELP = "\nMore help: 'cip help globals' (the options every command takes), 'cip help environment'.";

/** The last line of every command's help: the global options are listed once, not under each command. */
const GLOBALS_POINTER = "\nGlobal options (--profile, --output, --json, --jq, ...): see 'cip help globals'.";

/** The width help is laid out for: the terminal it goes to, else 80. */
function helpWidth(ctx: Context, error: boolean): number {
  return (error ? ctx.io.stderrColumns : ctx.io.columns) ?? 80;
}

/** commander's Command, with a typo suggestion that names each command once, never an alias beside its command. */
class CipCommand extends Command {
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
   * the command being run gets its arguments, options and action. test/unit/lazy-commands.test.ts fails if
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
   * test/unit/lazy-commands.test.ts holds the two equal for every command.
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
function asCip(command: Command): CipCommand {
  if (!(command instanceof CipCommand)) throw new Error(`'${command.name()}' was not made by CipCommand`);
  return command;
}

/** The commands help lists under a command, as candidates for a suggestion. */
function suggestible(command: Command): Suggestible[] {
  return command
    .createHelp()
    .visibleCommands(command)
    .map((sub) => ({ name: sub.name(), aliases: sub.aliases() }));
}

const HELP_ARGUMENT = '[command...]';

/**
 * `help [command...]` at every level: `cip help env create` is `cip env create --help`, and `cip env help create`
 * the same. commander's own help command looks one word deep only.
 */
function addHelpCommand(parent: Command, topics: Record<string, () => string> = {}): void {
  parent.helpCommand(false);
  const help = asCip(parent.command('help').description('show help for a command'));
  help.later(() => addHelpArgument(parent, help, topics), { options: false, args: [HELP_ARGUMENT] });
}

function addHelpArgument(parent: Command, help: Command, topics: Record<string, () => string>): void {
  help
    .argument(
      HELP_ARGUMENT,
      Object.keys(topics).length
        ? `the command, as you would type it, or a topic: ${Object.keys(topics).join(', ')}`
        : 'the command, as you would type it',
    )
    .action((words: string[]) => {
      const topic = words.length === 1 ? topics[words[0]!] : undefined;
      if (topic) {
        parent.configureOutput().writeOut!(`${topic()}\n`);
        return;
      }
      let target = parent;
      for (const [index, word] of words.entries()) {
        const next = target.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
        if (!next) {
          const typed = [...commandPath(parent), ...words.slice(0, index + 1)].slice(1).join(' ');
          const hint =
            target.commands.length === 0
              ? `'${commandPath(target).join(' ')}' has no subcommands`
              : (commandElsewhere(commandPath(target), word) ??
                didYouMean(word, suggestible(target)) ??
                `run '${[...commandPath(target), 'help'].join(' ')}' to see the commands`);
          throw new UsageError(`unknown command '${printable(typed)}'`, hint);
        }
        target = next;
      }
      target.outputHelp();
    });
}

/** ['cip', 'env'] for `cip env`. */
function commandPath(command: Command): string[] {
  return command.parent ? [...commandPath(command.parent), command.name()] : [command.name()];
}

/** A single-valued option given twice is refused: the last one silently winning would hide a mistake (two --data). */
function refuseRepeats(command: Command, option: Option): void {
  let given = false;
  command.on(`option:${option.name()}`, () => {
    if (given) throw new UsageError(`${option.long ?? option.flags} was given more than once`, 'give it once');
    given = true;
  });
}

function addOption(command: Command, spec: OptionSpec): void {
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
function valuesOf(specs: OptionSpecs, given: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(specs)) {
    const value = given[key];
    if (spec.kind === 'flag') values[key] = new Option(spec.flags).negate ? value !== false : value === true;
    else if (spec.kind === 'list') values[key] = value ?? [];
    else values[key] = value;
  }
  return values;
}

/**
 * An empty value is never 'not given': a script whose variable is unset (`--profile "$PROFILE"`) must stop,
 * not fall back to the active profile, which may be production.
 */
function refuseEmptyValues(specs: OptionSpecs, command: Command): void {
  for (const [key, spec] of Object.entries(specs)) {
    const value: unknown = command.getOptionValue(key);
    const texts = spec.kind === 'value' && typeof value === 'string' ? [value] : [];
    if (texts.some((text) => text.trim() === '')) {
      const flag = new Option(spec.flags).long ?? spec.flags;
      throw new UsageError(
        `${flag} was given an empty value`,
        `give it a value or leave ${flag} out; an empty value is refused, never read as 'not given'`,
      );
    }
  }
}

/** What follows a command's options: its notes and examples, wrapped to width, and where the global options are. */
function helpAfter(spec: AnyCommand, width: number): string {
  const parts = [
    spec.notes === undefined ? undefined : wrapHelp(spec.notes, width),
    spec.examples?.length ? `Examples:\n${spec.examples.map((example) => wrapExample(example, width)).join('\n')}` : undefined,
  ];
  const text = parts
    .filter((part) => part !== undefined)
    .map((part) => `\n${part}`)
    .join('\n');
  return `${text}\n${wrapHelp(GLOBALS_POINTER, width)}`;
}

/** The global options as `cip --help` lists them, alone: `cip help globals`. */
function globalsHelp(program: Command, width: number): string {
  const helper = program.createHelp();
  helper.prepareContext({ helpWidth: width });
  const options = helper.visibleOptions(program).filter((option) => option.helpGroupHeading === GLOBAL_HEADING);
  const termWidth = Math.max(...options.map((option) => helper.optionTerm(option).length));
  return [
    wrapHelp('Global options (every command takes them, before or after its name):', width),
    ...options.map((option) => helper.formatItem(helper.optionTerm(option), termWidth, helper.optionDescription(option), helper)),
  ].join('\n');
}

/** Every command of the tree built in full: what walks the tree without parsing or help (tests) needs it. */
export function completeTree(command: Command): Command {
  if (command instanceof CipCommand) command.complete();
  for (const sub of command.commands) completeTree(sub);
  return command;
}

function addCommand(parent: Command, spec: AnyCommand, ctx: Context, root: Command): void {
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

export function buildProgram(ctx: Context): Command {
  const program = new CipCommand('cip');
  program
    .description('Manage environments of the Copyl Integration Platform from the command line.')
    .version(ctx.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .showSuggestionAfterError(true)
    // Descriptions wrap even beside long terms on a narrow terminal (commander gives up below 40 columns).
    .configureHelp({ sortSubcommands: false, minWidthToWrap: 20 })
    .configureOutput({
      writeOut: (text) => ctx.io.stdout.write(text),
      writeErr: (text) => ctx.io.stderr.write(text),
      // Help wraps to cip's own idea of the terminal, not to process.stdout's.
      getOutHelpWidth: () => ctx.io.columns ?? 80,
      getErrHelpWidth: () => ctx.io.stderrColumns ?? 80,
      // cip's help has no colour, and commander strips any from text for an output without it. Its own
      // default asks process.stdout, whose making loads Node's stream modules: a tenth of `cip --help`.
      getOutHasColors: () => false,
      getErrHasColors: () => false,
      // commander's usage errors, on one line like ours, and redacted like ours (a hint may repeat what was typed)
      outputError: (text, write) => write(ctx.redact(`${escapeControls(text.replace(/\s*\n\s*(?=\S)/g, ' ').trimEnd())}\n`)),
    })
    .exitOverride()
    .addHelpText('after', ({ error }) => wrapHelp(`${ENVIRONMENT_HELP}\n${TOPICS_HELP}\n${EXIT_CODE_HELP}\n`, helpWidth(ctx, error)))
    .hook('preAction', async () => {
      refuseEmptyValues(GLOBAL_OPTIONS, program);
      ctx.globals = valuesOf(GLOBAL_OPTIONS, program.opts()) as GlobalOptions;
      const { json, output, jq } = ctx.globals;
      if (json && output !== undefined && output !== 'json') {
        throw new UsageError(`--json and --output ${output} disagree`, "give one of them; --json is the same as '--output json'");
      }
      if (jq !== undefined && output !== undefined && output !== 'json') {
        throw new UsageError(`--jq and --output ${output} disagree`, '--jq filters the JSON data');
      }
      // A filter jq cannot compile is a usage error before anything is sent (jq loads only when --jq is given).
      if (jq !== undefined) await (await import('./output/jq.js')).checkJqFilter(jq, ctx.io.jqRunner!);
      // A bad CIP_OUTPUT is a usage error now, before any request, not after one.
      // eslint-disable-next-line @typescript-eslint/no-unused-expressions -- the getter throws for a bad CIP_OUTPUT
      ctx.io.outputFormat;
    });
  for (const option of Object.values(GLOBAL_OPTIONS)) addOption(program, option);
  // Listed once, under their own heading in `cip --help` and in `cip help globals`; commands point there.
  for (const option of program.options) if (option.long !== '--version') option.helpGroup(GLOBAL_HEADING);

  for (const entry of COMMAND_TREE) {
    if ('commands' in entry) {
      const group = program.command(entry.name).description(entry.description);
      group.addHelpText('after', ({ error }) => wrapHelp(GLOBALS_POINTER, helpWidth(ctx, error)));
      for (const spec of entry.commands) addCommand(group, spec, ctx, program);
      addHelpCommand(group);
    } else {
      addCommand(program, entry, ctx, program);
    }
  }
  addHelpCommand(program, {
    globals: () => globalsHelp(program, helpWidth(ctx, false)),
    environment: () => wrapHelp(ENVIRONMENT_HELP.trimStart(), helpWidth(ctx, false)),
  });
  return program;
}
