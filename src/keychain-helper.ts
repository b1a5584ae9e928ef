// The keychain helper: a process of its own that makes cip's keychain calls with @napi-rs/keyring, so that
// cip can kill it when the keychain does not answer (config/store/keychain.ts says why a process). It reads one
// request on stdin ({ ops: [...] }, JSON) and writes one answer on stdout. It never prints a key anywhere
// else, and takes nothing from argv. What it does with the request is config/store/keychain-ops.ts; this is the
// process around it.
import { readRequest, respond } from './config/store/keychain-ops.js';

void respond(
  () => readRequest(process.stdin),
  () => import('@napi-rs/keyring'),
).then((output) => process.stdout.write(output));
