// The journal's file (config/journal-file.ts): private, appended whole lines at a time, pruned to its bounds
// without a torn line or a silent loss, read within a bound, never through a link.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalUnwritable, appendToJournal, readJournal, type JournalPlace } from '../../../src/config/journal-file.js';
import { tempDir } from '../../helpers/cli.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-06-01T00:00:00Z');
const POSIX = process.platform !== 'win32';

function place(dir = tempDir(), own = false): JournalPlace {
  return { dir, own, uid: POSIX ? process.getuid!() : undefined };
}

/** A "sent" line and its "answered" line, `daysAgo` old, with a body of `size` characters. */
function entry(id: string, daysAgo: number, size = 10): string[] {
  const at = new Date(NOW - daysAgo * DAY).toISOString();
  return [
    JSON.stringify({ v: 1, entry: id, event: 'sent', at, body: 'x'.repeat(size) }),
    JSON.stringify({ v: 1, entry: id, event: 'answered', at, result: 'done' }),
  ];
}

const linesOf = (dir: string) => readFileSync(join(dir, 'journal.jsonl'), 'utf8').split('\n');
const idsOf = (dir: string) =>
  linesOf(dir).flatMap((line) => {
    try {
      return [(JSON.parse(line) as { entry: string }).entry];
    } catch {
      return line === '' ? [] : [`?${line}`];
    }
  });
const noWarnings = (message: string) => {
  throw new Error(`unexpected warning: ${message}`);
};

describe('the lock', () => {
  const bounds = { days: 30, maxBytes: 1e6 };

  it('is taken and given back at once when it is free: no lock folder is left', async () => {
    const dir = tempDir();
    await appendToJournal(place(dir), entry('a', 0), bounds, NOW, noWarnings);
    expect(existsSync(join(dir, 'journal.jsonl.lock'))).toBe(false);
    expect(idsOf(dir)).toEqual(['a', 'a']);
  });

  it('held by another cip: the append waits, says so once, and writes when it is given back', async () => {
    const dir = tempDir();
    const lock = join(dir, 'journal.jsonl.lock');
    mkdirSync(lock);
    const warnings: string[] = [];
    let said!: () => void;
    const waiting = new Promise<void>((resolve) => (said = resolve));
    const append = appendToJournal(place(dir), entry('a', 0), bounds, NOW, (message) => {
      warnings.push(message);
      said();
    });
    await waiting;
    // Nothing is written while the other holds it.
    expect(existsSync(join(dir, 'journal.jsonl'))).toBe(false);
    rmdirSync(lock);
    await append;
    expect(idsOf(dir)).toEqual(['a', 'a']);
    expect(warnings).toEqual([`another cip is writing the journal ${join(dir, 'journal.jsonl')}; waiting for it`]);
    expect(existsSync(lock)).toBe(false);
  });

  it('left by a cip that died (not refreshed for a minute) is taken over, and the append goes on', async () => {
    const dir = tempDir();
    const lock = join(dir, 'journal.jsonl.lock');
    mkdirSync(lock);
    const minuteAgo = (Date.now() - 60_000) / 1000;
    utimesSync(lock, minuteAgo, minuteAgo);
    await appendToJournal(place(dir), entry('a', 0), bounds, NOW, noWarnings);
    expect(idsOf(dir)).toEqual(['a', 'a']);
    expect(existsSync(lock)).toBe(false);
  });
});

