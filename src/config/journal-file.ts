// The journal's file (what goes in it: domain/journal/): `journal.jsonl` beside the profile store, private
// (0600, in a folder as private as the config folder), JSON Lines, append-only. Every append and every prune
// holds the lock (config/store/lock.ts) on the file: an append is one write of whole lines, and a prune's rewrite
// cannot lose a line another cip appended meanwhile. A prune rewrites as the profile store does (a new file,
// flushed, renamed over the old), keeps whole lines only, and says what it dropped that cip did not write.
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fstatSync,
  fsyncSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import { loadLockfile, lockFile, lockNow } from './store/lock.js';
import { isPosix, folderPrivacy, makePrivateFolder, type Warn } from './store/privacy.js';
import { kindOf } from './store/read.js';

export const JOURNAL_FILE = 'journal.jsonl';

/** The journal lives here: the config folder, and whether it is cip's own (then cip makes it private). */
export interface JournalPlace {
  dir: string;
  own: boolean;
  uid: number | undefined;
}

/** How much the journal keeps: entries younger than `days`, and at most `maxBytes` of them. */
export interface JournalBounds {
  days: number;
  maxBytes: number;
  /**
   * Whether to look at the age of the oldest entry (a read of the file's head): once a run is enough, as a
   * run's appends come seconds apart, not days. The size is checked at every append.
   */
  checkAge?: boolean;
}

/** Why the journal cannot be written (a read-only or shared folder, a file that is not cip's). */
export class JournalUnwritable extends Error {}

export function journalPath(dir: string): string {
  return join(dir, JOURNAL_FILE);
}

const modeText = (mode: number) => (mode & 0o7777).toString(8);
const DAY_MS = 86_400_000;
/** A prune keeps this share of maxBytes, so that the next appends do not prune again at once. */
const PRUNE_TO = 0.8;
/** How much of the file's start is read to learn the oldest entry's time. */
const HEAD_BYTES = 64 * 1024;

/** The folder made ready: created private when missing; refused when others could swap the file in it. */
function checkFolder({ dir, own, uid }: JournalPlace, warn: Warn): void {
  if (!existsSync(dir)) {
    makePrivateFolder(dir);
    return;
  }
  if (!statSync(dir).isDirectory()) throw new JournalUnwritable(`${dir} is not a folder`);
  const problem = folderPrivacy(dir, own, uid, warn);
  if (problem) throw new JournalUnwritable(`the config folder ${dir} is not private: ${problem}`);
  // The lock would retry a folder it cannot write to for minutes; say so at once.
  accessSync(dir, constants.W_OK);
}

