// The command tree: the list of commands, and the commander program built from it for a run. Each job of that
// building has a module in program/: the commander subclass (cip-command.ts), declarations turned into commander
// commands (declarations.ts), the checks before a command runs (checks.ts), help's prose (help-text.ts) and the
// help command (help-command.ts).
// A fresh commander program is built for every run (commander objects keep parse state). Commands are small
// and bundled together; what is heavy (third-party packages, Node's HTTP server) is imported where it is
// used, so start-up pays only for what the command being run needs. Likewise each command is built in two
// steps: its name, aliases, description and hidden flag at once (listings, suggestions and dispatch need only
// those), its arguments, options, help text and action the first time it is run or its help is shown.
import type { Command } from 'commander';
import type { AnyCommand, CommandGroup } from './commands/define.js';
import { GLOBAL_OPTIONS, type GlobalOptions } from './cli/globals.js';
import { wrapHelp } from './cli/help.js';
import type { Context } from './context.js';
import { escapeControls } from './text/sanitize.js';
import { CipCommand } from './program/cip-command.js';
import { checkGlobals, refuseEmptyValues } from './program/checks.js';
import { addCommand, addOption, valuesOf } from './program/declarations.js';
import { addHelpCommand } from './program/help-command.js';
import {
  ENVIRONMENT_HELP,
  EXIT_CODE_HELP,
  GLOBAL_HEADING,
  GLOBALS_POINTER,
  TOPICS_HELP,
  globalsHelp,
  helpWidth,
} from './program/help-text.js';
import login from './commands/auth/login.js';
import logout from './commands/auth/logout.js';
import protect from './commands/auth/protect.js';
import status from './commands/auth/status.js';
import unprotect from './commands/auth/unprotect.js';
import useProfile from './commands/auth/use.js';
import { complete, completion } from './commands/completion.js';
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

export { completeTree } from './program/cip-command.js';

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
      await checkGlobals(ctx);
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