describe('appending', () => {
  it('creates the file private (0600), in a private folder it makes, one line per entry line', async () => {
    const dir = join(tempDir(), 'new', 'cip');
    await appendToJournal(place(dir), entry('a', 0), { days: 30, maxBytes: 1e6 }, NOW, noWarnings);
    await appendToJournal(place(dir), entry('b', 0), { days: 30, maxBytes: 1e6 }, NOW, noWarnings);
    expect(idsOf(dir)).toEqual(['a', 'a', 'b', 'b']);
    if (POSIX) {
      expect(statSync(join(dir, 'journal.jsonl')).mode & 0o777).toBe(0o600);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    }
  });

  it.skipIf(!POSIX)('makes a file others could read private again, and says so', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'journal.jsonl'), '');
    chmodSync(join(dir, 'journal.jsonl'), 0o644);
    const warnings: string[] = [];
    await appendToJournal(place(dir), entry('a', 0), { days: 30, maxBytes: 1e6 }, NOW, (message) => warnings.push(message));
    expect(statSync(join(dir, 'journal.jsonl')).mode & 0o777).toBe(0o600);
    expect(warnings).toEqual([`${join(dir, 'journal.jsonl')} was readable by others (mode 644); cip made it private (600)`]);
  });

  it.skipIf(!POSIX)('refuses a folder others can write to (CIP_CONFIG_DIR=/var/tmp), a link, and a FIFO', async () => {
    const shared = tempDir();
    chmodSync(shared, 0o777);
    await expect(appendToJournal(place(shared), entry('a', 0), { days: 30, maxBytes: 1e6 }, NOW, noWarnings)).rejects.toThrow(
      new JournalUnwritable(`the config folder ${shared} is not private: others can write to it (mode 777)`),
    );
    const linked = tempDir();
    const elsewhere = join(tempDir(), 'target');
    writeFileSync(elsewhere, 'theirs\n');
    symlinkSync(elsewhere, join(linked, 'journal.jsonl'));
    await expect(appendToJournal(place(linked), entry('a', 0), { days: 30, maxBytes: 1e6 }, NOW, noWarnings)).rejects.toThrow(
      `${join(linked, 'journal.jsonl')} is a link; cip writes only a file of its own`,
    );
    expect(readFileSync(elsewhere, 'utf8')).toBe('theirs\n');
    expect(() => readJournal(linked, 1e6)).toThrow('is a link');
    // A FIFO would block a reader (and Ctrl-C) until someone wrote to it.
    const piped = tempDir();
    execFileSync('mkfifo', [join(piped, 'journal.jsonl')]);
    await expect(appendToJournal(place(piped), entry('a', 0), { days: 30, maxBytes: 1e6 }, NOW, noWarnings)).rejects.toThrow(
      `${join(piped, 'journal.jsonl')} is not a regular file (a FIFO)`,
    );
    expect(() => readJournal(piped, 1e6)).toThrow(`the journal ${join(piped, 'journal.jsonl')} is not a regular file (a FIFO)`);
  });

  it('starts a new line after a line left without its end (a crash, another tool)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'journal.jsonl'), `${entry('a', 0)[0]}\n{"torn":`, { mode: 0o600 });
    await appendToJournal(place(dir), entry('b', 0), { days: 30, maxBytes: 1e6 }, NOW, noWarnings);
    expect(idsOf(dir)).toEqual(['a', '?{"torn":', 'b', 'b']);
  });
});

