// The command tree. A fresh commander program is built for every run (commander objects keep parse state).
// Commands are small and bundled together; what is heavy (third-party packages, Node's HTTP server) is
// imported where it is used, so start-up pays only for what the command being run needs.
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { Context, GlobalOptions } from './context.js';
import { EXIT_CODES, UsageError } from './errors.js';
import { escapeControls } from './text/sanitize.js';
import { DEFAULT_BASE_URL, SECRETS_URL } from './config/validate.js';
import type { FieldAssignment } from './commands/env/payload.js';
import { login } from './commands/auth/login.js';
import { logout } from './commands/auth/logout.js';
import { status } from './commands/auth/status.js';
import { switchProfile } from './commands/auth/switch.js';
import { completeValues, completion } from './commands/completion.js';
import { create } from './commands/env/create.js';
import { remove } from './commands/env/delete.js';
import { list } from './commands/env/list.js';
import { update } from './commands/env/update.js';
import { sandbox } from './commands/sandbox.js';

export const OUTPUT_FORMATS = ['table', 'json'] as const;
export const SHELLS = ['bash', 'zsh', 'fish'] as const;

function parseTimeout(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 2_000_000) {
    throw new InvalidArgumentError('expected a positive number of seconds');
  }
  return seconds;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('expected a port number 0-65535');
  return port;
}

function parseCount(value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0 || count > 1_000_000) throw new InvalidArgumentError('expected a whole number 0-1000000');
  return count;
}


function parseColumns(value: string): string[] {
  const columns = value.split(',').map((column) => column.trim()).filter(Boolean);
  if (!columns.length) throw new InvalidArgumentError('expected a comma-separated list of field names');
  return columns;
}

/**
 * An empty value is never 'not given': a script whose variable is unset (`--profile "$PROFILE"`) must stop,
 * not fall back to the active profile, which may be production.
 */
function refuseEmptyValues(globals: GlobalOptions): void {
  const given = { '--profile': globals.profile, '--base-url': globals.baseUrl, '--enterprise-id': globals.enterpriseId };
  for (const [flag, value] of Object.entries(given)) {
    if (value !== undefined && value.trim() === '') {
      throw new UsageError(`${flag} was given an empty value`, `leave ${flag} out to use the default; an empty value is refused, never read as 'not given'`);
    }
  }
}

const EXIT_CODE_HELP = `\nExit codes:\n${EXIT_CODES.map(({ code, meaning }) => `  ${String(code).padStart(3)}  ${meaning}`).join('\n')}`;

const ENVIRONMENT_HELP = `
Environment variables:
  CIP_PROFILE            profile to use (like --profile)
  CIP_API_KEY            API key
  CIP_SUBSCRIPTION_KEY   APIM subscription key
  CIP_ENTERPRISE_ID      enterprise GUID (like --enterprise-id)
  CIP_BASE_URL           API base URL (like --base-url; default ${DEFAULT_BASE_URL})
  CIP_OUTPUT             table or json (like --output)
  CIP_CONFIG_DIR         where profiles are stored
  CIP_ALLOW_HTTP=1       allow http:// base URLs to hosts other than this machine
  CIP_MAX_ANSWER_BYTES   the largest answer cip reads (default 256 MiB)
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY   proxies, as curl reads them; never for this machine
  NO_COLOR, FORCE_COLOR, CI
An empty variable counts as unset; an empty option value (--profile "") is an error.

Which credentials a command uses (the first row that applies):
  1. --profile or CIP_PROFILE names a profile   that profile; CIP_API_KEY, CIP_SUBSCRIPTION_KEY,
                                                CIP_ENTERPRISE_ID and CIP_BASE_URL are ignored (with a warning)
  2. CIP_API_KEY, CIP_SUBSCRIPTION_KEY and      the variables (and CIP_BASE_URL); no profile is read
     CIP_ENTERPRISE_ID are all set
  3. some of those variables are set            the active profile, those variables overriding it (with a warning)
  4. none is set                                the active profile
--base-url and --enterprise-id override the value chosen in every row.
'cip auth status' shows which profile and values a command would use now, and where each comes from.`;

const PAYLOAD_HELP = `
The JSON object sent is built from --file, then --data, then each --field and --raw-field in turn
(later values win). --field values are typed: true, false, null, numbers and JSON ("[1,2]", '{"a":1}');
--raw-field values are always strings.`;

type Runner = (ctx: Context, ...rest: never[]) => Promise<void>;

/** Adapts a command runner to commander: the context, the positionals, then the options object. */
function action(ctx: Context, runner: Runner) {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    await (runner as (ctx: Context, ...rest: unknown[]) => Promise<void>)(ctx, ...args.slice(0, -2), command.opts());
  };
}

