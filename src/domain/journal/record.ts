// Recording writes in the journal: a "sent" line before the request goes out, an "answered" line once its
// outcome is known. The write commands call the API through journaledApi (env create, update, delete, apply,
// restore) or journaled (`cip api`), so each hook is one line. No header is ever recorded, and every line is
// sealed where it is written (sealLine): a key that arrives in a name, an id, a URL or the data is never kept.
// The data is recorded exactly as sent and read, or not at all: masked, it could not be put back. A journal that
// cannot be written (a read-only home in CI, a full disk) is said once and the write goes on: a change is
// never refused for want of its record, and the README says so.
import { environmentUrl, type EnvironmentsApi } from '../../api/environments.js';
import { actingAs } from '../../config/credentials/credential.js';
import { appendToJournal } from '../../config/journal-file.js';
import type { ResolvedSettings } from '../../config/credentials/settings.js';
import type { Context } from '../../context.js';
import { ApiError, InexactReadError, UsageError } from '../../errors.js';
import { parseExactJson, stringifyExactJson } from '../../json/exact.js';
import { isRecord, setOwn } from '../../json/record.js';
import { decodeText } from '../../text/charset.js';
import { idOf, nameOf } from '../environments/target.js';
import {
  JOURNAL_VERSION,
  journalOn,
  journalSetup,
  newEntryId,
  scopeOf,
  type AnsweredLine,
  type JournalAction,
  type JournalRequest,
  type SentLine,
} from './entry.js';

/** A write about to be sent, as the command knows it. */
export interface JournalChange {
  command: string;
  action: JournalAction;
  environment: { id: string | undefined; name: string | undefined };
  request: JournalRequest;
  before: Record<string, unknown> | undefined;
  restores?: string | undefined;
}

/** What became of a write that was answered. */
export interface JournalOutcome {
  status?: number | undefined;
  id?: string | undefined;
  record?: unknown;
}

/** Per run: whether the journal already failed (said once; later writes of the run are not recorded). */
const broken = new WeakSet<Context>();

/** Lines of one run waiting for the append under way, and whether the run has looked at the journal's age. */
interface Writer {
  waiting: { text: string; done: (error?: Error) => void }[];
  running: boolean;
  agedChecked: boolean;
}
const writers = new WeakMap<Context, Writer>();

/**
 * The lines given while an append is under way go out together in the next one: one lock and one write for
 * the writes of a batch that end at once, not one each (200 deletes, 8 at a time, took twice the CPU). Each
 * caller still returns only once its own line is on disk, so a "sent" line is written before its request.
 */
function writeLine(ctx: Context, text: string): Promise<void> {
  let writer = writers.get(ctx);
  if (!writer) writers.set(ctx, (writer = { waiting: [], running: false, agedChecked: false }));
  const own = writer;
  return new Promise<void>((resolve, reject) => {
    own.waiting.push({
      text,
      done: (error) => (error === undefined ? resolve() : reject(error)),
    });
    if (!own.running) void drain(ctx, own);
  });
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error('the journal could not be written'));

async function drain(ctx: Context, writer: Writer): Promise<void> {
  writer.running = true;
  let setup: ReturnType<typeof journalSetup>;
  try {
    setup = journalSetup(ctx);
  } catch (error) {
    for (const item of writer.waiting.splice(0)) item.done(asError(error));
    writer.running = false;
    return;
  }
  const { place, bounds } = setup;
  while (writer.waiting.length) {
    const batch = writer.waiting.splice(0);
    try {
      await appendToJournal(
        place,
        batch.map((item) => item.text),
        { ...bounds, checkAge: !writer.agedChecked },
        Date.now(),
        (message) => ctx.io.warn(message),
      );
      writer.agedChecked = true;
      for (const item of batch) item.done();
    } catch (error) {
      for (const item of batch) item.done(asError(error));
    }
  }
  writer.running = false;
}

/**
 * A line as the journal keeps it, as text: no key of the run in it, however spelled (secrets.ts). Every line is
 * written through here, so no field can bypass it. What a restore would send again (the request's body, the
 * record before, the record answered) is left out whole when it holds a key, and named in `withheld`: masked, a
 * *** could be put back as data. Any other text holding one (a name, an id, a URL, an error, a field's name) is
 * kept with the key as ***, and named in `masked`, so that a restore knows it is not what was sent.
 */
