// `cip completion` prints the script from completion-script.ts; the hidden `cip __complete <what>` gives the
// scripts the values they cannot know statically.
import { existsSync } from 'node:fs';
import type { Context } from '../context.js';
import type { Shell } from './completion-script.js';
import { buildProgram } from '../program.js';
import { configDir, configFilePath } from '../config/store.js';

export async function completion(ctx: Context, shell: string): Promise<void> {
  const { generateCompletion } = await import('./completion-script.js');
  ctx.io.stdout.write(generateCompletion(buildProgram(ctx), shell as Shell));
}

/** Values the completion scripts cannot know statically, one per line. Silent on any failure: it runs on Tab. */
export async function completeValues(ctx: Context, what: string): Promise<void> {
  if (what !== 'profiles') return;
  let names: string[];
  try {
    // Pressing Tab must not create the config folder: look before opening the store.
    if (!existsSync(configFilePath(configDir(ctx.env)))) return;
    names = Object.keys((await ctx.store()).read().profiles);
  } catch {
    return;
  }
  ctx.io.stdout.write(names.map((name) => `${name}\n`).join(''));
}