export function buildProgram(ctx: Context): Command {
  const program = new Command('cip');
  program
    .description('Manage environments of the Copyl Integration Platform from the command line.')
    .version(ctx.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .helpCommand(false)
    .option('-p, --profile <name>', 'profile to use (default: the active one)')
    .addOption(new Option('-o, --output <format>', 'output format (default: table on a terminal, json otherwise)').choices(OUTPUT_FORMATS))
    .option('--json', 'same as --output json')
    .option('--base-url <url>', `API base URL (default: ${DEFAULT_BASE_URL})`)
    .option('--enterprise-id <guid>', 'enterprise GUID sent in the EnterpriseId header')
    .option('--timeout <seconds>', 'seconds to wait for each answer', parseTimeout, 30)
    .option('--verbose', 'log each request and response to stderr (keys redacted)')
    .option('-q, --quiet', 'print no progress or notes, only data and errors')
    .option('--no-color', 'plain text without colour')
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .configureOutput({
      writeOut: (text) => ctx.io.stdout.write(text),
      writeErr: (text) => ctx.io.stderr.write(text),
      // commander's usage errors, on one line like ours
      outputError: (text, write) => write(`${escapeControls(text.replace(/\s*\n\s*(?=\S)/g, ' ').trimEnd())}\n`),
    })
    .exitOverride()
    .addHelpText('after', `${ENVIRONMENT_HELP}\n${EXIT_CODE_HELP}\n`)
    .hook('preAction', (_program, action) => {
      ctx.globals = action.optsWithGlobals<GlobalOptions>();
      refuseEmptyValues(ctx.globals);
      // A bad CIP_OUTPUT is a usage error now, before any request, not after one.
      void ctx.outputFormat;
    });

  const auth = program.command('auth').description('log in, inspect and switch profiles');
  auth
    .command('login')
    .description('store API keys and an enterprise id as a profile')
    .option('--api-key-file <path>', "read the API key from a file ('-' for stdin)")
    .option('--subscription-key-file <path>', "read the subscription key from a file ('-' for stdin)")
    .option('--no-verify', 'save without checking the keys against the API')
    .addHelpText(
      'after',
      `
The profile is named by --profile (default: 'default'); the first one stored becomes active.
--base-url and --enterprise-id set the profile's values. Keys come from the files above, else from
CIP_API_KEY and CIP_SUBSCRIPTION_KEY, else from a hidden prompt at a terminal. They are never taken
as plain option values, so they stay out of shell history and process lists.
Find your keys at ${SECRETS_URL}

Examples:
  cip auth login --enterprise-id 3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b
  cip auth login --profile staging --base-url https://staging.example.com/ms --api-key-file key.txt \\
    --subscription-key-file sub.txt --enterprise-id 3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b`,
    )
    .action(action(ctx, login));
  auth
    .command('status')
    .description('show every profile, with keys masked')
    .action(action(ctx, status));
  auth
    .command('switch')
    .description('make a profile the active one')
    .argument('<name>', 'profile name')
    .action(action(ctx, switchProfile));
  auth
    .command('logout')
    .description('remove a profile (default: the active one; name another with --profile)')
    .action(action(ctx, logout));

  const env = program.command('env').description('list, create, update and delete environments');
  env
    .command('list')
    .alias('ls')
    .description('list all environments')
    .option('--columns <fields>', 'comma-separated fields to show in the table', parseColumns)
    .addHelpText('after', `
Examples:
  cip env list
  cip env list --columns id,name,type
  cip env list --json | jq -r '.[].id'`)
    .action(action(ctx, list));
  const payloadOptions = (command: Command) => {
    // -F and -f apply in the order given, so both collect into one list (the `fields` option).
    const fields: FieldAssignment[] = [];
    const add = (raw: boolean) => (text: string) => {
      fields.push({ raw, text });
      return fields;
    };
    return command
      .option('--data <json>', 'the payload as a JSON object')
      .option('--file <path>', "read the payload from a JSON file ('-' for stdin)")
      .addOption(new Option('-F, --field <key=value>', 'set a typed field (repeatable)').argParser(add(false)))
      .addOption(new Option('-f, --raw-field <key=value>', 'set a string field (repeatable)').argParser(add(true)))
      .hook('preAction', (_command, action) => {
        action.setOptionValue('fields', fields);
      });
  };
  payloadOptions(env.command('create').description('create an environment'))
    .addHelpText('after', `${PAYLOAD_HELP}

Examples:
  cip env create -f name=staging -F isActive=true
  cip env create --data '{"name":"staging","description":"pre-production"}'
  cip env create --file env.json`)
    .action(action(ctx, create));
  payloadOptions(env.command('update').description('replace an environment (HTTP PUT)').argument('<id>', 'environment id'))
    .addHelpText('after', `${PAYLOAD_HELP}
A payload whose id differs from <id> is refused: it would write one environment's data over another's.

Examples:
  cip env update 7d1c... -f name=staging -F isActive=false
  cip env list --json | jq '.[] | select(.id == "7d1c...") | .description = "new"' | cip env update 7d1c... --file -`)
    .action(action(ctx, update));
  env
    .command('delete')
    .alias('rm')
    .description('delete environments (asks first at a terminal)')
    .argument('<id...>', 'environment ids')
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .addHelpText('after', `
The question names each environment, the profile and the enterprise. Ids are deleted in order; after a
failure or an interrupt, cip says which were deleted, which was under way and which were not attempted.

Examples:
  cip env delete 7d1c...
  cip env delete 7d1c... 9a0b... --yes`)
    .action(action(ctx, remove));

  program
    .command('completion')
    .description('print a shell completion script')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .addHelpText('after', `
Examples:
  cip completion bash > ~/.local/share/bash-completion/completions/cip
  cip completion zsh > "\${fpath[1]}/_cip"
  cip completion fish > ~/.config/fish/completions/cip.fish`)
    .action(action(ctx, completion));

  program
    .command('sandbox')
    .description('run an offline sandbox of the API on this machine (Ctrl-C stops it)')
    .option('--port <n>', 'port to listen on (default: a free one)', parsePort, 0)
    .option('--seed <n>', 'number of sample environments to start with', parseCount, 3)
    .action(action(ctx, sandbox));

  program
    .command('__complete', { hidden: true })
    .argument('<what>')
    .action(action(ctx, completeValues));

  return program;
}

export { CommanderError };
