// `cip completion` prints the script from index.ts; the hidden `cip __complete <what>` gives the
// scripts the values they cannot know statically.
import { readFileSync, statSync } from 'node:fs';
import { defineCommand } from '../define.js';
import { argument } from '../../cli/options.js';
import type { Context } from '../../context.js';
import { MAX_CONFIG_BYTES, configDir, configFilePath } from '../../config/store.js';
import { isProfileName } from '../../config/validate.js';
import { isRecord } from '../../json/record.js';
import { SHELLS } from './shells.js';

export const completion = defineCommand({
  name: 'completion',
  description: 'print a shell completion script',
  args: { shell: argument('<shell>', 'bash, zsh or fish', SHELLS) },
  notes: `Create the folder first if it does not exist:
  bash  mkdir -p ~/.local/share/bash-completion/completions   (needs the bash-completion package)
  zsh   mkdir -p ~/.zfunc   (and in ~/.zshrc, before compinit: fpath=(~/.zfunc $fpath))
  fish  mkdir -p ~/.config/fish/completions`,
  examples: [
    'cip completion bash > ~/.local/share/bash-completion/completions/cip',
    'cip completion zsh > ~/.zfunc/_cip',
    'cip completion fish > ~/.config/fish/completions/cip.fish',
  ],
  async run(ctx, { shell }, { root }) {
    const { generateCompletion } = await import('./index.js');
    ctx.io.stdout.write(generateCompletion(root, shell));
  },
});

/** Values the completion scripts cannot know statically, one per line. Silent on any failure: it runs on Tab. */
export const complete = defineCommand({
  name: '__complete',
  description: 'values for the completion scripts',
  hidden: true,
  args: { what: argument('<what>', 'what to list: profiles') },
  run: (ctx, values) => {
    completeValues(ctx, values);
    return Promise.resolve();
  },
});

function completeValues(ctx: Context, { what }: { what: string }): void {
  if (what !== 'profiles') return;
  // Pressing Tab must change nothing and say nothing: read the file as it is, without the store (which
  // creates folders, fixes permissions and loads conf), and stay silent if it is missing or broken.
  let names: string[];
  try {
    const path = configFilePath(configDir(ctx.env));
    // A FIFO would block the shell's Tab; a huge file would stall it.
    const stats = statSync(path);
    if (!stats.isFile() || stats.size > MAX_CONFIG_BYTES) return;
    const data: unknown = JSON.parse(readFileSync(path, 'utf8'));
    const profiles = (data as { profiles?: unknown }).profiles;
    // Only names cip could have stored: a hand-made one with a newline or quote must not reach the shell.
    names = isRecord(profiles) ? Object.keys(profiles).filter(isProfileName) : [];
  } catch {
    return;
  }
  ctx.io.stdout.write(names.map((name) => `${name}\n`).join(''));
}
