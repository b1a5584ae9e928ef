// The profile store: one JSON file managed by conf, private to its owner (file 0600, folder 0700).
// A file we cannot read or that does not have the shape we wrote is never reset: we stop and name it.
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import type { Env } from '../context.js';

export interface Profile {
  baseUrl?: string;
  enterpriseId: string;
  apiKey: string;
  subscriptionKey: string;
}

export interface StoreData {
  activeProfile?: string;
  profiles: Record<string, Profile>;
}

export interface ProfileStore {
  readonly path: string;
  /** A fresh read of the file on every call: another cip process may have written it. */
  read(): StoreData;
  /**
   * Read, change, write back atomically, holding a lock across the three so that two cip processes writing
   * at once (parallel logins in a CI matrix) cannot lose each other's changes.
   */
  update(change: (data: StoreData) => void): Promise<StoreData>;
}

const CONFIG_NAME = 'config';

/** CIP_CONFIG_DIR, else the platform's per-user config folder. */
export function configDir(env: Env): string {
  if (env.CIP_CONFIG_DIR) return env.CIP_CONFIG_DIR;
  const home = env.HOME || homedir();
  if (process.platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'cip', 'Config');
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'cip');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'cip');
}

export function configFilePath(dir: string): string {
  return join(dir, `${CONFIG_NAME}.json`);
}

export type Warn = (message: string) => void;

/** Folder 0700 and file 0600 whatever the umask; a wider mode found on either is tightened, and said. */
function ensurePrivate(dir: string, path: string, warn: Warn): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  for (const [target, mode] of [[dir, 0o700], [path, 0o600]] as const) {
    let current: number;
    try {
      current = statSync(target).mode & 0o777;
    } catch {
      continue;
    }
    if ((current & 0o077) !== 0) {
      chmodSync(target, mode);
      warn(`${target} was readable by others (mode ${current.toString(8)}); cip made it private (${mode.toString(8)})`);
    }
  }
}

const LOCK_OPTIONS = {
  realpath: false,
  // A lock whose holder died is taken over after 10 s; a live holder refreshes it every 2 s.
  stale: 10_000,
  update: 2_000,
  retries: { retries: 300, factor: 1, minTimeout: 20, maxTimeout: 80, randomize: true },
};

const PROFILE_FIELDS = ['enterpriseId', 'apiKey', 'subscriptionKey'] as const;

function checkShape(raw: unknown, path: string): StoreData {
  const broken = (what: string) =>
    new ConfigError(`the config file ${path} is not valid: ${what}`, 'fix or remove it by hand; cip will not overwrite it');
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw broken('expected a JSON object');
  const data = raw as Record<string, unknown>;
  const profiles = data.profiles ?? {};
  if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles)) throw broken('"profiles" is not an object');
  for (const [name, profile] of Object.entries(profiles)) {
    if (typeof profile !== 'object' || profile === null) throw broken(`profile '${name}' is not an object`);
    const fields = profile as Record<string, unknown>;
    for (const field of PROFILE_FIELDS) {
      if (typeof fields[field] !== 'string') throw broken(`profile '${name}' has no ${field}`);
    }
    if (fields.baseUrl !== undefined && typeof fields.baseUrl !== 'string') throw broken(`profile '${name}' has a bad baseUrl`);
  }
  if (data.activeProfile !== undefined && typeof data.activeProfile !== 'string') throw broken('"activeProfile" is not a string');
  return { ...(data as object), profiles: profiles as Record<string, Profile> } as StoreData;
}

export async function openProfileStore(dir: string, warn: Warn = () => {}): Promise<ProfileStore> {
  const path = configFilePath(dir);
  // conf (with ajv) is the heaviest package cip uses: loaded only by commands that need profiles.
  const { default: Conf } = await import('conf');
  let conf: InstanceType<typeof Conf<Record<string, unknown>>>;
  try {
    ensurePrivate(dir, path, warn);
    conf = new Conf({
      cwd: dir,
      configName: CONFIG_NAME,
      projectName: 'cip',
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
      // conf would turn a top-level array or string into an object and then write that back.
      deserialize: (text: string) => {
        const value: unknown = JSON.parse(text);
        return checkShape(value, path) as unknown as Record<string, unknown>;
      },
    });
  } catch (error) {
    throw describeFailure(error, path);
  }
  const read = (): StoreData => {
    try {
      return checkShape(conf.store, path);
    } catch (error) {
      throw describeFailure(error, path);
    }
  };
  return {
    path,
    read,
    async update(change) {
      const { default: lockfile } = await import('proper-lockfile');
      let compromised: Error | undefined;
      let release: () => Promise<void>;
      try {
        release = await lockfile.lock(path, {
          ...LOCK_OPTIONS,
          lockfilePath: `${path}.lock`,
          onCompromised: (error) => {
            compromised = error;
          },
        });
      } catch (error) {
        throw new ConfigError(
          `cannot lock the config file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
          `another cip is writing it; if none is running, remove ${path}.lock`,
        );
      }
      try {
        // Read under the lock: another process may have written since this one opened the store.
        const data = read();
        change(data);
        if (compromised) throw new ConfigError(`lost the lock on the config file ${path}; nothing was written`);
        try {
          conf.store = data as unknown as Record<string, unknown>;
        } catch (error) {
          throw describeFailure(error, path);
        }
        return data;
      } finally {
        await release().catch(() => undefined);
      }
    },
  };
}

function describeFailure(error: unknown, path: string): Error {
  if (error instanceof ConfigError) return error;
  if (error instanceof SyntaxError) {
    return new ConfigError(`the config file ${path} is not valid JSON`, 'fix or remove it by hand; cip will not overwrite it');
  }
  const code = (error as NodeJS.ErrnoException)?.code;
  const reason = code ?? (error instanceof Error ? error.message : String(error));
  return new ConfigError(`cannot use the config file ${path}: ${reason}`);
}
