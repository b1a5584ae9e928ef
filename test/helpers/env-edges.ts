import type { SandboxSetup } from './fixture.js';

export const LIST = 'GET /ms/Environments';

export const BY_ID = (id: string) => `GET /ms/Environments/${id}`;

export const EDGES_SANDBOX: SandboxSetup = {
  seed: [
    { id: 'e1', name: 'alpha', type: 'Test' },
    { id: 'e2', name: 'beta' },
  ],
};
