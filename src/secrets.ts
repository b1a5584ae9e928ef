// The keys of a run, so that nothing cip prints shows them: error lines, --verbose logs and data the
// server echoes all pass through redact().
import { MIN_KEY_LENGTH } from './config/validate.js';

export class Secrets {
  readonly #spellings: string[] = [];

  /**
   * From now on redact() replaces the key wherever it appears, in the spellings a server is likely to echo
   * it in: as it is, URL-encoded (either hex case), JSON-escaped, and JSON-escaped twice (a JSON body whose
   * message quotes JSON, as --verbose shows bodies).
   */
  add(value: string | undefined): void {
    const secret = value?.trim();
    // Shorter values would blank out ordinary words; cip refuses keys that short anyway.
    if (!secret || secret.length < MIN_KEY_LENGTH) return;
    const encoded = encodeURIComponent(secret);
    const spellings = [
      secret,
      encoded,
      encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
      JSON.stringify(secret).slice(1, -1),
      JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1),
    ];
    for (const spelling of spellings) if (!this.#spellings.includes(spelling)) this.#spellings.push(spelling);
    // Longest first: a key that contains another key must not be left half-redacted.
    this.#spellings.sort((a, b) => b.length - a.length);
  }

  /** The text with every key replaced by ***. */
  redact(text: string): string {
    let out = text;
    for (const spelling of this.#spellings) if (out.includes(spelling)) out = out.split(spelling).join('***');
    return out;
  }
}

/** A key as people may see it: at most the last 4 characters, and never more than a quarter of the key. */
export function maskKey(key: string): string {
  const shown = key.length >= 16 ? 4 : key.length >= 8 ? 2 : 0;
  return `****${shown ? key.slice(-shown) : ''}`;
}
