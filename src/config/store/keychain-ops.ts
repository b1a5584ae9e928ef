// What the keychain helper (keychain-helper.ts, a process of its own) does with a request, apart from the
// process: read the request from a stream, make each call on the keyring, and say what came of it as one JSON
// answer. The keyring is handed in (the helper loads @napi-rs/keyring), so tests can give a stand-in.
import type { Answer, Operation, Result } from './keychain.js';

/** The part of @napi-rs/keyring's `Entry` that the helper uses. */
export interface KeyringEntry {
  getPassword(): string | null;
  setPassword(password: string): void;
  deletePassword(): boolean;
}

// On Linux the library falls back to the kernel keyring when there is no Secret Service: keys kept there go
// at logout or reboot, and no user would know where they went. cip wants a real keychain or none.
export const ENTRY_OPTIONS = { linux: { store: 'secret-service' as const } };

/** The part of @napi-rs/keyring that the helper uses. */
export interface Keyring {
  Entry: new (service: string, account: string, options: typeof ENTRY_OPTIONS) => KeyringEntry;
}

/** An error's first line: the keyring's messages can run on, and the answer is one JSON line. */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

/** Makes one call on the keyring; a keyring that throws gives `ok: false` with the error's first line. */
export function perform(keyring: Keyring, operation: Operation): Result {
  try {
    const entry = new keyring.Entry(operation.service, operation.account, ENTRY_OPTIONS);
    switch (operation.op) {
      case 'get':
        return { ok: true, value: entry.getPassword() };
      case 'set':
        entry.setPassword(operation.secret);
        return { ok: true };
      case 'delete':
        return { ok: true, deleted: entry.deletePassword() };
    }
  } catch (error) {
    return { ok: false, error: describe(error) };
  }
}

/** The request, read to its end from a stream (the helper's stdin) as UTF-8. */
export async function readRequest(input: NodeJS.ReadableStream): Promise<{ ops: Operation[] }> {
  let text = '';
  input.setEncoding('utf8');
  for await (const chunk of input) text += chunk as string;
  return JSON.parse(text) as { ops: Operation[] };
}

/** Reads the request, then loads the keyring and makes each call; a keyring that cannot load makes none. */
export async function answer(request: () => Promise<{ ops: Operation[] }>, loadKeyring: () => Promise<Keyring>): Promise<Answer> {
  const { ops } = await request();
  let keyring: Keyring;
  try {
    keyring = await loadKeyring();
  } catch (error) {
    // A platform without a prebuilt binary, or an install without optional dependencies.
    return { unavailable: `the keychain module @napi-rs/keyring cannot be loaded here (${describe(error)})` };
  }
  return { results: ops.map((operation) => perform(keyring, operation)) };
}

/** The helper's whole output: the answer as JSON, or, if anything failed, why, without quoting the request. */
export function respond(request: () => Promise<{ ops: Operation[] }>, loadKeyring: () => Promise<Keyring>): Promise<string> {
  return answer(request, loadKeyring).then(
    (result) => JSON.stringify(result),
    // Only the error's name: a message about the request could quote it, and the request may hold keys.
    (error: unknown) => JSON.stringify({ unavailable: `the keychain helper failed (${error instanceof Error ? error.name : 'error'})` }),
  );
}
