// Which profile, base URL and credentials a command uses, and where each came from. One order of precedence
// (README, `cip help environment`, `auth status`): the flags (--profile, --enterprise-id, --base-url), then the
// environment (CIP_PROFILE, the CIP_* credential variables), then the project file (config/project.ts: a
// `.cip.json` found from the working folder upward), then the active profile. In detail:
//   - a profile named with --profile or CIP_PROFILE is used as it is: the credential variables (CIP_TOKEN,
//     CIP_API_KEY, CIP_SUBSCRIPTION_KEY, CIP_ENTERPRISE_ID, CIP_BASE_URL) are ignored, with a warning, and the
//     project file is not read;
//   - with no profile named and both CIP_TOKEN and CIP_API_KEY set, an enterprise id given (the flag,
//     CIP_ENTERPRISE_ID, or the project file's) picks the API key, in that enterprise, and CIP_TOKEN is not used
//     (auth status says so); without one, cip refuses (exit 2): each may act in another enterprise, and cip
//     never guesses;
//   - with no profile named and a whole credential in the variables (CIP_TOKEN and CIP_SUBSCRIPTION_KEY, or
//     CIP_API_KEY, CIP_SUBSCRIPTION_KEY and an enterprise id), no profile is used;
//   - else the project file's profile, or the active one; a project file naming a profile that does not exist
//     is exit 2 (never the active profile in its place). Variables set override that profile, with a warning;
//   - a project file's enterprise id and base URL override the profile's, below the flags and variables;
//   - --base-url and --enterprise-id override whatever the rule chose. A token names no enterprise (it acts
//     for the one it was issued for), so an enterprise id given with one is refused (exit 2).
// A project file pins an enterprise (its enterprise id, or its profile's): an enterprise the run would act in
// that differs (an explicit one, or the one a token says it is for) is refused (exit 2).
// An explicit choice must win: a script that names a profile or an enterprise must never act with other
// credentials.
// The rule runs in three steps: gather the candidates (candidates.ts, pure), choose by one table (choose.ts,
// RULES), then read the profile it chose, load the secrets and check them (here).
import { isTruthyEnv, nonEmpty } from '../../env.js';
import { AuthError, UsageError } from '../../errors.js';
import { gatherCandidates, namedProfile, type Candidates, type CredentialInputs } from './candidates.js';
import { chooseCredentials, list, namingEnterprise, type Choice } from './choose.js';
import {
  KINDS,
  OWN_SECRET,
  credentialsOf,
  profileSource,
  type CredentialKind,
  type Credentials,
  type Given,
  type Source,
} from './credential.js';
import { keychainKeys, type Keychain } from '../store/keychain.js';
import { shownPath, type ProjectFile } from '../project.js';
import {
  activeProfile,
  getProfile,
  inKeychain,
  profileKind,
  requireProfile,
  type Profile,
  type ProfileStore,
  type StoreData,
} from '../store.js';
import { DEFAULT_BASE_URL, checkBaseUrl, checkEnterpriseId, checkKey } from '../validate.js';

export interface ResolvedSettings {
  /** The profile the values came from, if one was used. */
  profile: string | undefined;
  /** How that profile was chosen: '--profile', 'CIP_PROFILE', the project file's path, or 'the active profile'. */
  profileFrom?: string | undefined;
  /** The project file (its path, as shown) that decided the profile, the enterprise id or the base URL, if one did. */
  project?: string;
  baseUrl: string;
  /** What every request carries, and where each piece of it came from. */
  credentials: Credentials;
  sources: { baseUrl: Source };
  /** Credentials at hand that this run does not use, for `auth status`: "CIP_API_KEY from the environment". */
  unused: string[];
  /** The profile used is protected (domain/profiles/protect.ts); absent or false: it is not, or none is used. */
  protected?: boolean;
}

export interface SettingsInputs extends CredentialInputs {
  store(): Promise<ProfileStore>;
  /** Asked only for a profile whose keys are in the keychain, and only when the keys are needed. */
  keychain(): Keychain;
  warn(message: string): void;
  /** The project file in force (config/project.ts), read only when no profile is named. */
  project?(): ProjectFile | undefined;
  /** Where the nearest project file is, without reading it: auth status says it is not used when a profile is named. */
  projectPath?(): string | undefined;
}

export function allowHttp(ctx: CredentialInputs): boolean {
  return isTruthyEnv(ctx.env.CIP_ALLOW_HTTP);
}

/** What a profile of one kind holds that a credential of another does not use: "its API key and enterprise id". */
function unusedOf(kind: CredentialKind): string {
  return `its ${OWN_SECRET[kind].what}${KINDS[kind].enterpriseId ? ' and enterprise id' : ''}`;
}

