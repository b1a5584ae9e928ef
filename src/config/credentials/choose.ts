// The credential rule, step two (settings.ts): which of the candidates (candidates.ts) a run uses, by one table,
// the rules of `cip help environment` in their order. Pure: the profile store is opened after, by what was chosen.
import { UsageError } from '../../errors.js';
import type { Candidates, Offered } from './candidates.js';
import { CREDENTIAL_KINDS, KINDS, OWN_SECRET, type Given } from './credential.js';

/** One rule: when it applies, whether the variables count, and where the profile comes from. */
export interface Rule {
  when: string;
  applies(candidates: Candidates, whole: boolean): boolean;
  /** The credential variables (CIP_TOKEN, CIP_API_KEY, CIP_SUBSCRIPTION_KEY, CIP_ENTERPRISE_ID, CIP_BASE_URL). */
  variables: 'ignored' | 'used';
  /** The profile named; none; or the project file's, else the active one. */
  profile: 'named' | 'none' | 'pinned or active';
  /** The variables set override the profile's values, with a warning. */
  overrides: boolean;
}

/** The credential rule: the first row that applies decides. Flags (--base-url, --enterprise-id) count in every row. */
export const RULES: readonly Rule[] = [
  { when: 'a profile is named', applies: (c) => c.named !== undefined, variables: 'ignored', profile: 'named', overrides: false },
  { when: 'the variables hold a whole credential', applies: (_, whole) => whole, variables: 'used', profile: 'none', overrides: false },
  { when: 'some variables are set', applies: (c) => c.env.set.length > 0, variables: 'used', profile: 'pinned or active', overrides: true },
  { when: 'none is set', applies: () => true, variables: 'used', profile: 'pinned or active', overrides: false },
];

/** What the rule chose, before any profile is read. */
export interface Choice {
  rule: Rule;
  /** The kind the variables give, and its own secret. */
  given: Offered | undefined;
  subscriptionKey: Given | undefined;
  enterpriseId: Given | undefined;
  baseUrl: Given | undefined;
  /** The credential variables used, for the warning when they override a profile. */
  setVariables: string[];
  /** Credentials at hand that the run does not use, for `auth status`. */
  unused: string[];
}

export function list(names: readonly string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** The kinds that name an enterprise, as messages call them: "an API key". */
export const namingEnterprise = () =>
  CREDENTIAL_KINDS.filter((kind) => KINDS[kind].enterpriseId)
    .map((kind) => KINDS[kind].called)
    .join(' or ');

/**
 * With no profile named: the variable whose credential is used. Two set (CIP_TOKEN and CIP_API_KEY) may each act
 * in another enterprise: an enterprise id given names the kind that takes it (a token names none); without one,
 * cip would be guessing, and refuses. Whole: the variables hold all a credential needs.
 */
function pickOffered(c: Candidates): { given: Offered | undefined; whole: boolean; unused: string[]; dropped: string[] } {
  const offered = c.env.offered;
  let given = offered[0];
  const unused: string[] = [];
  const dropped: string[] = [];
  const choosing = c.flags.enterpriseId ?? c.env.enterpriseId ?? c.project?.enterpriseId;
  if (offered.length > 1) {
    const naming = offered.filter(({ kind }) => KINDS[kind].enterpriseId);
    const variables = list(offered.map(({ own }) => own.source));
    if (!choosing || naming.length !== 1) {
      throw new UsageError(
        `${variables} are ${offered.length === 2 ? 'both' : 'all'} set, and no enterprise id says which to use: cip will not guess (each may act in another enterprise)`,
        `unset ${offered.length === 2 ? 'one' : 'all but one'} of them, or set CIP_ENTERPRISE_ID to use ${namingEnterprise()} in that enterprise`,
      );
    }
    given = naming[0]!;
    for (const { own } of offered.filter((other) => other !== given)) {
      unused.push(
        `${own.source} (an enterprise id is given: the ${OWN_SECRET[given.kind].what} is used, in enterprise ${choosing.value.trim()})`,
      );
      dropped.push(own.source);
    }
  }
  const whole = c.env.subscriptionKey !== undefined && given !== undefined && (!KINDS[given.kind].enterpriseId || choosing !== undefined);
  return { given, whole, unused, dropped };
}

/** Step two of the credential rule: the row of RULES that applies, and the values it takes. */
export function chooseCredentials(c: Candidates): Choice {
  const picked = c.named === undefined ? pickOffered(c) : undefined;
  const rule = RULES.find((row) => row.applies(c, picked?.whole ?? false))!;
  const env = rule.variables === 'used' ? c.env : undefined;
  return {
    rule,
    given: picked?.given,
    subscriptionKey: env?.subscriptionKey,
    enterpriseId: c.flags.enterpriseId ?? env?.enterpriseId,
    baseUrl: c.flags.baseUrl ?? env?.baseUrl,
    setVariables: c.env.set.filter((variable) => !picked?.dropped.includes(variable)),
    unused: picked?.unused ?? [],
  };
}
