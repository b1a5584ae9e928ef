// For `cip api` with a URL of another origin: where the other server is, and the hint that nothing was sent.
import { type Sandbox } from '../../src/sandbox/index.js';

export const hint = '(nothing was sent: the keys go only to the base URL)';

export const otherHost = (elsewhere: Sandbox) => `127.0.0.1:${elsewhere.port}`;
