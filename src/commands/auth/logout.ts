import { defineCommand } from '../define.js';
import type { Context } from '../../context.js';
import { CipError, UsageError } from '../../errors.js';
import { KeychainError, describeEntry, profileEntry } from '../../config/store/keychain.js';
import { inKeychain, type Profile, getProfile, requireProfile } from '../../config/store.js';
import { OUTPUT_FORMATS } from '../../output/format.js';
import { guardProfile } from '../../domain/profiles/protect.js';
import { printable } from '../../text/sanitize.js';
import { shownPath } from '../../config/project.js';
import { CONFIRM_OPTION } from '../options.js';
import { namedProfile } from '../../config/credentials/candidates.js';

export default defineCommand({
  name: 'logout',
  description: 'remove a profile and its keys (default: the active one; name another with --profile)',
  // Writes no data on stdout: any format.
  outputs: OUTPUT_FORMATS,
  options: { confirm: CONFIRM_OPTION },
  notes: `A protected profile asks for its name first (--confirm NAME without a terminal): logging out and in
again would otherwise take its protection off unasked.
Keys in the keychain are removed from it; keys in the config file go with the profile. If the keychain
cannot be reached, the profile is removed all the same and the command ends with exit 9, naming the entry
that is left. In a folder whose project file (.cip.json) pins another profile than the active one, name the
profile to remove with --profile: cip does not guess (exit 2).`,
  examples: ['cip auth logout', 'cip auth logout --profile staging'],
  run: logout,
});

/**
 * With no profile named, logout removes the active profile; but in a folder whose project file pins another,
 * every other command there uses that one, and the user may mean either: cip asks for the name, never guesses.
 */
function refuseAmbiguous(ctx: Context, active: string | undefined): void {
  if (namedProfile(ctx) !== undefined) return;
  const project = ctx.project();
  if (project?.profile === undefined || project.profile === active) return;
  throw new UsageError(
    `the project file ${shownPath(project.path)} pins profile '${printable(project.profile)}', but the active profile is ${active === undefined ? 'none' : `'${printable(active)}'`}: cip will not guess which to log out of`,
    `name it: cip auth logout --profile ${printable(project.profile)}${active === undefined ? '' : ` (or --profile ${printable(active)})`}`,
  );
}

async function logout(ctx: Context, { confirm }: { confirm: string | undefined }): Promise<void> {
  const store = await ctx.store();
  const before = store.read();
  refuseAmbiguous(ctx, before.activeProfile);
  const chosen = namedProfile(ctx) ?? before.activeProfile;
  const current = chosen === undefined ? undefined : getProfile(before, chosen);
  // With no profile named, a project file that pins the active profile chose it too (refuseAmbiguous): said.
  const project = namedProfile(ctx) === undefined ? ctx.project() : undefined;
  const chosenBy = project?.profile !== undefined && project.profile === chosen ? shownPath(project.path) : undefined;
  const confirmed =
    current !== undefined &&
    (await guardProfile(
      ctx,
      chosen!,
      current,
      { change: `log out of profile '${printable(chosen!)}' and remove its keys`, confirm },
      chosenBy,
    ));
  let removed = '';
  let profile: Profile | undefined;
  let nowActive: string | undefined;
  // The file first: from then on no command uses the profile, whatever happens to the keychain.
  await store.update((data) => {
    const name = namedProfile(ctx) ?? data.activeProfile;
    refuseAmbiguous(ctx, data.activeProfile);
    if (!name) throw new UsageError('no active profile to log out of', 'name one with --profile');
    profile = requireProfile(data, name);
    if (profile.protected === true && !(confirmed && name === chosen)) {
      throw new UsageError(`profile '${printable(name)}' was protected meanwhile: nothing was changed`, 'run the command again');
    }
    removed = name;
    data.profiles = Object.fromEntries(Object.entries(data.profiles).filter(([other]) => other !== removed));
    const remaining = Object.keys(data.profiles);
    if (data.activeProfile === removed || (data.activeProfile !== undefined && !getProfile(data, data.activeProfile))) {
      // With one profile left there is no doubt which to use; with several, the user chooses.
      data.activeProfile = remaining.length === 1 ? remaining[0] : undefined;
      if (data.activeProfile === undefined) delete data.activeProfile;
    }
    nowActive = data.activeProfile;
  });
  const active = nowActive ? ` Active profile: '${nowActive}'.` : " No profile is active; choose one with 'cip auth use <name>'.";
  if (profile && inKeychain(profile)) {
    const entry = profileEntry(removed, profile);
    try {
      await ctx.keychain().remove(entry);
    } catch (error) {
      if (!(error instanceof KeychainError)) throw error;
      throw new CipError(
        'partial',
        `removed profile '${removed}', but not its keys from the keychain: ${error.reason}`,
        `they are still there (${describeEntry(entry)}); remove them with your keychain's own tool`,
      );
    }
  }
  ctx.io.info(`Removed profile '${removed}'.${active}`);
}
