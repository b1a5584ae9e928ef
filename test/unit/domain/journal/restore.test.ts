// Restore planning (domain/journal/restore.ts) on entries built by hand: which entry an argument names, where
// an environment went after re-creations, and what counts as a change since the entry.
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../../src/domain/journal/entry.js';
import { findEntry, idNow, planRestore } from '../../../../src/domain/journal/restore.js';

function entry(fields: Partial<JournalEntry> & Pick<JournalEntry, 'entry' | 'action'>): JournalEntry {
  return {
    at: '2026-01-01T00:00:00.000Z',
    command: `env ${fields.action}`,
    profile: null,
    enterprise: 'e',
    actingAs: 'enterprise e',
    baseUrl: 'https://api.example/ms',
    environment: { id: null, name: null },
    request: { method: 'POST', url: 'https://api.example/ms/Environments' },
    before: null,
    result: 'done',
    answeredAt: null,
    status: null,
    answeredId: null,
    record: null,
    error: null,
    ...fields,
  };
}

describe('findEntry', () => {
  const entries = [entry({ entry: '0mwxaaaa0001', action: 'create' }), entry({ entry: '0mwxaaab0002', action: 'create' })];

  it('takes the whole id, or a start of it that names one entry', () => {
    expect(findEntry(entries, '0mwxaaab0002').entry).toBe('0mwxaaab0002');
    expect(findEntry(entries, '0mwxaaab').entry).toBe('0mwxaaab0002');
    expect(findEntry(entries, ' 0mwxaaaa0001 ').entry).toBe('0mwxaaaa0001');
  });

  it('refuses a start two entries share (exit 2), and one shorter than 4 characters is no match (exit 5)', () => {
    expect(() => findEntry(entries, '0mwxaaa')).toThrow(
      expect.objectContaining({ exitCode: 2, message: "'0mwxaaa' is the start of 2 journal entries" }),
    );
    expect(() => findEntry(entries, '0mw')).toThrow(expect.objectContaining({ exitCode: 5 }));
    expect(() => findEntry(entries, '')).toThrow(expect.objectContaining({ exitCode: 5 }));
  });
});

describe('idNow', () => {
  const deleted = (id: string, at: string) => entry({ entry: at, action: 'delete', environment: { id, name: 'x' } });
  const recreated = (of: string, newId: string, at: string) =>
    entry({ entry: at, action: 'create', command: 'env restore', restores: of, answeredId: newId });

  it('follows re-creations to the latest id, and stops at a loop', () => {
    const entries = [deleted('a', '1'), recreated('1', 'b', '2'), deleted('b', '3'), recreated('3', 'c', '4')];
    expect(idNow(entries, 'a')).toBe('c');
    expect(idNow(entries, 'z')).toBe('z');
    const loop = [deleted('a', '1'), recreated('1', 'b', '2'), deleted('b', '3'), recreated('3', 'a', '4')];
    expect(['a', 'b']).toContain(idNow(loop, 'a'));
  });

  it('ignores a re-creation that failed', () => {
    expect(idNow([deleted('a', '1'), { ...recreated('1', 'b', '2'), result: 'failed' }], 'a')).toBe('a');
  });
});

describe('planRestore', () => {
  it("never sends an item's @odata.etag back as a field, whether it re-creates or writes back an update", () => {
    const gone = entry({
      entry: '1',
      action: 'delete',
      environment: { id: 'a', name: 'x' },
      before: { '@odata.etag': '"e1"', id: 'a', name: 'x' },
    });
    expect(planRestore(gone, [])).toMatchObject({ kind: 'recreate', body: { name: 'x' } });
    expect(Object.keys((planRestore(gone, []) as { body: object }).body)).toEqual(['name']);
    const changed = entry({
      entry: '2',
      action: 'update',
      environment: { id: 'a', name: 'x' },
      before: { '@odata.etag': '"e1"', id: 'a', name: 'x', description: 'old' },
      request: { method: 'PUT', url: 'u', body: { id: 'a', name: 'x', description: 'new' } },
    });
    const plan = planRestore(changed, [{ '@odata.etag': '"e2"', id: 'a', name: 'x', description: 'new' }]);
    expect(plan).toMatchObject({ kind: 'revert', body: { id: 'a', name: 'x', description: 'old' } });
    expect(Object.keys((plan as { body: object }).body)).toEqual(['id', 'name', 'description']);
  });

  it('a delete: the record without the server-owned fields in any letter case; one with that name again is a change', () => {
    const gone = entry({
      entry: '1',
      action: 'delete',
      environment: { id: 'a', name: 'x' },
      before: { Id: 'a', name: 'x', CreatedAt: 't', updatedat: 't', keep: 1 },
    });
    expect(planRestore(gone, [])).toEqual({ kind: 'recreate', oldId: 'a', name: 'x', body: { name: 'x', keep: 1 }, drift: undefined });
    expect(planRestore(gone, [{ id: 'other', name: 'x' }]).drift).toBe("an environment 'x' (other) exists again");
  });

  it('a create: only the fields it set are compared (the server may add its own)', () => {
    const made = entry({ entry: '1', action: 'create', answeredId: 'n', request: { method: 'POST', url: 'u', body: { name: 'x' } } });
    expect(planRestore(made, [{ id: 'n', name: 'x', addedByServer: true }])).toEqual({
      kind: 'remove',
      id: 'n',
      name: 'x',
      drift: undefined,
    });
    expect(planRestore(made, [{ id: 'n', name: 'renamed' }]).drift).toBe('name changed since');
    expect(() => planRestore(made, [])).toThrow(expect.objectContaining({ exitCode: 5 }));
  });
});