describe('pruning to the bounds', () => {
  it('drops entries older than the days, with their answers, and keeps the rest as they were', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'journal.jsonl'),
      [...entry('old', 40), ...entry('older-answer', 31).slice(0, 1), ...entry('new', 2), ''].join('\n'),
      { mode: 0o600 },
    );
    await appendToJournal(place(dir), entry('now', 0), { days: 30, maxBytes: 1e6 }, NOW, noWarnings);
    expect(idsOf(dir)).toEqual(['new', 'new', 'now', 'now']);
  });

  it('keeps the newest whole entries within the size, never half of a line or an answer without its entry', async () => {
    const dir = tempDir();
    const bounds = { days: 30, maxBytes: 2000 };
    for (let index = 0; index < 20; index++) await appendToJournal(place(dir), entry(`e${index}`, 0, 100), bounds, NOW, noWarnings);
    const size = statSync(join(dir, 'journal.jsonl')).size;
    expect(size).toBeLessThanOrEqual(2000);
    const ids = idsOf(dir);
    expect(ids.at(-1)).toBe('e19');
    // Whole entries only: every id kept has its two lines, in order, and the file ends with a line end.
    expect(ids.filter((id, index) => ids.indexOf(id) === index).every((id) => ids.filter((other) => other === id).length === 2)).toBe(true);
    expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8').endsWith('\n')).toBe(true);
    expect(ids.length).toBeGreaterThanOrEqual(10);
  });

  it('counts an entry whole when a batch wrote its answer after other entries: the answers of a batch never push out their own entries', async () => {
    const dir = tempDir();
    const bounds = { days: 30, maxBytes: 4000 };
    // A batch of writes as `apply --concurrency 4` makes them: four "sent" lines with big bodies, then the four
    // answers, each big too, in one append: over the bound, so it is pruned at once.
    const batch = ['a', 'b', 'c', 'd'].map((id) => entry(id, 0, 400));
    const answered = (id: string) =>
      JSON.stringify({ v: 1, entry: id, event: 'answered', at: new Date(NOW).toISOString(), record: 'y'.repeat(600) });
    await appendToJournal(place(dir), entry('old', 0, 1500), bounds, NOW, noWarnings);
    await appendToJournal(
      place(dir),
      batch.map(([sent]) => sent!),
      bounds,
      NOW,
      noWarnings,
    );
    await appendToJournal(place(dir), ['a', 'b', 'c', 'd'].map(answered), bounds, NOW, noWarnings);
    expect(statSync(join(dir, 'journal.jsonl')).size).toBeLessThanOrEqual(4000);
    // The newest entries that fit, each with its answer: not the answers alone.
    expect(idsOf(dir)).toEqual(['c', 'd', 'c', 'd']);
  });

  it('says how many lines another tool wrote it dropped with the old entries; keeps those among the kept ones', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'journal.jsonl'),
      ['garbage one', ...entry('old', 40), 'garbage two', ...entry('new', 1), 'garbage three', ''].join('\n'),
      {
        mode: 0o600,
      },
    );
    const warnings: string[] = [];
    await appendToJournal(place(dir), entry('now', 0), { days: 30, maxBytes: 1e6 }, NOW, (message) => warnings.push(message));
    expect(idsOf(dir)).toEqual(['new', 'new', '?garbage three', 'now', 'now']);
    expect(warnings).toEqual([`pruning the journal ${join(dir, 'journal.jsonl')} dropped 2 old lines that cip did not write`]);
  });

  it('always keeps the entry just written, even one larger than the bound', async () => {
    const dir = tempDir();
    await appendToJournal(place(dir), entry('small', 0), { days: 30, maxBytes: 500 }, NOW, noWarnings);
    expect(idsOf(dir)).toEqual(['small', 'small']);
    await appendToJournal(place(dir), entry('huge', 0, 1000), { days: 30, maxBytes: 500 }, NOW, noWarnings);
    expect(idsOf(dir)).toEqual(['huge', 'huge']);
  });
});

describe('reading', () => {
  it('reads whole lines only, at most the limit, from the newest part', () => {
    const dir = tempDir();
    expect(readJournal(dir, 100)).toEqual({ path: join(dir, 'journal.jsonl'), lines: [], skippedBytes: 0 });
    writeFileSync(join(dir, 'journal.jsonl'), 'first line\nsecond line\nthird\nbeing writ');
    expect(readJournal(dir, 1000).lines).toEqual(['first line', 'second line', 'third']);
    // The last 20 bytes start inside "second line": that part is skipped whole.
    expect(readJournal(dir, 20)).toMatchObject({ lines: ['third'], skippedBytes: 23 });
  });

  it('reads a file far over its bound from its newest part, and a prune says what it dropped unread', async () => {
    const dir = tempDir();
    const old = entry('old', 0, 70_000);
    writeFileSync(join(dir, 'journal.jsonl'), [...old, ...entry('new', 0), ''].join('\n'), { mode: 0o600 });
    const warnings: string[] = [];
    await appendToJournal(place(dir), entry('now', 0), { days: 30, maxBytes: 100 }, NOW, (message) => warnings.push(message));
    expect(idsOf(dir)).toEqual(['now', 'now']);
    expect(warnings).toEqual([
      `the journal ${join(dir, 'journal.jsonl')} was far over its bound; cip kept its newest part and dropped ${Buffer.byteLength(old[0]!) + 1} bytes unread`,
    ]);
  });

  it('refuses a folder in place of the file', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'journal.jsonl'));
    expect(() => readJournal(dir, 100)).toThrow(`the journal ${join(dir, 'journal.jsonl')} is not a regular file (a directory)`);
  });
});
