// The fault matrix: every operation (GET list, POST create, PUT update, DELETE) against every fault the
// network or the gateway can throw at it, with the fault injected on every attempt. Each cell states, as data,
// the exit code and the number of requests the retry policy in src/api/http.ts implies:
//   - GET/PUT/DELETE are retried twice (3 attempts) on 408/429/500/502/503/504 and on network errors, a body cut
//     off mid-way included; POST is never retried; a time-out is never retried; a redirect is never followed;
//   - exit 6 for 408/429 (other 4xx), 7 for 5xx / a broken answer / a redirect, 8 for network errors and time-outs;
//   - DELETE ignores the answer's body; GET needs a list, so an empty body is exit 7.
// Every case runs on its own sandbox with a profile in its own config dir, and checks that the failure is one
// clean `error:` line without secrets and that the config was left exactly as it was.
import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { type Fault, type Sandbox } from '../../src/sandbox/index.js';
import { expectOneErrorLine, tempDir } from '../helpers/cli.js';
import { it } from '../helpers/fixture.js';
import { sandboxProfile } from '../helpers/stored-profiles.js';

type Operation = 'GET' | 'POST' | 'PUT' | 'DELETE';

type FaultName =
  | '500'
  | '502'
  | '503'
  | '503 Retry-After: 1'
  | '429 Retry-After: 1'
  | '408'
  | 'timeout'
  | 'reset before the answer'
  | 'reset mid-body'
  | 'truncated JSON'
  | 'non-JSON 200'
  | 'HTML error page'
  | 'empty 200'
  | 'redirect'
  | 'answer lost once'
  | 'HTTP status 600'
  | 'reason phrase 已完成';

interface Outcome {
  exitCode: number;
  /** Requests the sandbox sees with the operation's method. */
  requests: number;
}

const OPERATIONS: readonly Operation[] = ['GET', 'POST', 'PUT', 'DELETE'];

const HTML_PAGE =
  '<!DOCTYPE html><html><head><title>Bad gateway</title></head><body><h1>502</h1><p>The gateway could not reach the service.</p></body></html>';

/** The fault to inject; `redirectTo` is the second sandbox's URL, only used by the redirect. */
const FAULTS: Record<FaultName, (redirectTo: string) => Fault> = {
  '500': () => ({ kind: 'status', status: 500, body: '{"message":"database unavailable"}' }),
  '502': () => ({ kind: 'status', status: 502, body: '{"statusCode":502,"message":"Bad gateway"}' }),
  '503': () => ({ kind: 'status', status: 503, body: 'Service Unavailable' }),
  '503 Retry-After: 1': () => ({ kind: 'status', status: 503, body: 'Service Unavailable', headers: { 'Retry-After': '1' } }),
  '429 Retry-After: 1': () => ({
    kind: 'status',
    status: 429,
    body: '{"statusCode":429,"message":"Rate limit is exceeded. Try again in 1 seconds."}',
    headers: { 'Retry-After': '1' },
  }),
  '408': () => ({ kind: 'status', status: 408, body: '{"statusCode":408,"message":"Request timeout"}' }),
  // Never answered: the client's own --timeout is the only clock, however slow the machine.
  timeout: () => ({ kind: 'hold', release: new Promise(() => undefined) }),
  'reset before the answer': () => ({ kind: 'reset-before' }),
  'reset mid-body': () => ({ kind: 'reset-mid-body' }),
  'truncated JSON': () => ({ kind: 'invalid-json' }),
  'non-JSON 200': () => ({ kind: 'status', status: 200, body: 'not json', headers: { 'Content-Type': 'application/json' } }),
  'HTML error page': () => ({ kind: 'status', status: 502, body: HTML_PAGE, headers: { 'Content-Type': 'text/html' } }),
  'empty 200': () => ({ kind: 'status', status: 200 }),
  redirect: (redirectTo) => ({ kind: 'status', status: 302, headers: { Location: redirectTo } }),
  'answer lost once': () => ({ kind: 'reset-after' }),
  'HTTP status 600': () => ({ kind: 'status', status: 600, body: '{}' }),
  // node:http refuses to send this status line, so it goes out as raw bytes.
  'reason phrase 已完成': () => ({ kind: 'raw', response: 'HTTP/1.1 204 已完成\r\nConnection: close\r\n\r\n' }),
};

