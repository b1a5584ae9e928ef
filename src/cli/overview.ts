// What bare `cip` prints: a short overview on stdout, as gh does, instead of the full help as an error. The
// full help (global options, environment variables, exit codes) stays one `cip --help` away.
import { wrapText } from '../output/table.js';

/** A command as the overview lists it. */
export interface OverviewEntry {
  name: string;
  description: string;
}

/** The overview, wrapped to width columns, ending with a newline. */
export function overview(description: string, commands: readonly OverviewEntry[], width: number): string {
  const nameWidth = Math.max(...commands.map((command) => command.name.length)) + 2;
  const textWidth = Math.max(20, width - 2 - nameWidth);
  const rows = commands.flatMap((command) =>
    wrapText(command.description, textWidth).map((line, index) =>
      `  ${(index === 0 ? command.name : '').padEnd(nameWidth)}${line}`.trimEnd(),
    ),
  );
  const paragraph = (text: string) => wrapText(text, Math.max(20, width)).join('\n');
  return [
    paragraph(description),
    '',
    'Usage: cip <command> [options]',
    '',
    'Commands:',
    ...rows,
    '',
    paragraph("Start with 'cip auth login', or try cip offline against 'cip sandbox'."),
    paragraph(
      "'cip help <command>' shows a command's options; 'cip --help' also lists the global options, environment variables and exit codes.",
    ),
    '',
  ].join('\n');
}
