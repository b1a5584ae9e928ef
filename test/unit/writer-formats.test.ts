// The writer and the output formats (output/writer.ts, output/format.ts): a command hands the writer its data
// and, when it has one, its view for people; the writer alone decides by the format. A format the writer has no
// case for is refused (a bug, exit 1), never written as JSON in its place.
import { describe, expect, it } from 'vitest';
import { OUTPUT_FORMATS, ROW_FORMATS, type OutputFormat } from '../../src/output/format.js';
import { writeData, writeList, writeRecord, writeResult, type Output } from '../../src/output/writer.js';
import { writerOutput } from '../helpers/io.js';

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
