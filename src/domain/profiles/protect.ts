// Protected profiles (production). In a profile marked protected (`cip auth protect`), a destructive or wide
// change asks the user to type the profile's name at a terminal; a script must pass --confirm NAME. --yes alone
// is never enough: it is what a script copied from staging already says. Each command makes one call,
// `guardProtected(ctx, settings, { change, confirm, dryRun })`, before it sends anything; delete also calls
// `refuseUnconfirmedProtected` before it reads the list, so a script learns at once.
//
// --confirm NAME is checked whenever it is given, protected or not: it says which profile the script means,
// and a script that means 'prod' must not act in 'staging' (or with credentials from the environment). When it
// names the profile in use, it answers the command's ordinary question as --yes does.
//
// A profile that a project file (.cip.json) chose is named with the file, in the question and in each refusal: a
// user who cd'd into a checkout may not know that the folder, not the active profile, decides.
import type { Context } from '../../context.js';
import { actingAs } from '../../config/credentials/credential.js';
import type { ResolvedSettings } from '../../config/credentials/settings.js';
import type { Profile } from '../../config/store.js';
import { DEFAULT_BASE_URL } from '../../config/validate.js';
import { ExitOnly, UsageError } from '../../errors.js';
import { planStyles } from '../../output/writer.js';
import { ask } from '../../terminal/prompt.js';
import { hideCredentials, printable } from '../../text/sanitize.js';

/** An apply of more changes than this, in a protected profile, asks as a delete does. */
export const WIDE_CHANGES = 10;

export interface Guarded {
  /** What will change, after "About to": "delete environment 'staging' (7d1c…)"; may hold further lines; no final period. */
  change: string;
  /** --confirm NAME as given. */
  confirm: string | undefined;
  /** --dry-run sends nothing: no question (a --confirm given is still checked). */
  dryRun?: boolean;
  /** --yes was given: the refusal says it is not enough. */
  yes?: boolean;
}

/** Where a change goes, as the guard names it. */
interface Target {
  profile: string | undefined;
  /** The project file that chose the profile (its path as shown), when one did. */
  chosenBy?: string | undefined;
  /** The project file that pinned the enterprise or the base URL of a profile it did not choose, when one did. */
  pinnedBy?: string | undefined;
  protected: boolean;
  baseUrl: string;
  /** "enterprise 3f2b…", "with a token for enterprise 3f2b…" */
  acting: string;
  /** What a refusal says was not done: a request, or a change to the profile itself. */
  untouched: string;
}

function targetOf(settings: ResolvedSettings): Target {
  const { project } = settings;
  const chosen = project !== undefined && settings.profileFrom === project;
  return {
    profile: settings.profile,
    chosenBy: chosen ? project : undefined,
    pinnedBy: chosen ? undefined : project,
    protected: settings.protected === true,
    baseUrl: settings.baseUrl,
    acting: actingAs(settings.credentials).afterProfile,
    untouched: 'nothing was sent',
  };
}

/** A stored profile as the guard names it (`auth unprotect`, `auth logout`: no credentials are resolved). */
function profileTarget(name: string, profile: Profile, chosenBy: string | undefined): Target {
  return {
    profile: name,
    chosenBy,
    protected: profile.protected === true,
    baseUrl: profile.baseUrl ?? DEFAULT_BASE_URL,
    acting: 'enterpriseId' in profile ? `enterprise ${profile.enterpriseId}` : 'with a token',
    untouched: 'nothing was changed',
  };
}

/** The profile as messages name it: 'prod', or 'prod' (from /home/u/app/.cip.json) when that file chose it. */
function profileText(target: Target): string {
  return `'${printable(target.profile!)}'${target.chosenBy === undefined ? '' : ` (from ${target.chosenBy})`}`;
}