export function sealLine(line: SentLine | AnsweredLine, redact: (text: string) => string): string {
  const holds = (value: unknown) => {
    const text = stringifyExactJson(value);
    return redact(text) !== text;
  };
  const withheld = [...(line.withheld ?? [])];
  const masked = new Set<string>();
  const mask = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') {
      const shown = redact(value);
      if (shown !== value) masked.add(path);
      return shown;
    }
    if (Array.isArray(value)) return value.map((item) => mask(item, path));
    if (!isRecord(value)) return value;
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const name = redact(key);
      if (name !== key) masked.add(path);
      setOwn(copy, name, mask(inner, path === '' ? name : `${path}.${name}`));
    }
    return copy;
  };
  // What a restore would send again: each kept whole, or left out.
  const data = (value: unknown, name: string) => {
    if (value === undefined || value === null || !holds(value)) return value;
    if (!withheld.includes(name)) withheld.push(name);
    return undefined;
  };
  const sealed: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(line)) {
    if (field === 'withheld' || field === 'masked') continue;
    if (field === 'request' && isRecord(value)) {
      // The body (JSON, or the text `cip api` sent) is kept whole or left out.
      const bodyHeld = [value.body, value.text].some((body) => data(body, 'request body') === undefined && body !== undefined);
      const request: Record<string, unknown> = {};
      for (const [part, inner] of Object.entries(value)) {
        if (part !== 'body' && part !== 'text') request[part] = mask(inner, `request.${part}`);
        else if (!bodyHeld) request[part] = inner;
      }
      sealed.request = request;
    } else if (field === 'before' || field === 'record') sealed[field] = data(value, field) ?? null;
    else setOwn(sealed, field, mask(value, field));
  }
  if (withheld.length) sealed.withheld = withheld;
  if (masked.size) sealed.masked = [...masked];
  const text = stringifyExactJson(sealed);
  // A key spread over several fields (one of them holding `","`) is in none of them alone: such a line is not
  // written at all.
  if (redact(text) !== text) throw new Error('a line held one of the keys in use in a way cip cannot mask');
  return text;
}

async function append(ctx: Context, line: SentLine | AnsweredLine): Promise<boolean> {
  if (broken.has(ctx)) return false;
  const { path } = journalSetup(ctx);
  try {
    await writeLine(
      ctx,
      sealLine(line, (text) => ctx.redactKept(text)),
    );
    return true;
  } catch (error) {
    // Writes under way at once (apply) may each fail: said once.
    if (broken.has(ctx)) return false;
    broken.add(ctx);
    ctx.io.warn(
      `cannot write the journal ${path} (${(error as Error).message}); this run's changes are not recorded, and 'cip env restore' cannot undo them`,
    );
    return false;
  }
}

/** How a failed write ended: 'failed' when the API refused it, 'unknown' when it may have been carried out. */
function failureOf(error: unknown): Pick<AnsweredLine, 'result' | 'status'> {
  if (error instanceof ApiError)
    return { result: error.status < 500 && !error.afterUncertainAttempt ? 'failed' : 'unknown', status: error.status };
  // Refused before anything was sent (an id that cannot be addressed, text cip could not read to send back).
  if (error instanceof UsageError || error instanceof InexactReadError) return { result: 'failed', status: null };
  // Interrupted, timed out, a connection lost or a broken answer: the server may have carried it out.
  return { result: 'unknown', status: null };
}

/**
 * Sends a write with its journal entry: the "sent" line first, then the request, then the "answered" line.
 * Without a journal (--no-journal, CIP_JOURNAL=off) it only sends.
 */
export async function journaled<T>(
  ctx: Context,
  settings: ResolvedSettings,
  change: JournalChange,
  send: () => Promise<T>,
  outcome: (value: T) => JournalOutcome | Promise<JournalOutcome>,
): Promise<T> {
  if (!journalOn(ctx)) return send();
  const entry = newEntryId(Date.now());
  // What holds a key is left out or masked where every line is written (sealLine).
  const sent: SentLine = {
    v: JOURNAL_VERSION,
    entry,
    event: 'sent',
    at: new Date().toISOString(),
    command: change.command,
    action: change.action,
    ...scopeOf(settings, actingAs(settings.credentials).afterProfile),
    environment: { id: change.environment.id ?? null, name: change.environment.name ?? null },
    request: change.request,
    before: change.before ?? null,
    ...(change.restores === undefined ? {} : { restores: change.restores }),
  };
  const recorded = await append(ctx, sent);
  const answered = (fields: Omit<AnsweredLine, 'v' | 'entry' | 'event' | 'at'>): AnsweredLine => ({
    v: JOURNAL_VERSION,
    entry,
    event: 'answered',
    at: new Date().toISOString(),
    ...fields,
  });
  let value: T;
  try {
    value = await send();
  } catch (error) {
    if (recorded) await append(ctx, answered({ ...failureOf(error), id: null, record: null, error: (error as Error).message }));
    throw error;
  }
  if (recorded) {
    const { status, id, record } = await outcome(value);
    await append(ctx, answered({ result: 'done', status: status ?? null, id: id ?? null, record: record ?? null, error: null }));
  }
  return value;
}

