// Two seeded environments (alpha, beta) and the request lines that read them, for the env verbs' tests.
import type { SandboxSetup } from './fixture.js';

export const LIST = 'GET /ms/Environments';

export const BY_ID = (id: string) => `GET /ms/Environments/${id}`;

export const TWO_ENVIRONMENTS_SANDBOX: SandboxSetup = {
  seed: [
    { id: 'e1', name: 'alpha', type: 'Test' },
    { id: 'e2', name: 'beta' },
  ],
};
