// An environments file for `env export`, `diff` and `apply` (environments as code): the records the server
// starts with, the file, and the note about a record the file leaves out.
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
