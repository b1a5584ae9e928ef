// The credential a run uses, as one value (`Credentials`): its kind, the headers it sets, the secrets to
// redact, and where each piece came from. settings.ts resolves it once; every consumer (connect.ts, the
// context's redaction, auth status, doctor, the line a write prints, completion's cache) reads it through the
// functions here, so that a new kind is added here, in login and in the store's shape, and nowhere else
// (ARCHITECTURE.md, "How to add a credential kind"). Every list of the credential header names is here too:
// connect.ts sets them, the request log masks the secret ones, and `cip api -H` refuses all of them.
import { CipError } from '../../errors.js';
import { KINDS, type CredentialKind } from '../store/profile.js';
import { checkKey, checkToken } from '../validate.js';
import { describeExpiry, expiryOf, moment, readClaims, signatureOf, span, type TokenClaims } from '../token.js';

export { KINDS, type CredentialKind } from '../store/profile.js';

/** The headers that carry credentials, as cip sends them. */
export const CREDENTIAL_HEADERS = ['Authorization', 'Ocp-Apim-Subscription-Key', 'EnterpriseId'] as const;
/** Of those, the ones whose values are secrets (an enterprise id is shown everywhere). */
export const SECRET_HEADERS: readonly string[] = ['Authorization', 'Ocp-Apim-Subscription-Key'];

const lower = (names: readonly string[]) => new Set(names.map((name) => name.toLowerCase()));
const CREDENTIAL_NAMES = lower(CREDENTIAL_HEADERS);
const SECRET_NAMES = lower(SECRET_HEADERS);

/** Whether a header (any letter case) carries credentials. */
export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_NAMES.has(name.toLowerCase());
}

/** Whether a header's value (any letter case) is a secret, to be masked wherever it is shown. */
export function isSecretHeader(name: string): boolean {
  return SECRET_NAMES.has(name.toLowerCase());
}

/** Where a value came from, said in messages: a flag, a variable, a profile or the default. */
export type Source = string;

export interface Given {
  value: string;
  /** Where it came from, for error messages: the flag or the variable. */
  source: Source;
}

export function profileSource(name: string): Source {
  return `profile '${name}'`;
}

/**
 * Each kind's own secret (beside the subscription key every kind has): its field in a profile, the variable
 * that gives it, its name in messages, and its check.
 */
export const OWN_SECRET: Readonly<
  Record<CredentialKind, { field: string; variable: string; what: string; check: (value: string, source: Source) => string }>
> = {
  'api-key': { field: 'apiKey', variable: 'CIP_API_KEY', what: 'API key', check: (value, source) => checkKey(value, 'API key', source) },
  token: { field: 'token', variable: 'CIP_TOKEN', what: 'token', check: checkToken },
};

/** The variables that hold secrets of any kind: the context redacts them even when a run does not use them. */
export const SECRET_VARIABLES: readonly string[] = ['CIP_SUBSCRIPTION_KEY', ...Object.values(OWN_SECRET).map((own) => own.variable)];

/** The kinds, in the order their variables are named. */
export const CREDENTIAL_KINDS = Object.keys(KINDS) as CredentialKind[];

/** A kind's credentials from its checked pieces: its own secret, the subscription key, and an enterprise id if it names one. */
export function credentialsOf(kind: CredentialKind, own: Given, subscriptionKey: Given, enterpriseId: Given | undefined): Credentials {
  return kind === 'token' ? tokenCredentials(own, subscriptionKey) : apiKeyCredentials(own, subscriptionKey, enterpriseId!);
}

/** The secrets a profile of a kind keeps in the config file, by name (what a keychain entry holds for it). */
export function secretsIn(kind: CredentialKind, profile: object): Record<string, string> {
  const fields = profile as Record<string, unknown>;
  return Object.fromEntries(KINDS[kind].secrets.map((name) => [name, String(fields[name])]));
}

interface Common {
  /** The header values every request carries (names from CREDENTIAL_HEADERS). */
  readonly headers: Readonly<Record<string, string>>;
  /** The values to redact wherever text is shown. */
  readonly secrets: readonly string[];
  /** The APIM subscription key, which every kind sends. */
  readonly subscriptionKey: string;
}

