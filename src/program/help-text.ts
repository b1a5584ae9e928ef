// The help prose of the command tree: the notes after `cip --help` (environment variables, the credential rule,
// exit codes), after each command's options (its notes and examples), and `cip help globals`.
import type { Command } from 'commander';
import type { AnyCommand } from '../commands/define.js';
import { wrapExample, wrapHelp } from '../cli/help.js';
import type { Context } from '../context.js';
import { EXIT_CODES } from '../errors.js';
import { DEFAULT_BASE_URL } from '../config/validate.js';
import { OUTPUT_FORMATS, oneOf } from '../output/format.js';

export const EXIT_CODE_HELP = `\nExit codes:\n${EXIT_CODES.map(({ code, meaning }) => `  ${String(code).padStart(3)}  ${meaning}`).join('\n')}`;

export const ENVIRONMENT_HELP = `
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

export const GLOBAL_HEADING = 'Global options:';

/** The help topics of `cip help TOPIC`, beside the commands. */
export const TOPICS_HELP = "\nMore help: 'cip help globals' (the options every command takes), 'cip help environment'.";

/** The last line of every command's help: the global options are listed once, not under each command. */
export const GLOBALS_POINTER = "\nGlobal options (--profile, --output, --json, --jq, ...): see 'cip help globals'.";

/** The width help is laid out for: the terminal it goes to, else 80. */
export function helpWidth(ctx: Context, error: boolean): number {
  return (error ? ctx.io.stderrColumns : ctx.io.columns) ?? 80;
}

/** What follows a command's options: its notes and examples, wrapped to width, and where the global options are. */
export function helpAfter(spec: AnyCommand, width: number): string {
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
export function globalsHelp(program: Command, width: number): string {
  const helper = program.createHelp();
  helper.prepareContext({ helpWidth: width });
  const options = helper.visibleOptions(program).filter((option) => option.helpGroupHeading === GLOBAL_HEADING);
  const termWidth = Math.max(...options.map((option) => helper.optionTerm(option).length));
  return [
    wrapHelp('Global options (every command takes them, before or after its name):', width),
    ...options.map((option) => helper.formatItem(helper.optionTerm(option), termWidth, helper.optionDescription(option), helper)),
  ].join('\n');
}
