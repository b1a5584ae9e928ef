// The operating system's keychain (macOS Keychain, Windows Credential Manager, Secret Service on Linux), as
// cip uses it: one entry per profile, service `cip:<origin of the base URL>`, account `<profile>`, holding
// both keys as JSON. The calls are made by a helper process (keychain-helper.ts), never in cip's own:
// @napi-rs/keyring blocks the thread that calls it (its "async" entries too: the Secret Service connection
// is opened in the constructor), and a worker thread stuck in native code keeps Node from exiting. A process
// can be killed, so a keychain that hangs costs cip at most KEYCHAIN_TIMEOUT_MS, like gh's 3 s. Keys go to
// the helper on its stdin and come back on its stdout, never through argv.
import { spawn } from 'node:child_process';
import { AuthError, CipError, InterruptedError, UsageError } from '../../errors.js';
import { nonEmpty, type Env } from '../../env.js';
import { printable } from '../../text/sanitize.js';
import { KINDS, type KeychainProfile } from '../store.js';
import { DEFAULT_BASE_URL } from '../validate.js';

/** How long one visit to the keychain (one helper process, which may make several calls) may take. */
export const KEYCHAIN_TIMEOUT_MS = 3_000;
/** The longest CIP_KEYCHAIN_TIMEOUT, in seconds: a keychain that needs more is not coming back. */
const MAX_KEYCHAIN_TIMEOUT_S = 600;

/**
 * The time-out of a visit: CIP_KEYCHAIN_TIMEOUT seconds (for a slow machine or a keychain that asks for a
 * password), else KEYCHAIN_TIMEOUT_MS.
 */
export function keychainTimeoutMs(env: Env): number {
  const text = env.CIP_KEYCHAIN_TIMEOUT?.trim();
  if (!text) return KEYCHAIN_TIMEOUT_MS;
  const seconds = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (!(seconds > 0 && seconds <= MAX_KEYCHAIN_TIMEOUT_S)) {
    throw new UsageError(
      `CIP_KEYCHAIN_TIMEOUT is '${printable(text)}'`,
      `give the seconds a visit to the keychain may take, more than 0 and at most ${MAX_KEYCHAIN_TIMEOUT_S}`,
    );
  }
  return Math.round(seconds * 1000);
}
/** The helper's answer is a few hundred bytes; more is not the helper talking. */
const MAX_ANSWER_CHARS = 1024 * 1024;

export interface KeychainEntry {
  service: string;
  account: string;
}

/**
 * What an entry holds: a profile's secrets by name, as JSON. Which names a profile has is its kind's
 * (config/store.ts, KINDS): {apiKey, subscriptionKey} or {token, subscriptionKey}.
 */
export type StoredKeys = Readonly<Record<string, string>>;

/** What the helper is asked to do, in order. */
export type Operation =
  ({ op: 'get' } & KeychainEntry) | ({ op: 'set'; secret: string } & KeychainEntry) | ({ op: 'delete' } & KeychainEntry);

/** What each operation gave: a value (null: no entry), whether something was deleted, or the keychain's error. */
export type Result = { ok: true; value?: string | null; deleted?: boolean } | { ok: false; error: string };

/** The helper's answer on stdout: a result for each operation, or why it could not try any. */
export interface Answer {
  results?: Result[];
  unavailable?: string;
}

/** The keychain did not answer, refused, or cannot be used here. Callers say what that means for them. */
export class KeychainError extends CipError {
  readonly reason: string;
  constructor(reason: string) {
    super('auth', `the keychain cannot be used: ${reason}`);
    this.reason = reason;
  }
}

export function keychainService(baseUrl: string): string {
  return `cip:${new URL(baseUrl).origin}`;
}

/** The entry that holds a profile's keys. */
export function profileEntry(name: string, profile: { baseUrl?: string | undefined }): KeychainEntry {
  return { service: keychainService(profile.baseUrl ?? DEFAULT_BASE_URL), account: name };
}

/** An entry, for messages. */
export function describeEntry(entry: KeychainEntry): string {
  return `service '${entry.service}', account '${entry.account}'`;
}