/** The profile the rule chose, read from the store, and the enterprise the project file pins. */
interface Chosen {
  name: string | undefined;
  profile: Profile | undefined;
  /** How the profile was chosen: '--profile', 'CIP_PROFILE', the project file's path, or 'the active profile'. */
  from: string | undefined;
  pinned: { id: string; what: string } | undefined;
}

/** What the run acts with, found but not yet checked. */
interface Loaded {
  kind: CredentialKind;
  own: Given;
  subscriptionKey: Given;
  enterpriseId: Given | undefined;
}

export async function resolveSettings(ctx: SettingsInputs): Promise<ResolvedSettings> {
  // The project file counts only when no profile is named: then it is not even read.
  const project = namedProfile(ctx) === undefined ? ctx.project?.() : undefined;
  const candidates = gatherCandidates(ctx, project);
  const choice = chooseCredentials(candidates);
  const chosen = await readProfile(ctx, candidates, choice);
  const loaded = await loadSecrets(ctx, candidates, choice, chosen);
  return checkSettings(ctx, candidates, choice, chosen, loaded);
}

/** The profile the rule chose, from the store (opened only when a profile is needed), with its warnings. */
async function readProfile(ctx: SettingsInputs, c: Candidates, choice: Choice): Promise<Chosen> {
  const { project } = c;
  const unused = choice.unused;
  /** The enterprise the project file pins, directly or through its profile, for the check at the end. */
  let pinned: Chosen['pinned'] = project?.file.enterpriseId
    ? { id: project.file.enterpriseId, what: `enterprise ${project.file.enterpriseId}` }
    : undefined;
  if (choice.rule.profile === 'named') return readNamedProfile(ctx, c.named!, choice);
  // With a whole credential at hand (the CI case), no profile is used, and the profile store is not even
  // opened unless the project file names a profile (whose enterprise is then checked, if it has one here).
  const whole = choice.rule.profile === 'none';
  if (whole && project?.file.profile === undefined) return { name: undefined, profile: undefined, from: undefined, pinned };
  const data = (await ctx.store()).read();
  if (project?.file.profile !== undefined) {
    const pinnedProfile = getProfile(data, project.file.profile);
    if (pinnedProfile === undefined && !whole) throw unknownProjectProfile(project.file, data);
    if (pinnedProfile && 'enterpriseId' in pinnedProfile && nonEmpty(pinnedProfile.enterpriseId) !== undefined) {
      pinned = {
        id: pinnedProfile.enterpriseId,
        what: `profile '${project.file.profile}' (enterprise ${pinnedProfile.enterpriseId.trim()})`,
      };
    }
    if (!whole) return { name: project.file.profile, profile: pinnedProfile, from: project.source, pinned };
    unused.push(`profile '${project.file.profile}' of the project file ${project.source} (the credentials come from the environment)`);
    return { name: undefined, profile: undefined, from: undefined, pinned };
  }
  const name = activeProfile(data);
  const known = Object.keys(data.profiles);
  if (name === undefined && known.length) {
    throw new AuthError('no profile is active', `choose one with 'cip auth use <name>' or --profile (known profiles: ${known.join(', ')})`);
  }
  return {
    name,
    profile: name === undefined ? undefined : getProfile(data, name),
    from: name === undefined ? undefined : 'the active profile',
    pinned,
  };
}

/** The profile --profile or CIP_PROFILE names: used as it is, the variables and the project file ignored, with a warning. */
async function readNamedProfile(ctx: SettingsInputs, named: { name: string; by: string }, choice: Choice): Promise<Chosen> {
  const profile = requireProfile((await ctx.store()).read(), named.name);
  const { setVariables, unused } = choice;
  if (setVariables.length) {
    ctx.warn(`using profile '${named.name}' (named by ${named.by}): ignoring ${list(setVariables)} from the environment`);
    unused.push(`${list(setVariables)} from the environment (a profile is named)`);
  }
  const path = ctx.projectPath?.();
  if (path !== undefined) unused.push(`the project file ${shownPath(path)} (a profile is named by ${named.by})`);
  // CIP_PROFILE may be left over in a shell from other work: one that differs from the profile the project
  // file pins is said (a flag typed on this command line is not). A project file that cannot be read is
  // not this run's business: the profile is named.
  if (path !== undefined && ctx.globals.profile === undefined) {
    const pinnedName = readableProject(ctx)?.profile;
    if (pinnedName !== undefined && pinnedName !== named.name) {
      ctx.warn(
        `CIP_PROFILE names profile '${named.name}', but the project file ${shownPath(path)} pins profile '${pinnedName}': using '${named.name}' (CIP_PROFILE comes first)`,
      );
    }
  }
  return { name: named.name, profile, from: named.by, pinned: undefined };
}

