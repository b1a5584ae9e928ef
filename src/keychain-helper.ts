// The keychain helper: a process of its own that makes cip's keychain calls with @napi-rs/keyring, so that
// cip can kill it when the keychain does not answer (config/keychain.ts says why a process). It reads one
// request on stdin ({ ops: [...] }, JSON) and writes one answer on stdout. It never prints a key anywhere
// else, and takes nothing from argv.
import type { Answer, Operation, Result } from './config/keychain.js';

type Keyring = typeof import('@napi-rs/keyring');

// On Linux the library falls back to the kernel keyring when there is no Secret Service: keys kept there go
// at logout or reboot, and no user would know where they went. cip wants a real keychain or none.
const OPTIONS = { linux: { store: 'secret-service' as const } };

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

function perform(keyring: Keyring, operation: Operation): Result {
  try {
    const entry = new keyring.Entry(operation.service, operation.account, OPTIONS);
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

async function readRequest(): Promise<{ ops: Operation[] }> {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk as string;
  return JSON.parse(text) as { ops: Operation[] };
}

async function answer(): Promise<Answer> {
  const { ops } = await readRequest();
  let keyring: Keyring;
  try {
    keyring = await import('@napi-rs/keyring');
  } catch (error) {
    // A platform without a prebuilt binary, or an install without optional dependencies.
    return { unavailable: `the keychain module @napi-rs/keyring cannot be loaded here (${describe(error)})` };
  }
  return { results: ops.map((operation) => perform(keyring, operation)) };
}

answer().then(
  (result) => process.stdout.write(JSON.stringify(result)),
  // Only the error's name: a message about the request could quote it, and the request may hold keys.
  (error: unknown) =>
    process.stdout.write(JSON.stringify({ unavailable: `the keychain helper failed (${error instanceof Error ? error.name : 'error'})` })),
);
