// What the journal holds, apart from where it is kept (config/journal-file.ts): one entry per write cip sends,
// as two lines: "sent", written before the request goes out (the request exactly as sent, the record as it was
// before, who acted where), and "answered", written when its outcome is known. An entry without its "answered"
// line is one whose outcome is unknown (a crash, a kill, a lost answer). Entries are read back with their
// numbers exact, and lines cip cannot read are skipped with a warning, never fatal.
import { configLocation } from '../../config/store.js';
import { journalPath, readJournal, type JournalBounds, type JournalPlace } from '../../config/journal-file.js';
import type { ResolvedSettings } from '../../config/credentials/settings.js';
import type { Context } from '../../context.js';
import { nonEmpty } from '../../env.js';
import { UsageError } from '../../errors.js';
import { parseExactJson } from '../../json/exact.js';
import { isRecord } from '../../json/record.js';

export const JOURNAL_VERSION = 1;
export const DEFAULT_JOURNAL_DAYS = 30;
export const DEFAULT_JOURNAL_MAX_MB = 50;

/** What a write did to an environment; `request` is a `cip api` call, whose effect cip does not know. */
export type JournalAction = 'create' | 'update' | 'delete' | 'request';
export type JournalResult = 'done' | 'failed' | 'unknown';

export interface JournalRequest {
  method: string;
  url: string;
  /** The JSON body as sent, numbers with their digits. */
  body?: unknown;
  /** A body sent as text (`cip api --input`), as it was. */
  text?: string;
}

/** Who acted, and where: what `env restore` checks before it acts. */
export interface JournalScope {
  profile: string | null;
  /** The enterprise id an API key sends, or the one a token says it acts for; null when a token names none. */
  enterprise: string | null;
  /** "enterprise X", "with a token for 'ci'": how cip names who acts (config/credentials/credential.ts actingAs). */
  actingAs: string;
  baseUrl: string;
}

export interface SentLine extends JournalScope {
  v: number;
  entry: string;
  event: 'sent';
  at: string;
  command: string;
  action: JournalAction;
  environment: { id: string | null; name: string | null };
  request: JournalRequest;
  /** The record as the list gave it before this write; null for a create and for `cip api`. */
  before: Record<string, unknown> | null;
  /** The entry an `env restore` undid. */
  restores?: string;
  /** What was left out because it held one of the run's keys: 'request body', 'before'. */
  withheld?: string[];
  /** The fields kept with a key of the run masked as ***: 'environment.name', 'request.url'. */
  masked?: string[];
}

export interface AnsweredLine {
  v: number;
  entry: string;
  event: 'answered';
  at: string;
  result: Exclude<JournalResult, 'unknown'> | 'unknown';
  status: number | null;
  /** The environment's id as answered: a create's new id. */
  id: string | null;
  /** The record the server answered; null when it sent none, or when it held a key of the run (never kept). */
  record: unknown;
  error: string | null;
  /** 'record' when the answer held a key of the run. */
  withheld?: string[];
  /** The fields kept with a key of the run masked as ***: 'id', 'error'. */
  masked?: string[];
}

/**
 * One entry as history shows it in JSON: the "sent" line with its outcome. Its `withheld` and `masked` are both
 * lines' (the answer's `id` named `answeredId`).
 */
export interface JournalEntry extends Omit<SentLine, 'v' | 'event'> {
  result: JournalResult;
  answeredAt: string | null;
  status: number | null;
  /** The environment's id as the answer gave it (a create's new id). */
  answeredId: string | null;
  record: unknown;
  error: string | null;
}

let lastTime = 0;

/**
 * A new entry's id: the time in base 36 (9 digits, so ids sort as text in the order they were made; one
 * process never gives two the same time) and 4 random ones, against another process in the same millisecond.
 */
export function newEntryId(now: number): string {
  lastTime = Math.max(now, lastTime + 1);
  const random = Math.floor(Math.random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0');
  return `${lastTime.toString(36).padStart(9, '0')}${random}`;
}

/** Who acts where, as the settings in use say. */
export function scopeOf(settings: ResolvedSettings, actingAs: string): JournalScope {
  const { credentials } = settings;
  const enterprise = credentials.kind === 'api-key' ? credentials.enterpriseId : (credentials.claims.enterprise ?? null);
  return { profile: settings.profile ?? null, enterprise, actingAs, baseUrl: settings.baseUrl };
}

const OFF = ['off', '0', 'false', 'no'];

function positive(ctx: Context, variable: string, fallback: number): number {
  const text = nonEmpty(ctx.env[variable]);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`${variable} must be a positive number, not '${text}'`);
  return value;
}

/** Whether this run records its writes: not with --no-journal or CIP_JOURNAL=off. */
export function journalOn(ctx: Context): boolean {
  const setting = nonEmpty(ctx.env.CIP_JOURNAL)?.trim().toLowerCase();
  return ctx.globals.journal && (setting === undefined || !OFF.includes(setting));
}