/** `Authorization: ApiKey <key>` with the enterprise it acts in (`EnterpriseId`). */
export interface ApiKeyCredentials extends Common {
  readonly kind: 'api-key';
  readonly apiKey: string;
  readonly enterpriseId: string;
  readonly sources: { readonly enterpriseId: Source; readonly apiKey: Source; readonly subscriptionKey: Source };
}

/** `Authorization: Bearer <token>`: the token says who it acts for, so no `EnterpriseId` is sent. */
export interface TokenCredentials extends Common {
  readonly kind: 'token';
  readonly token: string;
  /** What the token's payload says, unverified: for messages only (token.ts). */
  readonly claims: TokenClaims;
  readonly sources: { readonly token: Source; readonly subscriptionKey: Source };
}

export type Credentials = ApiKeyCredentials | TokenCredentials;

/** A credential's headers, named only from CREDENTIAL_HEADERS. */
const headers = (values: Partial<Record<(typeof CREDENTIAL_HEADERS)[number], string>>): Record<string, string> => values;

export function apiKeyCredentials(apiKey: Given, subscriptionKey: Given, enterpriseId: Given): ApiKeyCredentials {
  return {
    kind: 'api-key',
    apiKey: apiKey.value,
    subscriptionKey: subscriptionKey.value,
    enterpriseId: enterpriseId.value,
    headers: headers({
      Authorization: `ApiKey ${apiKey.value}`,
      'Ocp-Apim-Subscription-Key': subscriptionKey.value,
      EnterpriseId: enterpriseId.value,
    }),
    secrets: [apiKey.value, subscriptionKey.value],
    sources: { enterpriseId: enterpriseId.source, apiKey: apiKey.source, subscriptionKey: subscriptionKey.source },
  };
}

export function tokenCredentials(token: Given, subscriptionKey: Given): TokenCredentials {
  return {
    kind: 'token',
    token: token.value,
    subscriptionKey: subscriptionKey.value,
    claims: readClaims(token.value),
    headers: headers({ Authorization: `Bearer ${token.value}`, 'Ocp-Apim-Subscription-Key': subscriptionKey.value }),
    // A JWT's signature is a secret of its own: with the header and payload, which anyone can read, it is the token.
    secrets: [token.value, subscriptionKey.value, ...signatureOf(token.value)],
    sources: { token: token.source, subscriptionKey: subscriptionKey.source },
  };
}

/** The credential itself, named in messages: 'API key' or 'token'. */
export function credentialName(credentials: Credentials): string {
  return OWN_SECRET[credentials.kind].what;
}

/** Where the credential itself (not the subscription key) came from. */
export function mainSource(credentials: Credentials): Source {
  return credentials.kind === 'api-key' ? credentials.sources.apiKey : credentials.sources.token;
}

/**
 * The columns `auth status` shows of the profiles' credentials: their secrets, and a token's expiry. With only
 * API key profiles, the two columns they have always had.
 */
export function statusColumns(kinds: ReadonlySet<CredentialKind>): string[] {
  return kinds.has('token') ? ['apiKey', 'token', 'expires', 'subscriptionKey'] : ['apiKey', 'subscriptionKey'];
}

/**
 * A profile's values for those columns, from its stored secrets: each masked by `mask`, `expires` as an ISO time
 * (what the token says, unverified); null where the profile has no such value or its secrets could not be read.
 */
export function statusValues(
  columns: readonly string[],
  stored: Readonly<Record<string, string>> | undefined,
  mask: (secret: string) => string,
): Record<string, string | null> {
  const token = stored?.token;
  return Object.fromEntries(
    columns.map((column) => {
      if (column === 'expires') return [column, (token === undefined ? undefined : readClaims(token).expiresAt?.toISOString()) ?? null];
      const value = stored?.[column];
      return [column, value === undefined ? null : mask(value)];
    }),
  );
}

