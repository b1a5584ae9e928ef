import { type Sandbox } from '../../src/sandbox/index.js';

export const hint = '(nothing was sent: the keys go only to the base URL)';

export const otherHost = (elsewhere: Sandbox) => `127.0.0.1:${elsewhere.port}`;
