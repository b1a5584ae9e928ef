// A header as --verbose shows it: credentials masked whatever the direction (the credential headers, cookies), the
// rest as its sender most likely meant it (api/challenge.ts), with the run's keys (`redact`, before the cut, so a
// key at the cut cannot show in part) and any JWT hidden, on one line, cut.
import { isSecretHeader } from '../config/credentials/credential.js';
import { truncate } from '../text/sanitize.js';
import { headerText, shownHeaderText } from './challenge.js';

/** How much of one header's value is shown. */
const MAX_SHOWN_CHARS = 2000;

/** Headers whose whole value is a credential, beside the ones cip sends (config/credentials/credential.ts). */
const CREDENTIAL_VALUES = new Set(['cookie', 'proxy-authorization']);

export function shownHeader(name: string, value: string, redact: (text: string) => string): string {
  const lower = name.toLowerCase();
  if (isSecretHeader(lower) || CREDENTIAL_VALUES.has(lower)) return '***';
  // A cookie's value is a session's credential; its name and attributes (Path, Expires, HttpOnly) are not.
  if (lower === 'set-cookie') return shownHeaderText(value.replace(/^([^=;]*)=[^;]*/, '$1=***'));
  const shown = shownHeaderText(redact(headerText(value)));
  return shown.length > MAX_SHOWN_CHARS ? `${truncate(shown, MAX_SHOWN_CHARS)} (${value.length} characters in all)` : shown;
}