/** Faults injected on the first matching request only; the others hit every attempt. */
const FIRST_ATTEMPT_ONLY: ReadonlySet<FaultName> = new Set(['answer lost once']);

// Shorthands for the table: retried (3 attempts) for GET/PUT/DELETE, a single attempt for POST.
const retried = (exitCode: number): Record<Operation, Outcome> => ({
  GET: { exitCode, requests: 3 },
  POST: { exitCode, requests: 1 },
  PUT: { exitCode, requests: 3 },
  DELETE: { exitCode, requests: 3 },
});

const once = (GET: number, POST: number, PUT: number, DELETE: number): Record<Operation, Outcome> => ({
  GET: { exitCode: GET, requests: 1 },
  POST: { exitCode: POST, requests: 1 },
  PUT: { exitCode: PUT, requests: 1 },
  DELETE: { exitCode: DELETE, requests: 1 },
});

/** operation × fault → expected outcome. */
const EXPECTED: Record<FaultName, Record<Operation, Outcome>> = {
  '500': retried(7),
  '502': retried(7),
  '503': retried(7),
  '503 Retry-After: 1': retried(7),
  '429 Retry-After: 1': retried(6),
  '408': retried(6),
  // ky does not retry a time-out.
  timeout: once(8, 8, 8, 8),
  'reset before the answer': retried(8),
  // The body is read inside fetch (DELETE's too, even though it is then ignored), so a cut-off body is a
  // network error and retried like one.
  'reset mid-body': retried(8),
  // A 200 is never retried; GET/POST/PUT parse the body, DELETE ignores it.
  'truncated JSON': once(7, 7, 7, 0),
  'non-JSON 200': once(7, 7, 7, 0),
  'HTML error page': retried(7),
  // An empty list answer breaks the API's promise; an empty create/update answer prints nothing and succeeds.
  'empty 200': once(7, 0, 0, 0),
  redirect: once(7, 7, 7, 7),
  // The first attempt is carried out and its answer lost. GET and PUT are retried and succeed; a DELETE's
  // retry finds nothing (404), which means done; a POST is never retried: exit 8, and the hint says it may exist.
  'answer lost once': {
    GET: { exitCode: 0, requests: 2 },
    POST: { exitCode: 8, requests: 1 },
    PUT: { exitCode: 0, requests: 2 },
    DELETE: { exitCode: 0, requests: 2 },
  },
  // A status no server may send is a broken answer, never retried.
  'HTTP status 600': once(7, 7, 7, 7),
  // The reason phrase means nothing: a 204 is a 204 (and an empty list answer is broken, as for 'empty 200').
  'reason phrase 已完成': once(7, 0, 0, 0),
};

const FAULT_NAMES = Object.keys(EXPECTED) as FaultName[];

// Control characters other than the newline that ends each line.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

const OLD_TIME = new Date('2020-01-02T03:04:05Z');

function writeProfile(sandbox: Sandbox): { dir: string; path: string } {
  const dir = tempDir('cip-faults-');
  const path = join(dir, 'config.json');
  const profile = sandboxProfile(sandbox);
  writeFileSync(path, `${JSON.stringify({ activeProfile: 'p', profiles: { p: profile } }, null, 2)}\n`, { mode: 0o600 });
  // An mtime far in the past, so any rewrite shows even within the file system's time resolution.
  utimesSync(path, OLD_TIME, OLD_TIME);
  return { dir, path };
}

function argsFor(operation: Operation, id: string, timeout: boolean): string[] {
  const args: Record<Operation, string[]> = {
    GET: ['env', 'list'],
    POST: ['env', 'create', '-f', 'name=x'],
    PUT: ['env', 'update', id, '-f', 'name=y'],
    DELETE: ['env', 'delete', id, '--yes'],
  };
  return timeout ? [...args[operation], '--timeout', '0.5'] : args[operation];
}

