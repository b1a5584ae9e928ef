// Completion scripts for bash, zsh, fish and PowerShell, generated from the commander tree so they cannot drift
// from the commands. Loaded only for `cip completion`.
import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { powershellScript } from './powershell.js';
import type { Shell } from './shells.js';
import { describeCommand } from './spec.js';
import { zshScript } from './zsh.js';

/** A completion script for the program's visible commands and options. Pure and deterministic. */
export function generateCompletion(program: Command, shell: Shell): string {
  const root = describeCommand(program);
  switch (shell) {
    case 'bash':
      return bashScript(root);
    case 'zsh':
      return zshScript(root);
    case 'fish':
      return fishScript(root);
    case 'powershell':
      return powershellScript(root);
  }
}
