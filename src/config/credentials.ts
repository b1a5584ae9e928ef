// The credential a run uses: the headers that carry it, and which of them hold secrets. Every list of those
// header names is this one: connect.ts sets them, the request log masks the secret ones, and `cip api -H`
// refuses all of them (cip sets them, never the user).

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
