// A real keychain for tests: a private D-Bus session bus with gnome-keyring's Secret Service on it, unlocked,
// its files in a temporary HOME (so the machine's own keyring is never touched). And a bus that never
// answers, for the time-out. Linux only; where the programs are missing, `keychainMissing` says what to install.
import { once } from 'node:events';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ROOT, tempDir } from './cli.js';

function installed(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

/** Why the keychain tests cannot run here, or undefined when they can. */
export const keychainMissing: string | undefined =
  process.platform !== 'linux'
    ? 'the keychain tests use the Secret Service, on Linux'
    : !existsSync(join(ROOT, 'node_modules', '@napi-rs', 'keyring'))
      ? '@napi-rs/keyring is not installed (npm install without optional dependencies?)'
      : ['dbus-run-session', 'dbus-send', 'gnome-keyring-daemon', 'secret-tool'].some((program) => !installed(program))
        ? 'needs dbus-run-session, dbus-send, gnome-keyring-daemon and secret-tool: apt-get install dbus-daemon dbus-bin gnome-keyring libsecret-tools'
        : undefined;

export interface TestKeychain {
  /** The variables a process needs to reach this keychain (and only this one). */
  env: Record<string, string>;
  /** What the keychain holds for an entry, asked with secret-tool (not cip's code): undefined if nothing. */
  lookup(service: string, account: string): string | undefined;
  /** Removes an entry behind cip's back, as another program or the user might. */
  clear(service: string, account: string): void;
  close(): Promise<void>;
}

export async function startKeychain(): Promise<TestKeychain> {
  const home = tempDir('cip-keychain-');
  const runtime = join(home, 'run');
  mkdirSync(runtime, { mode: 0o700 });
  const base = { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_RUNTIME_DIR: runtime };
  // dbus-run-session runs the daemon with a bus of its own; the daemon reads the keyring password on stdin.
  const session: ChildProcess = spawn(
    'dbus-run-session',
    ['--', 'sh', '-c', 'echo "BUS=$DBUS_SESSION_BUS_ADDRESS"; exec gnome-keyring-daemon --foreground --unlock --components=secrets'],
    { env: base, stdio: ['pipe', 'pipe', 'ignore'], detached: true },
  );
  session.stdin!.end('test-password');
  const address = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the test keychain did not start: ${out}`)), 10_000);
    session.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const bus = /^BUS=(.+)$/m.exec(out)?.[1];
      if (bus) {
        clearTimeout(timer);
        resolve(bus);
      }
    });
    session.once('exit', () => reject(new Error(`the test keychain exited: ${out}`)));
  });
  // A busy machine can take more than cip's 3 s to start the helper and reach the bus: the limit is for hangs.
  const env = { ...base, DBUS_SESSION_BUS_ADDRESS: address, CIP_KEYCHAIN_TIMEOUT: '60' };
  const secretTool = (args: string[]) => spawnSync('secret-tool', args, { env, encoding: 'utf8', timeout: 10_000 });
  // The daemon takes its bus name a moment after it starts. Asking the Secret Service before would have the
  // bus start another daemon (locked) from its .service file: ask the bus whether the name is taken instead.
  const hasOwner = () =>
    spawnSync(
      'dbus-send',
      [
        '--session',
        '--print-reply',
        '--dest=org.freedesktop.DBus',
        '/org/freedesktop/DBus',
        'org.freedesktop.DBus.NameHasOwner',
        'string:org.freedesktop.secrets',
      ],
      { env, encoding: 'utf8', timeout: 5_000 },
    ).stdout.includes('boolean true');
  for (let tries = 0; !hasOwner(); tries++) {
    if (tries > 100) throw new Error('the test keychain does not answer');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    env,
    lookup(service, account) {
      const result = secretTool(['lookup', 'service', service, 'username', account]);
      return result.status === 0 ? result.stdout : undefined;
    },
    clear(service, account) {
      secretTool(['clear', 'service', service, 'username', account]);
    },
    async close() {
      // The whole session: dbus-run-session, its bus and the keyring daemon (started in a group of their own).
      // Its files go once dbus-run-session has exited (it waits for what it ran), not after a guessed pause.
      const exited = session.exitCode !== null || session.signalCode !== null ? Promise.resolve() : once(session, 'exit');
      try {
        process.kill(-session.pid!, 'SIGTERM');
      } catch {
        // Already gone.
      }
      await exited;
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export interface SilentBus {
  /** DBUS_SESSION_BUS_ADDRESS for a bus that accepts connections and never says a word. */
  address: string;
  close(): Promise<void>;
}

/**
 * A keychain that hangs, from the client's side: a socket where the session bus should be that accepts the
 * connection and then never answers, so the D-Bus handshake waits forever. It is the real library on its real
 * code path, with nothing in cip made for tests.
 */
export async function silentBus(): Promise<SilentBus> {
  const path = join(tempDir('cip-bus-'), 'bus');
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    address: `unix:path=${path}`,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A describe whose cases share one real keychain (starting one takes a D-Bus and gnome-keyring), given to the body
 * as a getter; where there is none, one skipped case says why.
 */
export function describeWithKeychain(title: string, body: (keychain: () => TestKeychain) => void): void {
  if (keychainMissing) it.skip(`${title} (${keychainMissing})`, () => undefined);
  describe.skipIf(keychainMissing !== undefined)(title, () => {
    let keychain: TestKeychain | undefined;
    beforeAll(async () => {
      keychain = await startKeychain();
    });
    afterAll(() => keychain?.close());
    body(() => keychain!);
  });
}