export interface KeychainOptions {
  /** Node, or the single executable, to run the helper with. */
  execPath: string;
  /**
   * The one argument that makes execPath the helper: the helper's file for Node, the helper mode of the single
   * executable (main.ts); undefined where there is none (then there is no keychain).
   */
  helper: string | undefined;
  env: Env;
  signal: AbortSignal;
  timeoutMs?: number;
}

export interface Keychain {
  /** Resolves if the keychain answers for this entry (whatever it holds); a KeychainError if not. */
  check(entry: KeychainEntry): Promise<void>;
  /** The keys held for each entry (undefined: no entry), in one visit. */
  read(entries: readonly KeychainEntry[]): Promise<(StoredKeys | undefined)[]>;
  /** Stores the keys and reads them back in the same visit: resolves only once the keychain holds them. */
  write(entry: KeychainEntry, keys: StoredKeys): Promise<void>;
  /** Removes an entry; false if there was none. */
  remove(entry: KeychainEntry): Promise<boolean>;
}

const entryKey = (entry: KeychainEntry) => `${entry.service}\n${entry.account}`;

/**
 * The keychain for one run of cip. Reads are remembered, and so is a keychain that failed to answer: a run
 * never waits for it twice.
 */
export function createKeychain(options: KeychainOptions): Keychain {
  const known = new Map<string, StoredKeys | undefined>();
  let broken: KeychainError | undefined;
  const visit = async (ops: Operation[]): Promise<Result[]> => {
    if (broken) throw broken;
    try {
      return await runHelper(options, ops);
    } catch (error) {
      if (error instanceof KeychainError) broken = error;
      throw error;
    }
  };
  const failed = (result: Result | undefined): KeychainError | undefined =>
    result?.ok === false
      ? new KeychainError(printable(result.error, 240))
      : result
        ? undefined
        : new KeychainError('the helper gave no answer');
  return {
    async check(entry) {
      const error = failed((await visit([{ op: 'get', ...entry }]))[0]);
      if (error) throw error;
    },
    async read(entries) {
      const missing = entries.filter((entry) => !known.has(entryKey(entry)));
      if (missing.length) {
        const results = await visit(missing.map((entry) => ({ op: 'get', ...entry })));
        missing.forEach((entry, index) => {
          const result = results[index];
          const error = failed(result);
          if (error) throw error;
          const value = (result as { value?: string | null }).value;
          known.set(entryKey(entry), value == null ? undefined : parseKeys(value, entry));
        });
      }
      return entries.map((entry) => known.get(entryKey(entry)));
    },
    async write(entry, keys) {
      const secret = JSON.stringify(keys);
      const [set, get] = await visit([
        { op: 'set', ...entry, secret },
        { op: 'get', ...entry },
      ]);
      const error = failed(set) ?? failed(get);
      if (error) throw error;
      if ((get as { value?: string | null }).value !== secret) throw new KeychainError('the keys read back are not the keys written');
      known.set(entryKey(entry), { ...keys });
    },
    async remove(entry) {
      const [result] = await visit([{ op: 'delete', ...entry }]);
      const error = failed(result);
      if (error) throw error;
      known.set(entryKey(entry), undefined);
      return (result as { deleted?: boolean }).deleted === true;
    },
  };
}

/** An entry's secrets: a JSON object whose strings are all the secrets of one kind of credential. */
function parseKeys(value: string, entry: KeychainEntry): StoredKeys {
  try {
    const parsed: unknown = JSON.parse(value);
    const fields = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
    const kind = Object.values(KINDS).find((candidate) => candidate.secrets.every((name) => typeof fields[name] === 'string'));
    if (kind) return Object.fromEntries(kind.secrets.map((name) => [name, fields[name] as string]));
  } catch {
    // Said below, without the value: it may be a key.
  }
  throw new KeychainError(`the entry (${describeEntry(entry)}) does not hold keys cip stored`);
}