/** Where the journal is, and its bounds (CIP_JOURNAL_DAYS, CIP_JOURNAL_MAX_MB). */
export function journalSetup(ctx: Context): { place: JournalPlace; path: string; bounds: JournalBounds } {
  const { dir, isDefault } = configLocation(ctx.env);
  const bounds = {
    days: positive(ctx, 'CIP_JOURNAL_DAYS', DEFAULT_JOURNAL_DAYS),
    maxBytes: Math.floor(positive(ctx, 'CIP_JOURNAL_MAX_MB', DEFAULT_JOURNAL_MAX_MB) * 1024 * 1024),
  };
  return { place: { dir, own: isDefault, uid: ctx.host.uid }, path: journalPath(dir), bounds };
}

const text = (value: unknown): value is string => typeof value === 'string';
const textOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';
const texts = (value: unknown): value is string[] | undefined => value === undefined || (Array.isArray(value) && value.every(text));

function isSent(value: unknown): value is SentLine {
  if (!isRecord(value) || value.event !== 'sent') return false;
  const { environment, request } = value;
  return (
    text(value.entry) &&
    text(value.at) &&
    text(value.command) &&
    ['create', 'update', 'delete', 'request'].includes(value.action as string) &&
    textOrNull(value.profile) &&
    textOrNull(value.enterprise) &&
    text(value.actingAs) &&
    text(value.baseUrl) &&
    isRecord(environment) &&
    textOrNull(environment.id) &&
    textOrNull(environment.name) &&
    isRecord(request) &&
    text(request.method) &&
    text(request.url) &&
    (value.before === null || isRecord(value.before)) &&
    (value.restores === undefined || text(value.restores)) &&
    texts(value.withheld) &&
    texts(value.masked)
  );
}

function isAnswered(value: unknown): value is AnsweredLine {
  return (
    isRecord(value) &&
    value.event === 'answered' &&
    text(value.entry) &&
    text(value.at) &&
    ['done', 'failed', 'unknown'].includes(value.result as string) &&
    (value.status === null || typeof value.status === 'number') &&
    textOrNull(value.id) &&
    textOrNull(value.error) &&
    texts(value.withheld) &&
    texts(value.masked)
  );
}

/**
 * Every entry the journal holds, oldest first. Lines cip cannot read (another tool's, a torn one) are skipped
 * and counted in one warning; the file is left as it is.
 */
export function readEntries(ctx: Context): JournalEntry[] {
  const { place, bounds } = journalSetup(ctx);
  // Bounded: a journal is pruned to its bound at each write; one far larger is read from its newest part.
  const { path, lines, skippedBytes } = readJournal(place.dir, 2 * bounds.maxBytes);
  if (skippedBytes > 0)
    ctx.io.warn(
      `the journal ${path} is larger than cip reads (${2 * bounds.maxBytes} bytes); its oldest ${skippedBytes} bytes were not read`,
    );
  const entries = new Map<string, JournalEntry>();
  const unreadable: number[] = [];
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = parseExactJson(line);
    } catch {
      unreadable.push(index + 1);
      continue;
    }
    if (isSent(value)) {
      const { v: _version, event: _event, ...sent } = value;
      if (!entries.has(sent.entry)) {
        entries.set(sent.entry, {
          ...sent,
          result: 'unknown',
          answeredAt: null,
          status: null,
          answeredId: null,
          record: null,
          error: null,
        });
      }
    } else if (isAnswered(value)) {
      const entry = entries.get(value.entry);
      // An answer whose entry was pruned (or is in the part not read) has nothing to belong to.
      if (entry) {
        Object.assign(entry, {
          result: value.result,
          answeredAt: value.at,
          status: value.status,
          answeredId: value.id,
          record: value.record ?? null,
          error: value.error,
        });
        if (value.withheld?.length) entry.withheld = [...(entry.withheld ?? []), ...value.withheld];
        const masked = value.masked?.map((field) => (field === 'id' ? 'answeredId' : field));
        if (masked?.length) entry.masked = [...(entry.masked ?? []), ...masked];
      }
    } else unreadable.push(index + 1);
  }
  if (unreadable.length) {
    const shown = unreadable.slice(0, 5).join(', ');
    const more = unreadable.length > 5 ? ', ...' : '';
    const where = skippedBytes > 0 ? 'of the part read ' : '';
    ctx.io.warn(
      `skipped ${unreadable.length} line${unreadable.length === 1 ? '' : 's'} of the journal ${path} that cip cannot read (line${unreadable.length === 1 ? '' : 's'} ${where}${shown}${more}); the file is left as it is`,
    );
  }
  return [...entries.values()];
}
