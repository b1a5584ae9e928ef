// `help [command...]` at every level of the tree, with the topics of the root.
import type { Command } from 'commander';
import { commandElsewhere, didYouMean } from '../cli/suggest.js';
import { UsageError } from '../errors.js';
import { printable } from '../text/sanitize.js';
import { asCip, commandPath, suggestible } from './cip-command.js';

const HELP_ARGUMENT = '[command...]';

/**
 * `help [command...]` at every level: `cip help env create` is `cip env create --help`, and `cip env help create`
 * the same. commander's own help command looks one word deep only.
 */
export function addHelpCommand(parent: Command, topics: Record<string, () => string> = {}): void {
  parent.helpCommand(false);
  const help = asCip(parent.command('help').description('show help for a command'));
  help.later(() => addHelpArgument(parent, help, topics), { options: false, args: [HELP_ARGUMENT] });
}

function addHelpArgument(parent: Command, help: Command, topics: Record<string, () => string>): void {
  help
    .argument(
      HELP_ARGUMENT,
      Object.keys(topics).length
        ? `the command, as you would type it, or a topic: ${Object.keys(topics).join(', ')}`
        : 'the command, as you would type it',
    )
    .action((words: string[]) => {
      const topic = words.length === 1 ? topics[words[0]!] : undefined;
      if (topic) {
        parent.configureOutput().writeOut!(`${topic()}\n`);
        return;
      }
      let target = parent;
      for (const [index, word] of words.entries()) {
        const next = target.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
        if (!next) {
          const typed = [...commandPath(parent), ...words.slice(0, index + 1)].slice(1).join(' ');
          const hint =
            target.commands.length === 0
              ? `'${commandPath(target).join(' ')}' has no subcommands`
              : (commandElsewhere(commandPath(target), word) ??
                didYouMean(word, suggestible(target)) ??
                `run '${[...commandPath(target), 'help'].join(' ')}' to see the commands`);
          throw new UsageError(`unknown command '${printable(typed)}'`, hint);
        }
        target = next;
      }
      target.outputHelp();
    });
}