/**
 * The Environments API with every write journaled. It remembers the records the list gave, by id: the record
 * as it was before an update or a delete is the one the command read.
 */
export function journaledApi(ctx: Context, api: EnvironmentsApi, command: string, restores?: string): EnvironmentsApi {
  // A bound that is not a number (CIP_JOURNAL_DAYS=abc) is refused now, before anything is read or sent.
  if (journalOn(ctx)) journalSetup(ctx);
  const seen = new Map<string, Record<string, unknown>>();
  const base = api.settings.baseUrl;
  const change = (action: JournalAction, id: string | undefined, name: string | undefined, request: JournalRequest): JournalChange => {
    const before = id === undefined ? undefined : seen.get(id);
    return { command, action, environment: { id, name: name ?? nameOf(before) }, request, before, restores };
  };
  /** The records a list gave, by id: the newest read is what a write changes. */
  const remember = (items: unknown[]): unknown[] => {
    for (const item of items) {
      const id = idOf(item);
      if (id !== undefined && isRecord(item)) seen.set(id, item);
    }
    return items;
  };
  return {
    settings: api.settings,
    async list() {
      return remember(await api.list());
    },
    async read() {
      const answer = await api.read();
      remember(answer.items);
      return answer;
    },
    async get(id) {
      const answer = await api.get(id);
      if (answer !== undefined && idOf(answer.data) === id) remember([answer.data]);
      return answer;
    },
    create(payload) {
      const request = { method: 'POST', url: environmentUrl(base), body: payload };
      return journaled(
        ctx,
        api.settings,
        change('create', idOf(payload), nameOf(payload), request),
        () => api.create(payload),
        (answer) => ({
          id: idOf(answer),
          record: answer,
        }),
      );
    },
    update(id, payload, ifMatch) {
      const request = { method: 'PUT', url: environmentUrl(base, id), body: payload };
      return journaled(
        ctx,
        api.settings,
        change('update', id, nameOf(payload), request),
        () => api.update(id, payload, ifMatch),
        (answer) => ({
          id,
          record: answer,
        }),
      );
    },
    remove(id) {
      const request = { method: 'DELETE', url: environmentUrl(base, id) };
      return journaled(
        ctx,
        api.settings,
        change('delete', id, undefined, request),
        () => api.remove(id),
        () => ({ id }),
      );
    },
  };
}

/** Whether `cip api` with this method writes, and so is journaled. */
export function writesWith(method: string): boolean {
  return ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method);
}

/** The environment a `cip api` URL names, if it is one: {base}/Environments/{id}. */
export function environmentIn(baseUrl: string, url: string): string | undefined {
  const collection = new URL(`${baseUrl}/Environments`);
  const target = new URL(url);
  if (target.origin !== collection.origin || !target.pathname.startsWith(`${collection.pathname}/`)) return undefined;
  const rest = target.pathname.slice(collection.pathname.length + 1);
  if (rest === '' || rest.includes('/')) return undefined;
  try {
    return decodeURIComponent(rest);
  } catch {
    return undefined;
  }
}

/** The largest `cip api` answer kept in the journal as its record. */
const MAX_RECORDED_ANSWER = 1024 * 1024;

/**
 * A `cip api` answer's JSON body, as the record it answered; null for one too large, not JSON, or not read exactly
 * (text/charset.ts: the journal keeps data exact or not at all).
 */
function answerRecord(body: Uint8Array, contentType: string | null): unknown {
  if (body.length === 0 || body.length > MAX_RECORDED_ANSWER) return null;
  const { text, inexact } = decodeText(body, contentType);
  if (inexact !== undefined) return null;
  try {
    return parseExactJson(text);
  } catch {
    return null;
  }
}

/** A `cip api` call, journaled when its method writes: the body as the text sent, the answer's status and JSON. */
export function journaledCall<T extends { status: number; headers: Headers; body: Uint8Array }>(
  ctx: Context,
  settings: ResolvedSettings,
  request: { method: string; url: string; text: string | undefined },
  send: () => Promise<T>,
): Promise<T> {
  if (!writesWith(request.method)) return send();
  const { method, url, text } = request;
  const change: JournalChange = {
    command: 'api',
    action: 'request',
    environment: { id: environmentIn(settings.baseUrl, url), name: undefined },
    request: { method, url, ...(text === undefined ? {} : { text }) },
    before: undefined,
  };
  // A POST to the collection creates one: its id, as answered, is what history shows and filters by.
  const creates = method === 'POST' && new URL(url).pathname.replace(/\/$/, '') === new URL(environmentUrl(settings.baseUrl)).pathname;
  return journaled(ctx, settings, change, send, (answer) => {
    const record = answerRecord(answer.body, answer.headers.get('content-type'));
    return { status: answer.status, record, id: creates ? idOf(record) : undefined };
  });
}
