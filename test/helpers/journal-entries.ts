// Journal entries as `env history --json` lists them, the record they start from, and a record without the
// fields the server sets, for the journal's tests and `env restore`'s.
import { join } from 'node:path';
import { expect } from 'vitest';
import { parseExactJson, stringifyExactJson } from '../../src/json/exact.js';
import { type Run } from './journal.js';
import type { SandboxSetup } from './fixture.js';
import type { Sandbox } from '../../src/sandbox/index.js';

export const ALPHA =
  '{"id":"e1","name":"alpha","price":12345678901234567890.000,"ratio":1.50,"big":1e400,"nested":{"deep":{"list":[1,{"x":null}],"empty":{}}},"title":"Größe 漢字 🚀","quote":"a\\"b\\\\c\\n\\u0001","flag":false,"createdAt":"2020-01-01T00:00:00Z","updatedAt":"2021-01-01T00:00:00Z"}';

export const journalFile = (configDir: string) => join(configDir, 'journal.jsonl');

export interface Entry {
  entry: string;
  command: string;
  action: string;
  result: string;
  environment: { id: string | null; name: string | null };
  request: { method: string; url: string; body?: unknown; text?: string };
  before: unknown;
  answeredId: string | null;
  status: number | null;
  restores?: string;
  error: string | null;
  /** The record a write sent or received, as the journal keeps it. */
  record?: unknown;
  /** What the journal left out, or masked, because it held a key. */
  withheld?: string[];
  masked?: string[];
}

export async function history(run: Run, args: string[] = []): Promise<Entry[]> {
  const result = await run(['env', 'history', '--json', ...args]);
  expect(result.exitCode).toBe(0);
  return (await parseExactJson(result.stdout)) as Entry[];
}

export async function withoutServerFields(record: unknown): Promise<string> {
  const copy = (await parseExactJson(stringifyExactJson(record))) as Record<string, unknown>;
  for (const field of ['id', 'createdAt', 'updatedAt']) Reflect.deleteProperty(copy, field);
  return stringifyExactJson(copy);
}

export const JOURNAL_SANDBOX: SandboxSetup = { records: [ALPHA, '{"id":"e2","name":"beta","description":"second","tags":["a"]}'] };

/** The server answers the next create with this JSON text, whatever it was sent. */
export function answerCreateWith(sandbox: Sandbox, body: string): void {
  sandbox.inject({ fault: { kind: 'status', status: 201, body, headers: { 'content-type': 'application/json' } }, method: 'POST' });
}
