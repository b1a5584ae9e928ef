// `cip completion` prints the script from index.ts; the hidden `cip __complete <what>` gives the
// scripts the values they cannot know statically.
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineCommand } from './define.js';
import { argument } from '../cli/options.js';
import type { Context } from '../context.js';
import { scopeKey } from '../config/credentials/credential.js';
import { MAX_CONFIG_BYTES, configDir, configFilePath } from '../config/store.js';
import { isProfileName } from '../config/validate.js';
import { isRecord } from '../json/record.js';
import { SHELLS } from '../completion/shells.js';
import { idOf, nameOf } from '../domain/environments/target.js';

export const completion = defineCommand({
  name: 'completion',
  description: 'print a shell completion script',
  // A shell script: no other format.
  outputs: [],
  args: { shell: argument('<shell>', 'bash, zsh, fish or powershell', SHELLS) },
  notes: `Create the folder first if it does not exist:
  bash  mkdir -p ~/.local/share/bash-completion/completions   (needs the bash-completion package)
  zsh   mkdir -p ~/.zfunc   (and in ~/.zshrc, before compinit: fpath=(~/.zfunc $fpath))
  fish  mkdir -p ~/.config/fish/completions
PowerShell: add the last example's line to your profile ($PROFILE).`,
  examples: [
    'cip completion bash > ~/.local/share/bash-completion/completions/cip',
    'cip completion zsh > ~/.zfunc/_cip',
    'cip completion fish > ~/.config/fish/completions/cip.fish',
    'cip completion powershell | Out-String | Invoke-Expression',
  ],
  async run(ctx, { shell }, { root }) {
    const { generateCompletion } = await import('../completion/index.js');
    ctx.io.stdout.write(generateCompletion(root, shell));
  },
});

/** Values the completion scripts cannot know statically, one per line. Silent on any failure: it runs on Tab. */
export const complete = defineCommand({
  name: '__complete',
  description: 'values for the completion scripts',
  // Lines for the completion scripts.
  outputs: [],
  hidden: true,
  args: { what: argument('<what>', 'what to list: profiles, environments') },
  run: async (ctx, { what }) => {
    if (what === 'profiles') completeProfiles(ctx);
    else if (what === 'environments') await completeEnvironments(ctx);
  },
});

function completeProfiles(ctx: Context): void {
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

/** How long the ids and names fetched for completion are reused: a Tab pressed again is answered at once. */
const CACHE_TTL_MS = 60_000;
/** The longest a Tab may wait for the API. */
const COMPLETION_TIMEOUT_MS = 2_000;
const CACHE_NAME = 'completion-cache.json';
/**
 * What completion may offer: the scripts quote every value for their shell, so spaces, quotes, ';', '$()' and
 * the like are fine. Left out: a value with a line break (one value a line), a tab (fish's description
 * separator) or another control or format character (it would reach the terminal raw in a list of choices,
 * or hide what is inserted), and one that starts with '-' (the command would read it as an option: a name
 * '--yes' offered to `env delete` would skip the question).
 * Made on first use: V8 builds a Unicode property class (\p{C}) when the expression is made, and this module
 * is loaded by every run of cip.
 */
let completable: RegExp | undefined;
const isCompletable = (value: string): boolean => (completable ??= /^[^\p{C}-][^\p{C}]*$/u).test(value);

interface CompletionCache {
  /** Whose environments: the base URL, enterprise and profile (never a key). */
  key: string;
  at: number;
  values: string[];
}

function readCache(path: string, key: string, now: number): string[] | undefined {
  try {
    const stats = statSync(path);
    if (!stats.isFile() || stats.size > MAX_CONFIG_BYTES) return undefined;
    const cache = JSON.parse(readFileSync(path, 'utf8')) as Partial<CompletionCache>;
    const fresh = cache.key === key && typeof cache.at === 'number' && now - cache.at >= 0 && now - cache.at < CACHE_TTL_MS;
    return fresh && Array.isArray(cache.values)
      ? cache.values.filter((value) => typeof value === 'string' && isCompletable(value))
      : undefined;
  } catch {
    return undefined;
  }
}

/** Written only into a config folder that already exists; a Tab never creates folders. */
function writeCache(dir: string, cache: CompletionCache): void {
  try {
    if (!statSync(dir).isDirectory()) return;
    const path = join(dir, CACHE_NAME);
    const temp = `${path}.${String(cache.at)}.tmp`;
    writeFileSync(temp, JSON.stringify(cache), { mode: 0o600, flag: 'wx' });
    renameSync(temp, path);
  } catch {
    // A cache that cannot be written only costs the next Tab a request.
  }
}

/**
 * The environments' ids and names for the credentials a command would use now, from a cache of a minute or
 * from one list read cut off after 2 s. Silent on any failure: no credentials, no network, a slow API.
 */
async function completeEnvironments(ctx: Context): Promise<void> {
  let values: string[] | undefined;
  try {
    const settings = await ctx.settings();
    const key = `${settings.baseUrl} ${scopeKey(settings.credentials)} ${settings.profile ?? ''}`;
    const dir = configDir(ctx.env);
    const now = Date.now();
    values = readCache(join(dir, CACHE_NAME), key, now);
    if (!values) {
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(COMPLETION_TIMEOUT_MS)]);
      const api = await ctx.apiFor(settings, { timeout: COMPLETION_TIMEOUT_MS / 1000, signal });
      const items = await api.list();
      const found = new Set<string>();
      for (const item of items) {
        // A name that holds a key is left out: offered (or cached), it would show the key.
        for (const value of [idOf(item), nameOf(item)]) {
          if (value !== undefined && isCompletable(value) && ctx.redact(value) === value) found.add(value);
        }
      }
      values = [...found];
      writeCache(dir, { key, at: now, values });
    }
  } catch {
    return;
  }
  ctx.io.stdout.write(values.map((value) => `${value}\n`).join(''));
}
