// What a sandbox received, in the shapes tests compare: its writes, and each request as `METHOD /path`.
import type { RecordedRequest, Sandbox } from '../../src/sandbox/index.js';

/** The requests that were not reads. */
export function writes(sandbox: Pick<Sandbox, 'requests'>): RecordedRequest[] {
  return sandbox.requests.filter((request) => request.method !== 'GET');
}

/** Each request as `METHOD /path?query`. */
export function sent(sandbox: Pick<Sandbox, 'requests'>): string[] {
  return sandbox.requests.map((request) => `${request.method} ${request.url}`);
}
