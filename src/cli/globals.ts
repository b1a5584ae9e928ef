// The options every command takes. Their values reach the context before a command runs (program.ts).
import { InvalidArgumentError } from 'commander';
import { DEFAULT_BASE_URL } from '../config/validate.js';
import { OUTPUT_FORMATS, ROW_FORMATS } from '../output/format.js';
import { choice, completedFrom, flag, option, type ValuesOf } from './options.js';

const MAX_TIMEOUT_SECONDS = 2_000_000;

function parseTimeout(text: string): number {
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_TIMEOUT_SECONDS) {
    throw new InvalidArgumentError('expected a positive number of seconds');
  }
  return seconds;
}

const DEFAULT_TIMEOUT_SECONDS = 30;

export const GLOBAL_OPTIONS = {
  profile: completedFrom('profiles', option('-p, --profile <name>', 'profile to use (default: the active one)')),
  output: choice('-o, --output <format>', 'output format (default: table on a terminal, json otherwise)', OUTPUT_FORMATS),
  json: flag('--json', 'same as --output json'),
  baseUrl: option('--base-url <url>', `API base URL (default: ${DEFAULT_BASE_URL})`),
  enterpriseId: option('--enterprise-id <guid>', 'enterprise GUID sent in the EnterpriseId header'),
  timeout: option('--timeout <seconds>', 'seconds to wait for each answer', parseTimeout, DEFAULT_TIMEOUT_SECONDS),
  verbose: flag('--verbose', 'log each request and response to stderr (keys redacted)'),
  quiet: flag('-q, --quiet', 'print no progress or notes, only data and errors'),
  color: flag('--no-color', 'plain text without colour'),
  jq: option('--jq <expression>', 'filter the data with jq (strings printed raw, as jq -r); implies JSON'),
  journal: flag('--no-journal', "record none of this run's writes in the journal (as CIP_JOURNAL=off)"),
  headers: flag('--no-headers', `leave out the header line of ${ROW_FORMATS.map((format) => `-o ${format}`).join(' and ')}`),
};

export type GlobalOptions = ValuesOf<typeof GLOBAL_OPTIONS>;

/** What the options are before argv is parsed (and for tests that build a context by hand). */
export const DEFAULT_GLOBALS: GlobalOptions = {
  profile: undefined,
  output: undefined,
  json: false,
  baseUrl: undefined,
  enterpriseId: undefined,
  timeout: DEFAULT_TIMEOUT_SECONDS,
  verbose: false,
  quiet: false,
  color: true,
  jq: undefined,
  journal: true,
  headers: true,
};
