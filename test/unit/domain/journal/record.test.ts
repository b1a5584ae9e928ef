// Every line of the journal is written through sealLine (domain/journal/record.ts): a key of the run, in any
// spelling, in any field, is never in the text it gives. Data a restore would send again is left out whole and
// named in `withheld`; any other field is kept masked and named in `masked`.
import { describe, expect, it } from 'vitest';
import type { AnsweredLine, SentLine } from '../../../../src/domain/journal/entry.js';
import { sealLine } from '../../../../src/domain/journal/record.js';
import { parseExactJson } from '../../../../src/json/exact.js';
import { Secrets } from '../../../../src/secrets.js';
import { expectNoKey, spellings } from '../../../helpers/key-spellings.js';

const KEY = 'Zq7+Kd9=Xw2Lp4Rt8Vn6';
const secrets = new Secrets();
secrets.add(KEY);
const redact = (text: string) => secrets.redactKept(text);

function sent(fields: Partial<SentLine> = {}): SentLine {
  return {
    v: 1,
    entry: '0mx0aaaa0001',
    event: 'sent',
    at: '2026-01-01T00:00:00.000Z',
    command: 'env update',
    action: 'update',
    profile: 'work',
    enterprise: 'ent-1',
    actingAs: 'enterprise ent-1',
    baseUrl: 'https://api.example/ms',
    environment: { id: 'e1', name: 'alpha' },
    request: { method: 'PUT', url: 'https://api.example/ms/Environments/e1', body: { id: 'e1', name: 'alpha', description: 'x' } },
    before: { id: 'e1', name: 'alpha' },
    ...fields,
  };
}

function answered(fields: Partial<AnsweredLine> = {}): AnsweredLine {
  return {
    v: 1,
    entry: '0mx0aaaa0001',
    event: 'answered',
    at: '2026-01-01T00:00:01.000Z',
    result: 'done',
    status: 200,
    id: 'e1',
    record: { id: 'e1', name: 'alpha' },
    error: null,
    ...fields,
  };
}

const sealed = async (line: SentLine | AnsweredLine) => {
  const text = sealLine(line, redact);
  expectNoKey(text, KEY, 'the line');
  return { text, line: (await parseExactJson(text)) as Record<string, unknown> };
};

/** Each text field of a line, with the line that holds `value` in it. */
const TEXT_FIELDS: [field: string, line: (value: string) => SentLine | AnsweredLine][] = [
  ['command', (value) => sent({ command: value })],
  ['profile', (value) => sent({ profile: value })],
  ['enterprise', (value) => sent({ enterprise: value })],
  ['actingAs', (value) => sent({ actingAs: value })],
  ['baseUrl', (value) => sent({ baseUrl: value })],
  ['environment.id', (value) => sent({ environment: { id: value, name: 'alpha' } })],
  ['environment.name', (value) => sent({ environment: { id: 'e1', name: value } })],
  ['request.method', (value) => sent({ request: { method: value, url: 'https://api.example/ms/Environments' } })],
  ['request.url', (value) => sent({ request: { method: 'DELETE', url: `https://api.example/ms/Environments/${value}` } })],
  ['restores', (value) => sent({ restores: value })],
  ['id', (value) => answered({ id: value })],
  ['error', (value) => answered({ result: 'failed', status: 404, record: null, error: `cannot delete environment '${value}': not found` })],
];

describe('sealLine', () => {
  for (const [spelling, text] of Object.entries(spellings(KEY))) {
    it(`masks a key ${spelling} in every text field, and names the field`, async () => {
      for (const [field, line] of TEXT_FIELDS) {
        const { line: kept } = await sealed(line(`x-${text}-y`));
        expect(kept.masked, field).toEqual([field]);
        expect(kept).not.toHaveProperty('withheld');
      }
    });

    it(`leaves out whole, never masked, the data that holds a key ${spelling}: a body, a text body, the record before, the record answered`, async () => {
      const value = `x-${text}-y`;
      for (const [what, line, withheld] of [
        [
          'a body value',
          sent({ request: { method: 'PUT', url: 'https://api.example/ms/Environments/e1', body: { id: 'e1', note: value } } }),
          'request body',
        ],
        [
          'a body field name',
          sent({ request: { method: 'PUT', url: 'https://api.example/ms/Environments/e1', body: { id: 'e1', [value]: 1 } } }),
          'request body',
        ],
        [
          'a text body',
          sent({ request: { method: 'POST', url: 'https://api.example/ms/Environments', text: `{"k":"${value}"}` } }),
          'request body',
        ],
        ['the record before', sent({ before: { id: 'e1', nested: { deep: [value] } } }), 'before'],
        ['a field name of the record before', sent({ before: { id: 'e1', [value]: true } }), 'before'],
        ['the record answered', answered({ record: { id: 'e1', echo: value } }), 'record'],
      ] as const) {
        const { text: sealedText, line: kept } = await sealed(line);
        expect(kept.withheld, what).toEqual([withheld]);
        expect(sealedText, what).not.toContain('***');
        if (withheld === 'request body')
          expect(kept.request, what).not.toHaveProperty(line.event === 'sent' && line.request.text ? 'text' : 'body');
        else expect(kept[withheld], what).toBeNull();
      }
    });
  }

  it('keeps a line without a key exactly as it was', async () => {
    for (const line of [sent(), answered()]) expect(sealLine(line, redact)).toBe(JSON.stringify(line));
  });

  it('keeps what a line already withheld, and adds to it', async () => {
    const { line } = await sealed(sent({ withheld: ['request body'], request: { method: 'PUT', url: 'u' }, before: { k: KEY } }));
    expect(line.withheld).toEqual(['request body', 'before']);
  });

  it('refuses a line whose key is spread over two fields: none holds it alone, the text does', () => {
    const secrets = new Secrets();
    const spread = 'abc","name":"defgh';
    secrets.add(spread);
    const line = sent({ environment: { id: 'xxabc', name: 'defgh' } });
    expect(() => sealLine(line, (text) => secrets.redactKept(text))).toThrow('a line held one of the keys in use in a way cip cannot mask');
  });
});
