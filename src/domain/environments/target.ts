// How write commands name what they act on, in prompts and in the line they print when done: the
// environment by name and id, and the profile, enterprise (or what a token says it acts for) and (when not the
// default) host. A person about to delete something in production must be able to see that it is production.
// The target is said in the question and once per command (not on each item's line), on a line of its own.
import { actingAs } from '../../config/credentials/credential.js';
import type { ResolvedSettings } from '../../config/credentials/settings.js';
import { DEFAULT_BASE_URL } from '../../config/validate.js';
import { isExactNumber } from '../../json/exact.js';
import { printable } from '../../text/sanitize.js';

/**
 * "in profile 'prod', enterprise 1111…" or "in enterprise 1111… (credentials from the environment)"; with a
 * token, "in profile 'prod', with a token for enterprise 1111…" (what the token says, or "with a token").
 * A target a project file chose says so: "in profile 'prod' (from /home/u/app/.cip.json), enterprise 1111…",
 * or, where it pinned the enterprise or base URL, "... (pinned by /home/u/app/.cip.json)".
 */
export function targetText(settings: ResolvedSettings): string {
  const host = settings.baseUrl === DEFAULT_BASE_URL ? '' : ` at ${new URL(settings.baseUrl).host}`;
  const acting = actingAs(settings.credentials);
  const { project } = settings;
  if (settings.profile === undefined) {
    return `${acting.alone}${host} (credentials from the environment${project === undefined ? '' : `; pinned by ${project}`})`;
  }
  if (project !== undefined && settings.profileFrom === project) {
    return `in profile '${settings.profile}' (from ${project}), ${acting.afterProfile}${host}`;
  }
  return `in profile '${settings.profile}', ${acting.afterProfile}${host}${project === undefined ? '' : ` (pinned by ${project})`}`;
}

/**
 * What a write did, said once per command: the sentence, then the target on a line of its own, so that
 * neither line wraps at a terminal 120 columns wide ("Created environment 'x' (id)" / "  in profile 'prod', ...").
 */
export function doneText(sentence: string, target: string): string {
  return `${sentence}\n  ${target}.`;
}

/** One item's line in a batch: short, as the target is said once (the question, the summary); a lone item says it. */
export function itemText(sentence: string, target: string, single: boolean): string {
  return single ? doneText(sentence, target) : `${sentence}.`;
}

function field(record: unknown, name: string): unknown {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return undefined;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : (record as Record<string, unknown>)[key];
}

/** A scalar id or name as text (numbers with their exact digits); undefined for anything else. */
export function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || isExactNumber(value)) return String(value);
  return undefined;
}

/** The record's id (`id`, `Id`, `ID`) as text. */
export function idOf(record: unknown): string | undefined {
  return scalarText(field(record, 'id'));
}

/** The record's name (`name`, `Name`) when it is a non-empty string. */
export function nameOf(record: unknown): string | undefined {
  const name = field(record, 'name');
  return typeof name === 'string' && name.trim() !== '' ? name : undefined;
}

/** "environment 'staging' (7d1c…)" when the name is known, else "environment 7d1c…". */
export function environmentLabel(id: string | undefined, name: string | undefined): string {
  if (name === undefined) return id === undefined ? 'environment' : `environment ${printable(id)}`;
  return `environment '${printable(name)}'${id === undefined ? '' : ` (${printable(id)})`}`;
}