/** A value of the chosen profile, with its source; none when it is empty or no profile is used. */
function ofProfile(chosen: Chosen, value: string | undefined): Given | undefined {
  return nonEmpty(value) === undefined || chosen.name === undefined ? undefined : { value: value!, source: profileSource(chosen.name) };
}

/** The credential's kind and its values: the variables' first, then the profile's (from the keychain when it keeps them). */
async function loadSecrets(ctx: SettingsInputs, c: Candidates, choice: Choice, chosen: Chosen): Promise<Loaded> {
  const { given, setVariables, unused } = choice;
  const { name: profileName, profile } = chosen;
  // A variable's credential replaces the profile's; else the profile says which kind it holds.
  const kind: CredentialKind = given?.kind ?? (profile ? profileKind(profile) : 'api-key');
  const own = OWN_SECRET[kind];
  const otherKind = profile !== undefined && profileKind(profile) !== kind;
  if (choice.rule.overrides && profileName !== undefined) {
    const replaced = otherKind ? ` (ignoring ${unusedOf(profileKind(profile))})` : '';
    ctx.warn(
      `${list(setVariables)} from the environment override${setVariables.length === 1 ? 's' : ''} profile '${profileName}'${replaced}`,
    );
  }
  if (otherKind) unused.push(`${unusedOf(profileKind(profile)).replace(/^its /, 'the ')} of profile '${profileName!}'`);
  let enterpriseId = choice.enterpriseId;
  if (!KINDS[kind].enterpriseId && enterpriseId) {
    const called = KINDS[kind].called;
    throw new UsageError(
      `${enterpriseId.source} does not apply to ${called}: ${called} acts for the enterprise it was issued for`,
      `${enterpriseId.source.startsWith('--') ? `leave out ${enterpriseId.source}` : `unset ${enterpriseId.source}`}, or use ${namingEnterprise()} to choose the enterprise`,
    );
  }
  // The keychain is visited only when the profile's keys are used: variables that give them all skip it.
  let ownSecret = given?.own;
  let subscriptionKey = choice.subscriptionKey;
  const needed = ownSecret === undefined || subscriptionKey === undefined;
  const keys: Readonly<Record<string, string | undefined>> | undefined =
    profile && needed ? (inKeychain(profile) ? await keychainKeys(ctx.keychain(), profileName!, profile) : secretsOf(profile)) : undefined;
  subscriptionKey ??= ofProfile(chosen, keys?.subscriptionKey);
  ownSecret ??= ofProfile(chosen, keys?.[own.field]);
  if (KINDS[kind].enterpriseId) enterpriseId ??= c.project?.enterpriseId;
  if (KINDS[kind].enterpriseId && !otherKind && profile && 'enterpriseId' in profile)
    enterpriseId ??= ofProfile(chosen, profile.enterpriseId);
  const missing = [
    ownSecret ? undefined : `${own.what} (${own.variable})`,
    subscriptionKey ? undefined : 'subscription key (CIP_SUBSCRIPTION_KEY)',
    KINDS[kind].enterpriseId && !enterpriseId ? 'enterprise id (CIP_ENTERPRISE_ID)' : undefined,
  ].filter((item): item is string => item !== undefined);
  if (missing.length === 3 && !profileName) throw new AuthError('not logged in: no profile and no credentials in the environment');
  if (missing.length) {
    throw new AuthError(`missing ${missing.join(', ')}${profileName ? ` in profile '${profileName}'` : ''}`);
  }
  return { kind, own: ownSecret!, subscriptionKey: subscriptionKey!, enterpriseId };
}