/** A name as a shell word, for the hint a script's author copies: prod, or 'my prod'. */
export function shellWord(name: string): string {
  const shown = printable(name, 200);
  return /^[\w.@%+=:,/-]+$/.test(shown) ? shown : `'${shown.replace(/'/g, `'\\''`)}'`;
}

/**
 * --confirm checked against the profile in use: true when it names it, exactly; exit 2 when it names another,
 * or when no profile is in use. Nothing has been sent when this is called.
 */
function confirmedByName(target: Target, confirm: string | undefined): boolean {
  if (confirm === undefined) return false;
  if (target.profile === undefined) {
    throw new UsageError(
      `--confirm ${shellWord(confirm)} names a profile, but this command uses none (its credentials come from the environment): ${target.untouched}`,
    );
  }
  if (confirm !== target.profile) {
    throw new UsageError(`--confirm ${shellWord(confirm)} does not match the profile's name, ${profileText(target)}: ${target.untouched}`);
  }
  return true;
}

/** Without a terminal, a protected profile needs --confirm: refused at once, before anything is read or sent. */
function refuseScript(ctx: Context, target: Target, { change, confirm, dryRun, yes }: Guarded): boolean {
  const named = confirmedByName(target, confirm);
  if (named || dryRun || !target.protected || ctx.io.canPrompt) return named;
  const why = ctx.io.stdinIsTTY && ctx.io.stderrIsTTY ? ` (${ctx.io.noPromptReason})` : '';
  throw new UsageError(
    `profile ${profileText(target)} is protected: to ${firstLine(change)} without a terminal${why}, pass --confirm ${shellWord(target.profile!)}${yes ? ' (--yes is not enough)' : ''}; ${target.untouched}`,
  );
}

/** The host a base URL names; a stored profile's may be anything a hand wrote (auth unprotect reads it unchecked). */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return printable(hideCredentials(baseUrl));
  }
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]!.replace(/:$/, '');
}

/**
 * --confirm alone, for a command that learns only later whether its change is wide (apply): checked before
 * anything is read. True when it names the profile in use; exit 2 when it names another.
 */
export function confirmsProfile(settings: ResolvedSettings, confirm: string | undefined): boolean {
  return confirmedByName(targetOf(settings), confirm);
}

/**
 * For a command that reads before it knows all it will change (delete reads the list): the script's refusal,
 * before the read. True when --confirm names the profile in use.
 */
export function refuseUnconfirmedProtected(ctx: Context, settings: ResolvedSettings, guarded: Guarded): boolean {
  return refuseScript(ctx, targetOf(settings), guarded);
}

/**
 * The guard: in a protected profile, --confirm NAME, or the name typed at a terminal. True when the change was
 * confirmed by the profile's name (the command then asks nothing more); false when the profile is not protected
 * and no --confirm was given, or on a dry run. Exit 2 (nothing sent) for a wrong name, or a script without
 * --confirm; exit 130 for Ctrl-C at the question.
 */
export function guardProtected(ctx: Context, settings: ResolvedSettings, guarded: Guarded): Promise<boolean> {
  return guard(ctx, targetOf(settings), guarded);
}

/**
 * The guard for a change to a stored profile itself (`auth unprotect`, `auth logout`). chosenBy: the project
 * file that chose the profile (its path as shown), when one did.
 */
export function guardProfile(ctx: Context, name: string, profile: Profile, guarded: Guarded, chosenBy?: string): Promise<boolean> {
  return guard(ctx, profileTarget(name, profile, chosenBy), guarded);
}

async function guard(ctx: Context, target: Target, guarded: Guarded): Promise<boolean> {
  if (refuseScript(ctx, target, guarded)) return true;
  if (!target.protected || guarded.dryRun) return false;
  const name = target.profile!;
  const host = hostOf(target.baseUrl);
  const warning = (await planStyles(ctx.io, ctx.io.stderrIsTTY)).change;
  const lines = [
    `Profile ${profileText(target)} is protected: ${target.acting} at ${host}${target.pinnedBy === undefined ? '' : ` (pinned by ${target.pinnedBy})`}.`,
    `About to ${guarded.change}.`,
    `Type the profile's name, '${printable(name)}', to go on:`,
  ];
  // The whole question in the warning colour; the answer is typed after it, uncoloured.
  const answer = await ask(ctx.io, `${lines.map((line) => warning(line)).join('\n')} `, { exact: true });
  if (answer === name) return true;
  if (answer.trim() === '') {
    ctx.io.info('Nothing was changed.');
    throw new ExitOnly('usage', 'nothing changed: not confirmed');
  }
  throw new UsageError(`the name typed is not '${printable(name)}': nothing was changed`);
}
