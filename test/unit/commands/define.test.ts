// The command declarations: what run() receives must be what commander parses.
import { Argument, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { GLOBAL_OPTIONS } from '../../../src/cli/globals.js';
import type { ArgumentSpecs, OptionSpecs } from '../../../src/cli/options.js';
import type { AnyCommand } from '../../../src/commands/define.js';
import { COMMAND_TREE } from '../../../src/program.js';

const commands: [string, AnyCommand][] = COMMAND_TREE.flatMap((entry) =>
  'commands' in entry
    ? entry.commands.map((command): [string, AnyCommand] => [`${entry.name} ${command.name}`, command])
    : [[entry.name, entry]],
);

describe('command declarations', () => {
  it.each(commands)('%s: each option is keyed by the name commander stores it under', (_name, command) => {
    for (const [key, spec] of Object.entries((command.options ?? {}) as OptionSpecs)) {
      expect(new Option(spec.flags).attributeName(), spec.flags).toBe(key);
    }
  });

  it('the global options are keyed by the names commander stores them under', () => {
    for (const [key, spec] of Object.entries(GLOBAL_OPTIONS)) expect(new Option(spec.flags).attributeName(), spec.flags).toBe(key);
  });

  it.each(commands)('%s: arguments, options and global options never share a name', (_name, command) => {
    const names = [...Object.keys(command.args ?? {}), ...Object.keys(command.options ?? {}), ...Object.keys(GLOBAL_OPTIONS)];
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(commands)('%s: a variadic argument comes last', (_name, command) => {
    const args = Object.values((command.args ?? {}) as ArgumentSpecs).map((spec) => new Argument(spec.name));
    expect(args.slice(0, -1).some((arg) => arg.variadic)).toBe(false);
  });

  it.each(commands)('%s: has a description and examples that start with cip', (_name, command) => {
    expect(command.description).not.toBe('');
    for (const example of command.examples ?? []) expect(example).toMatch(/^cip /);
  });
});
