// A record wider than the terminal, and the escape character, for what the env verbs print at a terminal.
import type { SandboxSetup } from './fixture.js';

export const ID = '7d1c0b2e-4f3a-4b5c-8d6e-9f0a1b2c3d4e';

export const WIDE = { id: ID, name: 'wide', description: 'd'.repeat(50), owner: 'o'.repeat(50), region: 'r'.repeat(50) };

export const ESC = '\u001b';

export const WIDE_SANDBOX: SandboxSetup = { seed: [WIDE] };
