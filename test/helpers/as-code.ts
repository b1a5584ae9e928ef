// What the tests of one theme share, in the files of the verbs and promises they test. The theme:
// Edges of env export, diff and apply, in-process against the sandbox: the exact plan and result lines, the JSON
// results of every kind of change (created ids, failures, an interrupt), what stdout gets when nothing changes,
// the confirmation, a missing --file, and what a person at a terminal sees while the work runs (the spinner).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './cli.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import type { SandboxSetup } from './fixture.js';

export const SEED = [
  '{"id":"a1","name":"alpha","type":"Test","createdAt":"2024-01-01T00:00:00Z"}',
  '{"id":"b2","name":"beta","type":"Production","isActive":true}',
];

export const UNLISTED = '1 environment on the server is not in the file and left alone; --prune would delete it.\n';

export function file(text: string): string {
  const path = join(tempDir(), 'environments.yaml');
  writeFileSync(path, text);
  return path;
}

export const idOfName = (sandbox: Sandbox, name: string) => [...sandbox.environments.values()].find((record) => record.name === name)?.id;

export const AS_CODE_SANDBOX: SandboxSetup = { records: SEED };
