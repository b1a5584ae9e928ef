// node:https with the test CA trusted in-process, as NODE_EXTRA_CA_CERTS makes the binary trust it (Node reads that
// variable only when a process starts). A test file mocks node:https with it and sets `trust.ca`:
//   const trust = vi.hoisted(() => ({ ca: undefined as string | undefined }));
//   vi.mock('node:https', async (real) => (await import('../helpers/trusted-ca.js')).httpsTrusting(await real(), trust));
// Only types are imported here: this module loads inside the mock of node:https.
import type * as https from 'node:https';

export function httpsTrusting(real: typeof https, trust: { ca: string | undefined }): typeof https {
  class Agent extends real.Agent {
    constructor(options?: https.AgentOptions) {
      super(trust.ca ? { ...options, ca: trust.ca } : options);
    }
  }
  return { ...real, Agent, default: { ...real, Agent } } as typeof https;
}