/** Opens the journal to append: never through a link, never a FIFO or a device, never another user's file. */
function openForAppend(path: string, uid: number | undefined, warn: Warn): number {
  const flags = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | (isPosix() ? constants.O_NOFOLLOW | constants.O_NONBLOCK : 0);
  let fd: number;
  try {
    fd = openSync(path, flags, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw new JournalUnwritable(`${path} is a link; cip writes only a file of its own`);
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new JournalUnwritable(`${path} is not a regular file (${kindOf(stats)})`);
    if (isPosix() && uid !== undefined && stats.uid !== uid)
      throw new JournalUnwritable(`${path} belongs to another user (uid ${stats.uid})`);
    if (isPosix() && (stats.mode & 0o077) !== 0) {
      fchmodSync(fd, 0o600);
      warn(`${path} was readable by others (mode ${modeText(stats.mode)}); cip made it private (600)`);
    }
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function writeAll(fd: number, data: Buffer): void {
  for (let at = 0; at < data.length;) at += writeSync(fd, data, at, data.length - at);
}

function readAt(fd: number, length: number, position: number): Buffer {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const count = readSync(fd, buffer, read, length - read, position + read);
    if (count === 0) break;
    read += count;
  }
  return buffer.subarray(0, read);
}

/** A line's time and entry, if cip wrote it; undefined for one another tool wrote (or a torn one). */
function lineFacts(line: string): { time: number; entry: string; event: string } | undefined {
  try {
    const value = JSON.parse(line) as { at?: unknown; entry?: unknown; event?: unknown } | null;
    if (typeof value !== 'object' || value === null || typeof value.entry !== 'string' || typeof value.event !== 'string') return undefined;
    const time = typeof value.at === 'string' ? Date.parse(value.at) : Number.NaN;
    return Number.isNaN(time) ? undefined : { time, entry: value.entry, event: value.event };
  } catch {
    return undefined;
  }
}

/**
 * Appends lines (each one JSON value without a line break) as one write, under the lock, then prunes if the
 * file is over its bounds. Throws JournalUnwritable, or the file system's error, when it cannot.
 */
export async function appendToJournal(
  place: JournalPlace,
  lines: readonly string[],
  bounds: JournalBounds,
  now: number,
  warn: Warn,
): Promise<void> {
  const path = journalPath(place.dir);
  checkFolder(place, warn);
  let compromised: Error | undefined;
  // Everything from here to the release is synchronous: the lock is taken at once when it is free, and waited
  // for (proper-lockfile) only when another cip holds it.
  const held = lockNow(path);
  const release = held
    ? () => {
        held();
        return Promise.resolve();
      }
    : await lockFile(
        await loadLockfile(),
        path,
        path,
        // The lock's one note is that it waits; said of the journal, not of the config file.
        () => warn(`another cip is writing the journal ${path}; waiting for it`),
        (error) => {
          compromised = error;
        },
      );
  try {
    const fd = openForAppend(path, place.uid, warn);
    let size: number;
    try {
      size = fstatSync(fd).size;
      // A line another tool (or a crash) left without its end must not swallow the first of these.
      const torn = size > 0 && readAt(fd, 1, size - 1)[0] !== 0x0a;
      const data = Buffer.from(`${torn ? '\n' : ''}${lines.join('\n')}\n`, 'utf8');
      writeAll(fd, data);
      size += data.length;
    } finally {
      closeSync(fd);
    }
    if (compromised) throw new JournalUnwritable(`lost the lock on ${path}`);
    if (size > bounds.maxBytes || (bounds.checkAge !== false && oldestTime(path) < now - bounds.days * DAY_MS))
      prune(place, bounds, now, warn);
  } finally {
    await release().catch(() => undefined);
  }
}

/** The time of the file's first line cip wrote (within its first 64 KiB); Infinity when there is none. */
function oldestTime(path: string): number {
  const fd = openSync(path, constants.O_RDONLY | (isPosix() ? constants.O_NOFOLLOW | constants.O_NONBLOCK : 0));
  try {
    const head = readAt(fd, HEAD_BYTES, 0).toString('utf8');
    for (const line of head.split('\n').slice(0, -1)) {
      const facts = lineFacts(line);
      if (facts) return facts.time;
    }
    return Number.POSITIVE_INFINITY;
  } finally {
    closeSync(fd);
  }
}

/**
 * Keeps the newest whole entries: those younger than the bound's days, at most PRUNE_TO of its bytes (the newest
 * entry always). An entry's "answered" line goes with its "sent" line. Lines another tool wrote are dropped only
 * with the entries around them, and said so. An entry pruned while its request is under way (in another
 * process) leaves its "answered" line alone in the file: readers skip it, and the next prune drops it.
 */
function prune(place: JournalPlace, bounds: JournalBounds, now: number, warn: Warn): void {
  const path = journalPath(place.dir);
  const fd = openSync(path, constants.O_RDONLY | (isPosix() ? constants.O_NOFOLLOW | constants.O_NONBLOCK : 0));
  let text: string;
  let unread = 0;
  try {
    const size = fstatSync(fd).size;
    // Bounded: a file far over its bound (another tool's, or a bound just lowered) is read from its newest part.
    const window = Math.min(size, 2 * bounds.maxBytes + HEAD_BYTES);
    unread = size - window;
    text = readAt(fd, window, unread).toString('utf8');
  } finally {
    closeSync(fd);
  }
  const lines = text.split('\n');
  // The last element is what follows the last line end: empty, or a torn line, kept as it is.
  const tail = lines.pop() ?? '';
  if (unread > 0) {
    const first = lines.shift() ?? '';
    unread += Buffer.byteLength(first) + 1;
  }
  const facts = lines.map(lineFacts);
  const cutoff = now - bounds.days * DAY_MS;
  let keepFrom = facts.findIndex((fact) => fact !== undefined && fact.time >= cutoff);
  if (keepFrom < 0) keepFrom = lines.length;
  const target = Math.floor(bounds.maxBytes * PRUNE_TO);
  // Whole entries, newest first: an entry's bytes are its "sent" line's and its "answered" line's, wherever
  // that is (several answers may follow the sent lines of a batch); an answer whose entry is not kept goes too.
  const lineBytes = (index: number) => Buffer.byteLength(lines[index]!) + 1;
  const answeredBytes = new Map<string, number>();
  facts.forEach((fact, index) => {
    if (fact !== undefined && fact.event !== 'sent') answeredBytes.set(fact.entry, (answeredBytes.get(fact.entry) ?? 0) + lineBytes(index));
  });
  let bytes = Buffer.byteLength(tail);
  let sizeFrom = lines.length;
  for (let index = lines.length - 1; index >= 0; index--) {
    const fact = facts[index];
    if (fact !== undefined && fact.event !== 'sent') continue;
    const add = lineBytes(index) + (fact === undefined ? 0 : (answeredBytes.get(fact.entry) ?? 0));
    if (bytes + add > target) break;
    bytes += add;
    sizeFrom = index;
  }
  let newestSent = facts.length - 1;
  while (newestSent >= 0 && facts[newestSent]?.event !== 'sent') newestSent--;
  keepFrom = Math.max(keepFrom, Math.min(sizeFrom, newestSent < 0 ? lines.length : newestSent));
  const sent = new Set(facts.slice(keepFrom).flatMap((fact) => (fact?.event === 'sent' ? [fact.entry] : [])));
  const kept: string[] = [];
  let foreign = 0;
  lines.forEach((line, index) => {
    const fact = facts[index];
    if (index >= keepFrom && (fact === undefined || fact.event === 'sent' || sent.has(fact.entry))) kept.push(line);
    else if (fact === undefined && line.trim() !== '') foreign++;
  });
  if (kept.length === lines.length && unread === 0) return;
  const temp = `${path}.${randomBytes(8).toString('hex')}.tmp`;
  const out = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    writeAll(out, Buffer.from(`${kept.map((line) => `${line}\n`).join('')}${tail}`, 'utf8'));
    fsyncSync(out);
  } catch (error) {
    closeSync(out);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(out);
  renameSync(temp, path);
  if (isPosix()) {
    const dirFd = openSync(place.dir, constants.O_RDONLY);
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  }
  if (unread > 0) warn(`the journal ${path} was far over its bound; cip kept its newest part and dropped ${unread} bytes unread`);
  if (foreign > 0) warn(`pruning the journal ${path} dropped ${foreign} old line${foreign === 1 ? '' : 's'} that cip did not write`);
}

/** The journal's lines, for reading: whole lines only, each with its number in the text read. */
export interface JournalText {
  path: string;
  lines: string[];
  /** Bytes at the start of the file left unread: the file is larger than a read may be. */
  skippedBytes: number;
}

/**
 * Reads the journal: at most `limit` bytes, its newest part when it is larger. No file is no lines. A line still
 * being written (no line end yet) is left out. A link, FIFO or device is refused: it is not cip's journal.
 */
export function readJournal(dir: string, limit: number): JournalText {
  const path = journalPath(dir);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (isPosix() ? constants.O_NOFOLLOW | constants.O_NONBLOCK : 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { path, lines: [], skippedBytes: 0 };
    if (code === 'ELOOP') throw new ConfigError(`the journal ${path} is a link, not cip's file`, 'remove it; cip writes a new one');
    throw new ConfigError(`cannot read the journal ${path}: ${(error as Error).message}`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile())
      throw new ConfigError(`the journal ${path} is not a regular file (${kindOf(stats)})`, 'remove it; cip writes a new one');
    const window = Math.min(stats.size, limit);
    let skippedBytes = stats.size - window;
    const lines = readAt(fd, window, skippedBytes).toString('utf8').split('\n');
    lines.pop();
    if (skippedBytes > 0) skippedBytes += Buffer.byteLength(lines.shift() ?? '') + 1;
    return { path, lines, skippedBytes };
  } finally {
    closeSync(fd);
  }
}
