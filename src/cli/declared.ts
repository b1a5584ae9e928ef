// Commander's options and arguments, carrying what a declaration says that commander does not keep: that an
// option collects every value given (so a shell offers it again), and where a shell finds its values. program.ts
// builds them; the completion spec (completion/spec.ts) reads them, so completion follows the
// declarations and keeps no list of its own.
import { Argument, Option } from 'commander';
import type { ValueSource } from './options.js';

export class DeclaredOption extends Option {
  constructor(
    flags: string,
    description: string,
    readonly repeatable: boolean,
    readonly completes: ValueSource | undefined,
  ) {
    super(flags, description);
  }
}

export class DeclaredArgument extends Argument {
  constructor(
    name: string,
    description: string,
    readonly completes: ValueSource | undefined,
  ) {
    super(name, description);
  }
}