describe.concurrent('fault matrix', () => {
  for (const operation of OPERATIONS) {
    for (const faultName of FAULT_NAMES) {
      const expected = EXPECTED[faultName][operation];
      const outcome = expected.exitCode === 0 ? 'exit 0' : `exit ${expected.exitCode}`;
      it(`${operation} × ${faultName}: ${outcome} after ${expected.requests} request${expected.requests === 1 ? '' : 's'}`, async ({
        cip,
        startSandbox,
      }) => {
        const sandbox = await startSandbox({ seed: 1 });
        const elsewhere = await startSandbox({ seed: 1 });
        try {
          const [id] = sandbox.environments.keys();
          const redirectTo = `${elsewhere.url}/Environments${operation === 'PUT' || operation === 'DELETE' ? `/${id!}` : ''}`;
          sandbox.inject({
            fault: FAULTS[faultName](redirectTo),
            method: operation,
            times: FIRST_ATTEMPT_ONLY.has(faultName) ? 1 : Infinity,
          });

          const { dir, path } = writeProfile(sandbox);
          const bytesBefore = readFileSync(path);
          const statBefore = statSync(path);
          const filesBefore = readdirSync(dir).sort();

          const result = await cip(argsFor(operation, id!, faultName === 'timeout'), { configDir: dir });

          expect({ exitCode: result.exitCode, stderr: result.stderr }).toEqual({ exitCode: expected.exitCode, stderr: expect.any(String) });
          if (expected.exitCode === 0) {
            expect(result.stderr).not.toMatch(/^error:/m);
            // Data or nothing: the record (or list) when the API sent one.
            if (result.stdout !== '') expect(() => JSON.parse(result.stdout)).not.toThrow();
          } else {
            expectOneErrorLine(result.stderr);
            // A delete reports its one result as data; anything else prints nothing.
            if (operation === 'DELETE')
              expect(JSON.parse(result.stdout)).toMatchObject([{ id, result: 'failed', error: expect.any(String) }]);
            else expect(result.stdout).toBe('');
          }
          expect(result.stderr).not.toMatch(CONTROL);
          for (const secret of [sandbox.keys.apiKey, sandbox.keys.subscriptionKey]) {
            expect(result.stderr).not.toContain(secret);
            expect(result.stdout).not.toContain(secret);
          }

          expect(sandbox.requests.filter((request) => request.method === operation)).toHaveLength(expected.requests);
          // update and delete first read the list once, to find the environment by id or name; update then asks
          // for the environment by id, for a validator of its own (the sandbox has no read by id: 405).
          const lookup = operation === 'PUT' ? ['GET', 'GET'] : operation === 'DELETE' ? ['GET'] : [];
          // A PUT retried after its lost answer carries the list's ETag, which the first attempt made stale: the
          // API answers 412, and cip reads the list again to see that the change it sent is there.
          const recheck = operation === 'PUT' && faultName === 'answer lost once' ? ['GET'] : [];
          expect(sandbox.requests.map((request) => request.method)).toEqual([
            ...lookup,
            ...Array<string>(expected.requests).fill(operation),
            ...recheck,
          ]);
          expect(elsewhere.requests).toHaveLength(0);

          expect(readFileSync(path).equals(bytesBefore)).toBe(true);
          const statAfter = statSync(path);
          expect(statAfter.mtimeMs).toBe(statBefore.mtimeMs);
          expect(statAfter.mode & 0o777).toBe(0o600);
          // A write adds its journal entry, and leaves nothing else behind (no lock, no temporary file).
          expect(readdirSync(dir).sort()).toEqual(operation === 'GET' ? filesBefore : [...filesBefore, 'journal.jsonl'].sort());
        } finally {
          await Promise.all([sandbox.close(), elsewhere.close()]);
        }
      });
    }
  }
});
