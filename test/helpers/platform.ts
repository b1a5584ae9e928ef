import type { SandboxSetup } from './fixture.js';

export const PLATFORM_SANDBOX: SandboxSetup = {
  records: [
    '{"id":"e1","name":"alpha","big":12345678901234567890,"note":"tab\\there","settings":{"retention":30}}',
    '{"id":"e2","name":"beta"}',
  ],
};