/** One piece of a credential as `auth status` and `doctor` show it: a secret is masked by whoever shows it. */
export interface Piece {
  label: string;
  /** The label in doctor's one-line summary, where it differs ("enterprise"). */
  brief?: string;
  value: string;
  secret: boolean;
  source?: Source;
}

/** The pieces, in the order they are shown; a token's expiry is one, with no source. */
export function pieces(credentials: Credentials, now: number): Piece[] {
  const subscription = {
    label: 'subscription key',
    value: credentials.subscriptionKey,
    secret: true,
    source: credentials.sources.subscriptionKey,
  };
  if (credentials.kind === 'api-key') {
    return [
      {
        label: 'enterprise id',
        brief: 'enterprise',
        value: credentials.enterpriseId,
        secret: false,
        source: credentials.sources.enterpriseId,
      },
      { label: 'API key', value: credentials.apiKey, secret: true, source: credentials.sources.apiKey },
      subscription,
    ];
  }
  return [
    { label: 'token', value: credentials.token, secret: true, source: credentials.sources.token },
    { label: 'expires', value: describeExpiry(expiryOf(credentials.claims, now), now), secret: false },
    subscription,
  ];
}

/** Who a token acts for, as far as it says: "enterprise X", "'alice'", or nothing. */
function tokenFor(claims: TokenClaims): string {
  if (claims.enterprise !== undefined) return ` for enterprise ${claims.enterprise}`;
  return claims.subject !== undefined ? ` for '${claims.subject}'` : '';
}

/**
 * Who acts, for the line a write prints: after a profile's name ("in profile 'prod', enterprise X") and alone
 * ("in enterprise X"). A token sends no enterprise id: what it says of itself is shown, unverified.
 */
export function actingAs(credentials: Credentials): { afterProfile: string; alone: string } {
  if (credentials.kind === 'api-key') {
    return { afterProfile: `enterprise ${credentials.enterpriseId}`, alone: `in enterprise ${credentials.enterpriseId}` };
  }
  const text = `with a token${tokenFor(credentials.claims)}`;
  return { afterProfile: text, alone: text };
}

/**
 * What tells one credential's reach from another's, for a cache of what it may read (completion's): the
 * enterprise of an API key; a hash of a token (never the token: the cache is a file).
 */
export function scopeKey(credentials: Credentials): string {
  if (credentials.kind === 'api-key') return credentials.enterpriseId;
  // FNV-1a, twice over with different seeds: a cache key, not a secret's protection (the token is not in it).
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let index = 0; index < credentials.token.length; index++) {
    const code = credentials.token.charCodeAt(index);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    b = Math.imul(b ^ code, 0x811c9dc5) >>> 0;
  }
  return `token:${a.toString(16)}${b.toString(16)}`;
}

/** How to replace the credentials, for a 401: names where they came from, so the user fixes the right thing. */
export function credentialsHint(credentials: Credentials, profile: string | undefined): string {
  const main = mainSource(credentials);
  const subscription = credentials.sources.subscriptionKey;
  const name = credentialName(credentials);
  if (profile !== undefined && main === profileSource(profile) && subscription === main) {
    // Logging in again keeps what it is not given: the token alone is replaced, the keys are asked for again.
    return credentials.kind === 'api-key'
      ? `check the keys of profile '${profile}'; 'cip auth login --profile ${profile}' replaces them`
      : `check the token and subscription key of profile '${profile}'; 'cip auth login --profile ${profile} --token-file -' replaces the token`;
  }
  if (main.startsWith('CIP_') && subscription.startsWith('CIP_')) {
    return `check ${main} and ${subscription}: the keys came from the environment`;
  }
  return `check the keys: the ${name} came from ${main}, the subscription key from ${subscription}`;
}

/**
 * How to read a 403, in the words of the credential's kind. An API key acts in the enterprise it is sent with,
 * and a wrong enterprise id is the common cause: it is named, with where it came from (`projectFile`: the path
 * of the project file in force, which a source may be). A token acts for whom it was issued, and may lack the
 * scope or role the action needs (a read-only token).
 */
