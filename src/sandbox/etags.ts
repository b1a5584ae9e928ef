// ETags and If-Match, as the sandbox models them. Each write to the store is a version. Two designs:
// - The list's tag guards items (styles strong, weak, none): the published API has no read by id, so a client
//   knows an environment only from the list, and the list's ETag is what it can send back. The list's ETag
//   names the version it shows ("v7"), an item's the version that last changed it. `If-Match: "v7"` on PUT or
//   DELETE of an item means "as it was at version 7": it holds when the item has not changed since (its version
//   is 7 or older), so a change to another environment does not refuse it.
// - Per item (styles item and odata), as an RFC 9110 service on ASP.NET Core usually is, and as the reference
//   API is: each item has its own tag ("e7", the version that last changed it), served on GET by id (and, for
//   odata, in each list item's `@odata.etag`); the list's tag ("l9") is no item's, and If-Match holds only for
//   the item's current tag.
// In both, `*` holds for any item that exists; a weak tag never holds (RFC 9110 compares If-Match strongly); a
// header that does not parse holds for nothing.
import type { Environment, EtagStyle } from './types.js';

/** One entity-tag of an If-Match header, or `*`. */
type Condition = '*' | { weak: boolean; tag: string };

/** An If-Match value as a list of entity-tags; an empty list when any element does not parse (ASP.NET's TryParseList). */
export function parseIfMatch(value: string): Condition[] {
  const conditions: Condition[] = [];
  for (const element of value.split(',')) {
    const text = element.trim();
    if (text === '') continue;
    if (text === '*') {
      conditions.push('*');
      continue;
    }
    const match = /^(W\/)?"([^"]*)"$/.exec(text);
    if (!match) return [];
    conditions.push({ weak: match[1] !== undefined, tag: match[2]! });
  }
  return conditions;
}

export class Versions {
  #version = 0;
  readonly #known = new Map<string, { record: Environment; version: number }>();
  readonly #environments: Map<string, Environment>;

  constructor(environments: Map<string, Environment>) {
    this.#environments = environments;
  }

  /**
   * The version that last changed the item stored under `id`. A record the store holds that was not seen at its
   * last version (put into the store by a test, or replaced there) gets a new version, so a test that changes
   * the store directly is seen as a writer. A record changed in place (the same object) is not.
   */
  of(id: string): number | undefined {
    const record = this.#environments.get(id);
    if (record === undefined) return undefined;
    const known = this.#known.get(id);
    if (known?.record === record) return known.version;
    const version = ++this.#version;
    this.#known.set(id, { record, version });
    return version;
  }

  /** The version the whole collection is at, after looking at every item. */
  collection(): number {
    for (const id of this.#environments.keys()) this.of(id);
    return this.#version;
  }

  /** A write through the API: the item's new version (or its removal) and the collection's. */
  wrote(id: string): void {
    if (this.#environments.has(id)) this.of(id);
    else {
      this.#known.delete(id);
      this.#version++;
    }
  }

  /** Whether an If-Match value holds for the item `id`, which exists, in the style's design. */
  holds(id: string, ifMatch: string, style: EtagStyle): boolean {
    const version = this.of(id);
    if (version === undefined) return false;
    const latest = this.#version;
    return parseIfMatch(ifMatch).some((condition) => {
      if (condition === '*') return true;
      if (condition.weak) return false;
      if (perItem(style)) return condition.tag === `e${version}`;
      const asked = /^v(\d{1,15})$/.exec(condition.tag);
      if (!asked) return false;
      const at = Number(asked[1]);
      return version <= at && at <= latest;
    });
  }
}

/** Whether items have tags of their own (and GET by id serves them). */
export function perItem(style: EtagStyle): boolean {
  return style === 'item' || style === 'odata';
}

/** An item's own tag in the per-item styles: the version that last changed it. */
export function itemTag(version: number): string {
  return `"e${version}"`;
}

/** The ETag header of the list; none when the style is none. In the per-item styles it is no item's tag. */
export function listEtagHeader(style: EtagStyle, version: number): Record<string, string> {
  if (style === 'none') return {};
  if (perItem(style)) return { ETag: `"l${version}"` };
  return { ETag: `${style === 'weak' ? 'W/' : ''}"v${version}"` };
}

/** The ETag header of an item (created, updated, or read by id), given the version that last changed it. */
export function itemEtagHeader(style: EtagStyle, version: number): Record<string, string> {
  return perItem(style) ? { ETag: itemTag(version) } : listEtagHeader(style, version);
}
