// The writer and the output formats (output/writer.ts, output/data.ts, output/format.ts): a command hands the writer its data
// and, when it has one, its view for people; the writer alone decides by the format. A format the writer has no
// case for is refused (a bug, exit 1), never written as JSON in its place. JSON lists are written as they come,
// also to a slow reader or one that goes away.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseExactJson } from '../../../src/json/exact.js';
import { OUTPUT_FORMATS, ROW_FORMATS, type OutputFormat } from '../../../src/output/format.js';
import { writeData, writeList, writeRecord, writeResult, type Output } from '../../../src/output/writer.js';
import { writerOutput } from '../../helpers/io.js';

const output = (outputFormat: OutputFormat) => writerOutput({ outputFormat });

const rows = [{ id: 'a1', name: 'alpha' }];
// What a new format looks like to the writer before it is taught: in the list of formats, with no case.
const untaught = 'csv' as OutputFormat;

describe('a format the writer does not know', () => {
  it.each([
    ['writeData', (io: Output) => writeData(io, rows)],
    ['writeList', (io: Output) => writeList(io, rows, { emptyMessage: '' })],
    ['writeRecord', (io: Output) => writeRecord(io, rows[0])],
    ['writeResult', (io: Output) => writeResult(io, rows)],
  ])('%s refuses it and writes nothing', async (_name, write) => {
    const { io, written } = output(untaught);
    await expect(write(io)).rejects.toThrow("the writer cannot write the output format 'csv'");
    expect(written()).toBe('');
  });
});

describe('writeResult', () => {
  const view = () => Promise.resolve(['+ create name alpha']);

  it.each(OUTPUT_FORMATS.filter((format) => format !== 'table'))('writes the data as %s, never the view', async (format) => {
    const { io, written } = output(format);
    await writeResult(io, rows, view);
    expect(written()).not.toBe('');
    expect(written()).not.toContain('+ create');
  });

  it('writes the view at a table, and nothing when the command has none', async () => {
    const withView = output('table');
    await writeResult(withView.io, rows, view);
    expect(withView.written()).toBe('+ create name alpha\n');
    const without = output('table');
    await writeResult(without.io, rows);
    expect(without.written()).toBe('');
  });
});

it('a row format writes rows of the columns, a header first', async () => {
  for (const format of ROW_FORMATS) {
    const { io, written } = output(format);
    await writeList(io, rows, { emptyMessage: '' });
    expect(written().split('\n')[0], format).toContain('name');
    expect(written(), format).toContain('alpha');
  }
});

describe('JSON lists', () => {
  const output = (stdoutIsTTY: boolean) => writerOutput({ stdoutIsTTY });

  it.each([0, 1, 499, 500, 501, 1000, 1234])('%i rows: the bytes JSON.stringify writes, a slice at a time', async (count) => {
    const rows = Array.from({ length: count }, (_, index) => ({ id: `e${index}`, n: index, nested: { list: [index, 'x'] } }));
    const { io, writes } = output(false);
    await writeList(io, rows, { emptyMessage: '' });
    expect(writes.join('')).toBe(`${JSON.stringify(rows, null, 2)}\n`);
    expect(writes).toHaveLength(Math.max(1, Math.ceil(count / 500)));
  });

  it('numbers stay exact and a terminal gets escapes, across slices', async () => {
    const text = `[${Array.from({ length: 1001 }, (_, index) => `{"id":${index === 700 ? '9007199254740993' : index},"name":"a\\u202eb"}`).join(',')}]`;
    const rows = (await parseExactJson(text)) as unknown[];
    const pipe = output(false);
    await writeList(pipe.io, rows, { emptyMessage: '' });
    const printed = pipe.writes.join('');
    expect(printed).toContain('"id": 9007199254740993,');
    expect(printed.replace('9007199254740993', '700')).toBe(
      `${JSON.stringify(JSON.parse(text.replace('9007199254740993', '700')), null, 2)}\n`,
    );
    const terminal = output(true);
    await writeList(terminal.io, rows, { emptyMessage: '' });
    expect(printed).toContain('a\u202eb');
    expect(terminal.writes.join('')).not.toContain('\u202e');
    expect(terminal.writes.join('')).toContain('a\\u202eb');
  });
});

describe('JSON lists and a slow or absent reader', () => {
  const rows = Array.from({ length: 2000 }, (_, index) => ({ id: `e${index}`, name: 'x'.repeat(50) }));
  const ioFor = (stdout: Writable): Output => writerOutput({ stdout }).io;

  it('waits for the reader between slices instead of queueing the whole output', async () => {
    let queuedMost = 0;
    const chunks: string[] = [];
    const slow = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, done) {
        queuedMost = Math.max(queuedMost, slow.writableLength);
        chunks.push(chunk.toString('utf8'));
        setTimeout(done, 1);
      },
    });
    await writeList(ioFor(slow), rows, { emptyMessage: '' });
    expect(chunks.join('')).toBe(`${JSON.stringify(rows, null, 2)}\n`);
    // One slice at most was waiting: the whole output is four.
    expect(queuedMost).toBeLessThan(chunks.join('').length / 3);
  });

  it('finishes when the reader has gone (a closed pipe never drains)', async () => {
    const gone = new Writable({
      highWaterMark: 16,
      write(_chunk, _encoding, done) {
        done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    gone.on('error', () => undefined);
    await writeList(ioFor(gone), rows, { emptyMessage: '' });
    expect(gone.destroyed).toBe(true);
  });
});

describe('a table shows no key, wherever the data holds it', () => {
  const KEY = 'sandbox-api-key-0123456789';
  const redact = (text: string) => text.replaceAll(KEY, '***');

  it('in a value, a list item, a field name and what a column shows a value as: each as ***', async () => {
    const rows = [{ id: 'a1', name: `n ${KEY}`, tags: [KEY, 'x'], [`f${KEY}`]: 'v', shown: 1 }];
    const { io, written } = writerOutput({ outputFormat: 'table', redact });
    await writeList(io, rows, { emptyMessage: '', shownAs: { shown: () => `as ${KEY}` } });
    expect(written()).not.toContain(KEY);
    expect(written()).toContain('n ***');
    expect(written()).toContain('as ***');
    expect(written()).toContain('F***');
    expect(written()).toMatch(/\*\*\*, x|\[2 items\]/);
  });

  it('in the names of the columns hidden to fit a terminal', async () => {
    const notes: string[] = [];
    const rows = [{ id: 'a1', name: 'alpha', a: 'x'.repeat(30), b: 'y'.repeat(30), [`long${KEY}`]: 'v'.repeat(60) }];
    const { io, written } = writerOutput({
      outputFormat: 'table',
      redact,
      stdoutIsTTY: true,
      columns: 20,
      info: (note) => notes.push(note),
    });
    await writeList(io, rows, { emptyMessage: '' });
    expect(notes.join('\n')).toContain('long***');
    expect(notes.join('\n') + written()).not.toContain(KEY);
  });
});
