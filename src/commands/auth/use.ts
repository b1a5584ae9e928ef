import { defineCommand } from '../define.js';
import { argument, completedFrom, flag } from '../../cli/options.js';
import { allowHttp } from '../../config/credentials/settings.js';
import { shownPath, writeProjectProfile } from '../../config/project.js';
import { UsageError } from '../../errors.js';
import { OUTPUT_FORMATS } from '../../output/format.js';
import { requireProfile } from '../../config/store.js';

export default defineCommand({
  name: 'use',
  // The command's old name: scripts and notes that say `cip auth switch` keep working.
  aliases: ['switch'],
  description: 'make a profile the active one, or pin it to this folder (--here)',
  // Writes no data on stdout: any format.
  outputs: OUTPUT_FORMATS,
  args: { name: completedFrom('profiles', argument('<name>', 'profile name')) },
  options: {
    here: flag(
      '--here',
      'pin the profile to the current folder instead: write .cip.json here (commands run in it and below use the profile); the active profile stays',
    ),
  },
  examples: ['cip auth use staging', 'cip auth use prod --here'],
  async run(ctx, { name, here }) {
    const store = await ctx.store();
    if (here) {
      requireProfile(store.read(), name);
      if (ctx.host.cwd === undefined) throw new UsageError('the current folder no longer exists', 'change to a folder and try again');
      const { path, before } = writeProjectProfile(ctx.host.cwd, name, { uid: ctx.host.uid, gid: ctx.host.gid, allowHttp: allowHttp(ctx) });
      const was =
        before === undefined
          ? ''
          : ` (it pinned ${before.profile === undefined ? 'an enterprise id or base URL' : `profile '${before.profile}'`})`;
      ctx.io.info(`Wrote ${shownPath(path)}${was}: commands run in this folder and below use profile '${name}'.`);
      return;
    }
    await store.update((data) => {
      requireProfile(data, name);
      data.activeProfile = name;
    });
    ctx.io.info(`Profile '${name}' is now active.`);
    let project;
    try {
      project = ctx.project();
    } catch (error) {
      // A project file that cannot be used is said by every command that would use it.
      if (!(error instanceof UsageError)) throw error;
    }
    if (project?.profile !== undefined && project.profile !== name) {
      ctx.io.warn(
        `here, the project file ${shownPath(project.path)} pins profile '${project.profile}': commands run under it use that one`,
      );
    }
  },
});
