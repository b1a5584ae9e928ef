// `cip completion` prints the script from completion-script.ts; the hidden `cip __complete <what>` gives the
// scripts the values they cannot know statically.
import { readFileSync, statSync } from 'node:fs';
import type { Context } from '../context.js';
import type { Shell } from './completion-script.js';
import { buildProgram } from '../program.js';
import { MAX_CONFIG_BYTES, configDir, configFilePath } from '../config/store.js';
import { isProfileName } from '../config/validate.js';

export async function completion(ctx: Context, shell: string): Promise<void> {
  const { generateCompletion } = await import('./completion-script.js');
  ctx.io.stdout.write(generateCompletion(buildProgram(ctx), shell as Shell));
}

/** Values the completion scripts cannot know statically, one per line. Silent on any failure: it runs on Tab. */
export async function completeValues(ctx: Context, what: string): Promise<void> {
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
    names = typeof profiles === 'object' && profiles !== null && !Array.isArray(profiles) ? Object.keys(profiles).filter(isProfileName) : [];
  } catch {
    return;
  }
  ctx.io.stdout.write(names.map((name) => `${name}\n`).join(''));
}
