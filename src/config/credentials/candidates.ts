// The credential rule, step one (settings.ts): what the command line, the environment and the project file offer,
// gathered before any rule applies. Pure: it reads what it is given and decides nothing.
import { nonEmpty, type Env } from '../../env.js';
import { CREDENTIAL_KINDS, OWN_SECRET, type CredentialKind, type Given, type Source } from './credential.js';
import { shownPath, type ProjectFile } from '../project.js';

/** What decides the credentials: the environment and the global options that name a profile or values. */
export interface CredentialInputs {
  env: Env;
  globals: { profile?: string | undefined; baseUrl?: string | undefined; enterpriseId?: string | undefined };
}

/** A credential variable that is set (CIP_TOKEN, CIP_API_KEY), and the kind of credential it holds. */
export interface Offered {
  kind: CredentialKind;
  own: Given;
}

/** Everything that may decide the credentials, each with where it came from. */
export interface Candidates {
  /** The profile --profile or CIP_PROFILE names, and which of them named it. */
  named: { name: string; by: string } | undefined;
  flags: { baseUrl: Given | undefined; enterpriseId: Given | undefined };
  env: {
    /** The credential variables that are set, in the order they are named. */
    set: string[];
    /** The variables of each kind's own secret that are set, in the order of the kinds. */
    offered: Offered[];
    subscriptionKey: Given | undefined;
    enterpriseId: Given | undefined;
    baseUrl: Given | undefined;
  };
  /** The project file in force: read only when no profile is named. */
  project: { file: ProjectFile; source: Source; enterpriseId: Given | undefined; baseUrl: Given | undefined } | undefined;
}

/** The credential variables a named profile makes cip ignore, in the order they are named. */
const CREDENTIAL_VARIABLES = [
  ...CREDENTIAL_KINDS.map((kind) => OWN_SECRET[kind].variable),
  'CIP_SUBSCRIPTION_KEY',
  'CIP_ENTERPRISE_ID',
  'CIP_BASE_URL',
];

function fromEnv({ env }: CredentialInputs, variable: string): Given | undefined {
  const value = nonEmpty(env[variable]);
  return value === undefined ? undefined : { value, source: variable };
}

/** The base URL and enterprise id given on the command line (an empty flag was refused before any command ran). */
function fromFlag(value: string | undefined, flag: string): Given | undefined {
  return value === undefined ? undefined : { value, source: flag };
}

/**
 * The base URL a command line or environment gives. The variable counts only when no profile is named: a
 * named profile brings its own.
 */
export function givenBaseUrl(ctx: CredentialInputs, useEnv = namedProfile(ctx) === undefined): Given | undefined {
  return fromFlag(ctx.globals.baseUrl, '--base-url') ?? (useEnv ? fromEnv(ctx, 'CIP_BASE_URL') : undefined);
}

export function givenEnterpriseId(ctx: CredentialInputs, useEnv = namedProfile(ctx) === undefined): Given | undefined {
  return fromFlag(ctx.globals.enterpriseId, '--enterprise-id') ?? (useEnv ? fromEnv(ctx, 'CIP_ENTERPRISE_ID') : undefined);
}

/** The profile a command names (flag, else CIP_PROFILE), if any. */
export function namedProfile(ctx: CredentialInputs): string | undefined {
  return ctx.globals.profile ?? nonEmpty(ctx.env.CIP_PROFILE)?.trim();
}

/** How the profile was named, for messages. */
export function profileNamedBy(ctx: CredentialInputs): string {
  return ctx.globals.profile !== undefined ? '--profile' : 'CIP_PROFILE';
}

/** Step one of the credential rule: every candidate, from the inputs and the project file (if one was read). */
export function gatherCandidates(ctx: CredentialInputs, project: ProjectFile | undefined): Candidates {
  const named = namedProfile(ctx);
  const source = project && shownPath(project.path);
  const ofProject = (value: string | undefined): Given | undefined => (value === undefined ? undefined : { value, source: source! });
  return {
    named: named === undefined ? undefined : { name: named, by: profileNamedBy(ctx) },
    flags: { baseUrl: fromFlag(ctx.globals.baseUrl, '--base-url'), enterpriseId: fromFlag(ctx.globals.enterpriseId, '--enterprise-id') },
    env: {
      set: CREDENTIAL_VARIABLES.filter((variable) => nonEmpty(ctx.env[variable]) !== undefined),
      offered: CREDENTIAL_KINDS.flatMap((kind) => {
        const own = fromEnv(ctx, OWN_SECRET[kind].variable);
        return own ? [{ kind, own }] : [];
      }),
      subscriptionKey: fromEnv(ctx, 'CIP_SUBSCRIPTION_KEY'),
      enterpriseId: fromEnv(ctx, 'CIP_ENTERPRISE_ID'),
      baseUrl: fromEnv(ctx, 'CIP_BASE_URL'),
    },
    project: project && {
      file: project,
      source: source!,
      enterpriseId: ofProject(project.enterpriseId),
      baseUrl: ofProject(project.baseUrl),
    },
  };
}
