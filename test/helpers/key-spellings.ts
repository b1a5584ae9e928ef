// A key in the spellings a hostile name, id, URL or server may carry it in, and a check that text holds none of
// them, written apart from src/secrets.ts (which it checks): the text is decoded every way those spellings
// encode, and no run of 8 characters of the key may be left in any reading of it.
import { expect } from 'vitest';

const hex = (char: string) => char.charCodeAt(0).toString(16).padStart(2, '0');

/** A key (visible ASCII) spelled every way cip is to find it, each named. */
export function spellings(key: string): Record<string, string> {
  const chars = [...key];
  return {
    'as it is': key,
    'percent-encoded, upper case': chars.map((char) => `%${hex(char).toUpperCase()}`).join(''),
    'percent-encoded, lower case': chars.map((char) => `%${hex(char)}`).join(''),
    'percent-encoded in part': chars.map((char, index) => (index % 3 === 1 ? `%${hex(char)}` : char)).join(''),
    'percent-encoded twice': chars.map((char) => `%25${hex(char).toUpperCase()}`).join(''),
    'JSON \\u escapes': chars.map((char) => `\\u00${hex(char)}`).join(''),
    'JSON \\u escapes, upper case': chars.map((char) => `\\u00${hex(char).toUpperCase()}`).join(''),
    'HTML character references': chars.map((char) => `&#${char.charCodeAt(0)};`).join(''),
    base64: Buffer.from(key).toString('base64'),
    'base64 at an odd offset': Buffer.from(`x${key}`).toString('base64'),
    base64url: Buffer.from(`xy${key}`).toString('base64url'),
  };
}

/** Every reading of the text: as it is, percent-decoded (repeatedly), JSON and HTML escapes undone. */
function readings(text: string): string[] {
  let percent = text;
  for (let pass = 0; pass < 3; pass++)
    percent = percent.replace(/%([0-9a-f]{2})/gi, (_, code: string) => String.fromCharCode(parseInt(code, 16)));
  const json = text
    .replace(/\\+u([0-9a-f]{4})/gi, (_, code: string) => String.fromCharCode(parseInt(code, 16)))
    .replace(/\\+([/"])/g, '$1');
  const entities = text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
  const decoded = [text, percent, json, entities];
  // Base64 in either alphabet, read from each of its four alignments.
  for (const token of text.match(/[A-Za-z0-9+/_-]{12,}/g) ?? []) {
    for (let shift = 0; shift < 4; shift++) decoded.push(Buffer.from(token.slice(shift), 'base64').toString('latin1'));
  }
  return decoded;
}

/** Fails when any reading of the text holds 8 consecutive characters of the key. */
export function expectNoKey(text: string, key: string, where = 'the text'): void {
  const runs = Array.from({ length: key.length - 7 }, (_, start) => key.slice(start, start + 8));
  for (const reading of readings(text)) {
    const found = runs.find((run) => reading.includes(run));
    expect(found, `${where} holds part of the key ('${found}')`).toBeUndefined();
  }
}
