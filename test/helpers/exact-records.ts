// Records with what a JSON round trip would change (a number past 2^64, a tab in a string), for tests that pin
// the exact bytes cip passes on.
import type { SandboxSetup } from './fixture.js';

export const EXACT_RECORDS_SANDBOX: SandboxSetup = {
  records: [
    '{"id":"e1","name":"alpha","big":12345678901234567890,"note":"tab\\there","settings":{"retention":30}}',
    '{"id":"e2","name":"beta"}',
  ],
};
