// Environments found by name: an exact record, a name in another case, two of one name, an id that is another's
// name; and the reads the server received.
import { type Sandbox } from '../../src/sandbox/index.js';
import type { SandboxSetup } from './fixture.js';

export const STAGING_JSON =
  '{"id":"e1","name":"staging","displayName":"Staging","description":"pre-production","type":"Staging","isActive":true,' +
  '"region":"westeurope","tags":["a","b"],"settings":{"retention":30,"logLevel":"Warning"},"quota":12345678901234567890,"ratio":1.50}';

export const reads = (sandbox: Sandbox) => sandbox.requests.filter((request) => request.method === 'GET');

export const readPaths = (sandbox: Sandbox) => reads(sandbox).map((request) => request.url);

export const NAMED_SANDBOX: SandboxSetup = {
  records: [
    STAGING_JSON,
    '{"id":"e2","name":"prod","type":"Production"}',
    '{"id":"e3","Name":"Review","type":"Test"}',
    '{"id":"e4","name":"dup"}',
    '{"id":"e5","name":"dup"}',
    '{"id":"staging-id-is-a-name","name":"e2"}',
  ],
};
