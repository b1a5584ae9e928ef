// The output formats, in one place: the --output choices, CIP_OUTPUT and the writer all read this list.
import { UsageError } from '../errors.js';

export const OUTPUT_FORMATS = ['table', 'json', 'yaml', 'tsv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface FormatChoice {
  json: boolean;
  output: OutputFormat | undefined;
  /** CIP_OUTPUT as given. */
  fromEnv: string | undefined;
  stdoutIsTTY: boolean;
}

/** --json > --output > CIP_OUTPUT > a table on a terminal, JSON in a pipe. */
export function chooseFormat({ json, output, fromEnv, stdoutIsTTY }: FormatChoice): OutputFormat {
  if (json) return 'json';
  if (output) return output;
  const wanted = fromEnv?.trim().toLowerCase();
  if (wanted) {
    const format = OUTPUT_FORMATS.find((candidate) => candidate === wanted);
    if (!format) throw new UsageError(`CIP_OUTPUT must be one of ${OUTPUT_FORMATS.join(', ')}, not '${fromEnv}'`);
    return format;
  }
  return stdoutIsTTY ? 'table' : 'json';
}

/** Whether the format is data for machines (JSON, YAML, TSV) rather than a view for people. */
export function isDataFormat(format: OutputFormat): boolean {
  return format !== 'table';
}