/**
 * The environment for the helper: the user's (it needs the session bus), without cip's own variables (it has
 * no use for keys given there) and without NODE_EXTRA_CA_CERTS (it makes no TLS connection, and reading the
 * certificates would cost every visit tens of milliseconds).
 */
function helperEnv(env: Env): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (pair): pair is [string, string] =>
        pair[1] !== undefined && !pair[0].toUpperCase().startsWith('CIP_') && pair[0] !== 'NODE_EXTRA_CA_CERTS',
    ),
  );
}

/** One visit: starts the helper, hands it the operations, and kills it if it has not answered in time. */
function runHelper(options: KeychainOptions, ops: Operation[]): Promise<Result[]> {
  const { helper, signal } = options;
  if (helper === undefined) return Promise.reject(new KeychainError('this build of cip has no keychain helper'));
  if (signal.aborted) return Promise.reject(abortReason(signal));
  let timeoutMs: number;
  try {
    timeoutMs = options.timeoutMs ?? keychainTimeoutMs(options.env);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  return new Promise((resolve, reject) => {
    const child = spawn(options.execPath, [helper], { env: helperEnv(options.env), stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true });
    let answer = '';
    let settled = false;
    const settle = (error: Error | undefined, results?: Result[]) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (error) {
        child.kill('SIGKILL');
        reject(error);
      } else {
        resolve(results!);
      }
    };
    const timer = setTimeout(
      () => settle(new KeychainError(`it did not answer within ${timeoutMs / 1000} s (is it locked, or waiting for a prompt?)`)),
      timeoutMs,
    );
    const onAbort = () => settle(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error: NodeJS.ErrnoException) =>
      settle(new KeychainError(`cannot start the keychain helper (${error.code ?? error.message})`)),
    );
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      answer += chunk;
      if (answer.length > MAX_ANSWER_CHARS) settle(new KeychainError('the keychain helper said too much'));
    });
    child.on('close', (code) => {
      let parsed: Answer | undefined;
      try {
        parsed = JSON.parse(answer) as Answer;
      } catch {
        parsed = undefined;
      }
      if (parsed?.unavailable !== undefined) settle(new KeychainError(printable(parsed.unavailable, 240)));
      else if (Array.isArray(parsed?.results) && parsed.results.length === ops.length) settle(undefined, parsed.results);
      else settle(new KeychainError(`the keychain helper failed (exit ${code ?? 'by a signal'})`));
    });
    // A helper that dies before reading its request must not take cip down with an EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify({ ops }));
  });
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new InterruptedError();
}

/** Where `cip auth login` keeps keys, from CIP_CREDENTIAL_STORE: the keychain unless it says 'file'. */
export function credentialStore(env: Env): 'keychain' | 'file' {
  const value = nonEmpty(env.CIP_CREDENTIAL_STORE)?.trim();
  if (value === undefined || value === 'keychain') return 'keychain';
  if (value === 'file') return 'file';
  throw new UsageError(`CIP_CREDENTIAL_STORE is '${printable(value)}'`, "use 'keychain' (the default) or 'file'");
}

/** How to store a profile's keys again, for messages. */
export function loginAgain(name: string): string {
  return `log in again: cip auth login --profile ${name}`;
}

/** A keychain profile's keys; exit 3 when its entry is gone or the keychain cannot be read. */
export async function keychainKeys(keychain: Keychain, name: string, profile: KeychainProfile): Promise<StoredKeys> {
  const entry = profileEntry(name, profile);
  let keys: StoredKeys | undefined;
  try {
    [keys] = await keychain.read([entry]);
  } catch (error) {
    if (!(error instanceof KeychainError)) throw error;
    // What to do first; the keychain's own words (a D-Bus message on a server) last.
    throw new AuthError(
      `cannot read the keys of profile '${name}' from the keychain: unlock it and try again; where there is none, give CIP_API_KEY and CIP_SUBSCRIPTION_KEY, or log in with --insecure-storage`,
      `cause: ${error.reason}`,
    );
  }
  if (!keys) {
    throw new AuthError(`the keys of profile '${name}' are gone from the keychain (${describeEntry(entry)})`, loginAgain(name));
  }
  return keys;
}
