// The output formats, in one place: the --output choices, CIP_OUTPUT, the formats each command takes and the
// writer all read this list, and the one decision of which format a run writes is made here.
import { UsageError } from '../errors.js';
import { printable } from '../text/sanitize.js';
import { meant } from '../text/similar.js';

export const OUTPUT_FORMATS = ['table', 'json', 'yaml', 'tsv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Formats that hold any data as it is (a plan, a file for apply): what a command that writes no rows takes. */
export const DOCUMENT_FORMATS = ['json', 'yaml'] as const satisfies readonly OutputFormat[];

/** Formats written as rows of columns, a header line first (unless --no-headers); --columns picks the columns. */
export const ROW_FORMATS: readonly OutputFormat[] = ['tsv'];

/** "table, json, yaml or tsv" */
export function oneOf(formats: readonly string[]): string {
  return formats.length === 1 ? formats[0]! : `${formats.slice(0, -1).join(', ')} or ${formats.at(-1)!}`;
}

/**
 * What a command writes on stdout, as its declaration states it: the formats it can honour (none for one that
 * writes a text of its own, such as a script), and the format it writes when none is asked for, if that is not
 * the usual table at a terminal and JSON in a pipe.
 */
export interface CommandOutput {
  /** How the command is named in an error: `cip env export`. */
  command: string;
  takes: readonly OutputFormat[];
  preferred?: OutputFormat | undefined;
}

export interface FormatChoice {
  json: boolean;
  output: OutputFormat | undefined;
  jq?: string | undefined;
  /** CIP_OUTPUT as given. */
  fromEnv: string | undefined;
  stdoutIsTTY: boolean;
  /** The command that runs; before one is chosen (or in a test), every format is taken. */
  command?: CommandOutput | undefined;
}

/**
 * --jq (JSON) > --json > --output > CIP_OUTPUT > the command's own choice > a table on a terminal, JSON in a pipe.
 * A format asked for on the command line that the command cannot honour is a usage error, before anything is
 * sent. CIP_OUTPUT is a default for every command: one that cannot honour it writes what it would without it, so
 * a CI job that sets CIP_OUTPUT=tsv can still run `env export`.
 */
export function chooseFormat({ json, output, jq, fromEnv, stdoutIsTTY, command }: FormatChoice): OutputFormat {
  const takes = command?.takes ?? OUTPUT_FORMATS;
  const asked: [OutputFormat, string] | undefined =
    jq !== undefined ? ['json', '--jq'] : json ? ['json', '--json'] : output ? [output, '--output'] : undefined;
  if (asked) {
    const [format, flag] = asked;
    if (!takes.includes(format)) throw refused(command?.command ?? 'this command', takes, format, flag);
    return format;
  }
  const wanted = fromEnv?.trim().toLowerCase();
  if (wanted) {
    const format = OUTPUT_FORMATS.find((candidate) => candidate === wanted);
    if (!format)
      throw new UsageError(
        `CIP_OUTPUT must be one of ${OUTPUT_FORMATS.join(', ')}, not '${printable(fromEnv!)}'`,
        meant(wanted, OUTPUT_FORMATS),
      );
    if (takes.includes(format)) return format;
  }
  return command?.preferred ?? (stdoutIsTTY ? 'table' : 'json');
}

function refused(command: string, takes: readonly OutputFormat[], format: OutputFormat, flag: string): UsageError {
  const asked = flag === '--output' ? format : `${format} (${flag})`;
  if (!takes.length) return new UsageError(`${command} cannot write ${asked}: it writes a text of its own, in no other format`);
  return new UsageError(`${command} cannot write ${asked}: it writes ${oneOf(takes)}`);
}

/** Whether the format is data for machines (JSON, YAML, TSV) rather than a view for people (the writer decides by it). */
export function isDataFormat(format: OutputFormat): boolean {
  return format !== 'table';
}

/** Whether the format writes rows of columns. */
export function isRowFormat(format: OutputFormat): boolean {
  return ROW_FORMATS.includes(format);
}