export function forbiddenHint(credentials: Credentials, profile: string | undefined, projectFile?: string): string {
  const origin = (source: Source) => (source === projectFile ? `the project file ${source}` : source);
  if (credentials.kind === 'api-key') {
    return `the enterprise id ${credentials.enterpriseId} came from ${origin(credentials.sources.enterpriseId)}: is it the API key's enterprise? If it is, the key lacks permission for this`;
  }
  const source = credentials.sources.token;
  const says = credentials.claims.enterprise === undefined ? '' : `: it says it is for enterprise ${credentials.claims.enterprise}`;
  const replace =
    source === 'CIP_TOKEN'
      ? 'set CIP_TOKEN to one that may'
      : profile !== undefined && source === profileSource(profile)
        ? `'cip auth login --profile ${profile} --token-file -' replaces it with one that may`
        : 'use one that may';
  return `the token from ${origin(source)} may lack the scope or role this needs, as a read-only token does, or may not act in this enterprise${says}; ${replace}`;
}

/** What doctor says of the API's verdict on the credential (GET Environments), kind by kind. */
export function verdictWords(credentials: Credentials): { check: string; accepted: string; forbidden: string } {
  const from = `(from ${mainSource(credentials)})`;
  if (credentials.kind === 'api-key') {
    return {
      check: 'API key and enterprise',
      accepted: `the API key ${from} may read enterprise ${credentials.enterpriseId}`,
      forbidden: `is ${credentials.enterpriseId} (from ${credentials.sources.enterpriseId}) the enterprise of this API key, and may the key read environments?`,
    };
  }
  return {
    check: 'token',
    accepted: `the token ${from} was accepted${tokenFor(credentials.claims)}`,
    forbidden: `may this token${tokenFor(credentials.claims)} read environments?`,
  };
}

/** A token as the expiry rule sees it: what it says, and where it came from. */
export interface TokenInput {
  claims: TokenClaims;
  source: Source;
}

/** The credentials' token, for the expiry rule; undefined for a kind without one. */
export function tokenOf(credentials: Credentials): TokenInput | undefined {
  return credentials.kind === 'token' ? { claims: credentials.claims, source: credentials.sources.token } : undefined;
}

/** How to get going again with a token that expired or is about to, fitted to where it came from. */
function renewal({ source }: TokenInput, profile: string | undefined): { subject: string; how: string } {
  if (source === 'CIP_TOKEN') return { subject: 'the token in CIP_TOKEN', how: 'set CIP_TOKEN to a new one' };
  if (profile !== undefined && source === profileSource(profile)) {
    return {
      subject: `the token of profile '${profile}'`,
      how: `get a new one and log in again (cip auth login --profile ${profile} --token-file -) or set CIP_TOKEN`,
    };
  }
  return { subject: `the token from ${source}`, how: 'get a new one' };
}

// The rule for a token's expiry: expired is exit 3 before anything is sent; within 5 minutes, a warning. `exp`
// is never trusted for more: a token the server refuses is refused, whatever it says.

/** The error for a token that has expired (exit 3); undefined for one that has not, or that does not say. */
export function expiredError(token: TokenInput | undefined, profile: string | undefined, now: number): CipError | undefined {
  const expiry = token && expiryOf(token.claims, now);
  if (expiry?.state !== 'expired') return undefined;
  const { subject, how } = renewal(token!, profile);
  return new CipError('auth', `${subject} expired at ${moment(expiry.at, now)}, ${span(expiry.at.getTime() - now)} ago: ${how}`);
}

/** The warning for a token that expires within 5 minutes; undefined otherwise. */
export function expiryWarning(token: TokenInput | undefined, profile: string | undefined, now: number): string | undefined {
  const expiry = token && expiryOf(token.claims, now);
  if (expiry?.state !== 'soon') return undefined;
  const { subject, how } = renewal(token!, profile);
  return `${subject} expires in ${span(expiry.at.getTime() - now)} (at ${moment(expiry.at, now)}): a long command may outlive it; ${how}`;
}
