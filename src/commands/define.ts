// A command is one declaration (after wrangler's createCommand): its name, arguments, options, help and the
// code that runs, in its own file. program.ts lists the declarations and turns them into commander commands.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import type { ArgumentSpecs, OptionSpecs, ValuesOf } from '../cli/options.js';
import type { OutputFormat } from '../output/format.js';

/** What a command's run() gets besides the context and its values. */
export interface Invocation {
  /** The root of the command tree, every command built in full (completion scripts are generated from it). */
  root: Command;
}

export interface CommandSpec<A extends ArgumentSpecs = ArgumentSpecs, O extends OptionSpecs = OptionSpecs> {
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly description: string;
  /** Left out of help, completions and docs (the completion scripts' helper). */
  readonly hidden?: boolean;
  /** Positional arguments, in order. */
  readonly args?: A;
  readonly options?: O;
  /** Help after the options: what the description cannot say in a line. */
  readonly notes?: string;
  readonly examples?: readonly string[];
  /**
   * The output formats the command can honour: --output/--json/--jq asking for another is a usage error before
   * it runs; a CIP_OUTPUT it cannot honour is passed over. Every format for one that writes no data on stdout
   * (nothing to get wrong), none for one that writes a text of its own (a script).
   */
  readonly outputs: readonly OutputFormat[];
  /** What it writes when no format is asked for, if not a table at a terminal and JSON in a pipe. */
  readonly defaultOutput?: OutputFormat;
  run(ctx: Context, values: ValuesOf<A> & ValuesOf<O>, invocation: Invocation): Promise<void>;
}

/** A noun (`auth`, `env`) and its verbs. */
export interface CommandGroup {
  readonly name: string;
  readonly description: string;
  readonly commands: readonly AnyCommand[];
}

// A declaration whose value types are its own; program.ts treats them all alike.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommand = CommandSpec<any, any>;

/** Checks a declaration and infers run()'s value types from its arguments and options. */
// A command without arguments or options gets no values from them: the defaults are empty on purpose.
// eslint-disable-next-line @typescript-eslint/no-generated-empty-object-type
export function defineCommand<const A extends ArgumentSpecs = Record<never, never>, const O extends OptionSpecs = Record<never, never>>(
  spec: CommandSpec<A, O>,
): CommandSpec<A, O> {
  return spec;
}