/** The values checked (base URL, enterprise, credential, subscription key), and the enterprise the project file pins. */
function checkSettings(ctx: SettingsInputs, c: Candidates, choice: Choice, chosen: Chosen, loaded: Loaded): ResolvedSettings {
  const { kind } = loaded;
  const { project } = c;
  const projectSource = project?.source;
  const { unused } = choice;
  const baseUrl = choice.baseUrl ??
    project?.baseUrl ??
    ofProfile(chosen, chosen.profile?.baseUrl) ?? { value: DEFAULT_BASE_URL, source: 'the default' };
  const checkedUrl = checkBaseUrl(baseUrl.value, describeSource(baseUrl.source, 'base URL'), allowHttp(ctx));
  if (baseUrl.source === projectSource) {
    // A project file comes with a checkout, maybe someone else's: it may move requests to another path of the
    // host the keys are for, never to another host (which would receive the keys).
    const own = ofProfile(chosen, chosen.profile?.baseUrl) ?? { value: DEFAULT_BASE_URL, source: 'the default' };
    const ownUrl = checkBaseUrl(own.value, describeSource(own.source, 'base URL'), allowHttp(ctx));
    if (new URL(checkedUrl).origin !== new URL(ownUrl).origin) {
      throw new UsageError(
        `the project file ${projectSource} sends requests to ${new URL(checkedUrl).origin}, another host than ${own.source === 'the default' ? 'the default' : `that of ${own.source}`} (${new URL(ownUrl).origin}): cip will not send the keys there`,
        `log in a profile at that host and pin it with 'cip auth use NAME --here', or give --base-url`,
      );
    }
  }
  // Checked in the order they are shown: the enterprise, the credential, the subscription key.
  const checked = (value: Given, check: (text: string, source: Source) => string): Given => ({
    value: check(value.value, value.source),
    source: value.source,
  });
  const checkedEnterprise = KINDS[kind].enterpriseId
    ? checked(loaded.enterpriseId!, (value, source) => checkEnterpriseId(value, describeSource(source, 'enterprise id')))
    : undefined;
  const checkedOwn = checked(loaded.own, OWN_SECRET[kind].check);
  const checkedSubscription = checked(loaded.subscriptionKey, (value, source) => checkKey(value, 'subscription key', source));
  const credentials = credentialsOf(kind, checkedOwn, checkedSubscription, checkedEnterprise);
  if (project && chosen.pinned) checkPinnedEnterprise(credentials, chosen.pinned, project.source, unused);
  const decided =
    projectSource !== undefined &&
    (chosen.from === projectSource || baseUrl.source === projectSource || checkedEnterprise?.source === projectSource);
  return {
    profile: chosen.name,
    profileFrom: chosen.from,
    ...(decided ? { project: projectSource } : {}),
    baseUrl: checkedUrl,
    credentials,
    sources: { baseUrl: baseUrl.source },
    unused,
    protected: chosen.profile?.protected === true,
  };
}

/** The project file, or undefined when there is none or it cannot be used (its error is for the runs that use it). */
function readableProject(ctx: SettingsInputs): ProjectFile | undefined {
  try {
    return ctx.project?.();
  } catch (error) {
    if (error instanceof UsageError) return undefined;
    throw error;
  }
}

/** A project file's profile that does not exist: exit 2, never the active profile in its place. */
function unknownProjectProfile(project: ProjectFile, data: StoreData): UsageError {
  const known = Object.keys(data.profiles);
  const name = project.profile!;
  return new UsageError(
    `the project file ${shownPath(project.path)} names profile '${name}', which does not exist`,
    `${known.length ? `known profiles: ${known.join(', ')}; ` : ''}log in with 'cip auth login --profile ${name}', pin another with 'cip auth use NAME --here', or name one with --profile`,
  );
}

/**
 * The enterprise the run acts in must be the one the project file pins: an explicit enterprise id (the flag,
 * CIP_ENTERPRISE_ID) or a token for another is refused (exit 2). A token that does not say which enterprise it
 * is for cannot be checked; auth status says so.
 */
function checkPinnedEnterprise(credentials: Credentials, pinned: { id: string; what: string }, path: string, unused: string[]): void {
  const acting =
    credentials.kind === 'api-key'
      ? { id: credentials.enterpriseId, who: `${credentials.sources.enterpriseId} names enterprise ${credentials.enterpriseId}` }
      : credentials.claims.enterprise === undefined
        ? undefined
        : {
            id: credentials.claims.enterprise,
            who: `the token (from ${credentials.sources.token}) says it acts for enterprise ${credentials.claims.enterprise}`,
          };
  if (acting === undefined) {
    unused.push(`the enterprise the project file ${path} pins (the token does not say which enterprise it acts for: cip cannot check it)`);
    return;
  }
  if (acting.id.trim().toLowerCase() === pinned.id.trim().toLowerCase()) return;
  const source = credentials.kind === 'api-key' ? credentials.sources.enterpriseId : undefined;
  const first =
    source === undefined
      ? `use a token for enterprise ${pinned.id.trim()}`
      : source.startsWith('--')
        ? `leave out ${source}`
        : source.startsWith('CIP_')
          ? `unset ${source}`
          : `fix ${source}`;
  throw new UsageError(
    `${acting.who}, but the project file ${path} pins ${pinned.what}: cip will not act in another enterprise than the project's`,
    `${first}, name the profile to use with --profile, or change ${path}`,
  );
}

/** A file profile's secrets by name; a keychain profile keeps none in the file. */
function secretsOf(profile: Profile): Readonly<Record<string, string | undefined>> {
  return profile as unknown as Readonly<Record<string, string | undefined>>;
}

/** "the enterprise id of profile 'prod'" for a profile's value; the flag or variable name otherwise. */
function describeSource(source: Source, what: string): string {
  return source.startsWith('profile ') ? `the ${what} of ${source}` : source;
}
