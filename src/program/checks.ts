// The checks before a command runs: an option value given twice or empty, and global options that disagree.
import { type Command, Option } from 'commander';
import type { OptionSpecs } from '../cli/options.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';

/** A single-valued option given twice is refused: the last one silently winning would hide a mistake (two --data). */
export function refuseRepeats(command: Command, option: Option): void {
  let given = false;
  command.on(`option:${option.name()}`, () => {
    if (given) throw new UsageError(`${option.long ?? option.flags} was given more than once`, 'give it once');
    given = true;
  });
}

/**
 * An empty value is never 'not given': a script whose variable is unset (`--profile "$PROFILE"`) must stop,
 * not fall back to the active profile, which may be production.
 */
export function refuseEmptyValues(specs: OptionSpecs, command: Command): void {
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

/** The global options, read into ctx.globals: refused when they disagree, or when CIP_OUTPUT is bad. */
export async function checkGlobals(ctx: Context): Promise<void> {
  const { json, output, jq } = ctx.globals;
  if (json && output !== undefined && output !== 'json') {
    throw new UsageError(`--json and --output ${output} disagree`, "give one of them; --json is the same as '--output json'");
  }
  if (jq !== undefined && output !== undefined && output !== 'json') {
    throw new UsageError(`--jq and --output ${output} disagree`, '--jq filters the JSON data');
  }
  // A filter jq cannot compile is a usage error before anything is sent (jq loads only when --jq is given).
  if (jq !== undefined) await (await import('../output/jq.js')).checkJqFilter(jq, ctx.io.jqRunner!);
  // A bad CIP_OUTPUT is a usage error now, before any request, not after one.
  // eslint-disable-next-line @typescript-eslint/no-unused-expressions -- the getter throws for a bad CIP_OUTPUT
  ctx.io.outputFormat;
}
