// Where the profile store lives: CIP_CONFIG_DIR, else the platform's per-user config folder.
import { homedir, platform } from 'node:os';
import { join } from 'node:path';
import { nonEmpty, type Env } from '../../env.js';

export interface ConfigLocation {
  dir: string;
  /** The platform's folder for cip (not CIP_CONFIG_DIR): cip's own, so cip may make it private. */
  isDefault: boolean;
}

/** CIP_CONFIG_DIR, else the platform's per-user config folder. */
export function configLocation(env: Env): ConfigLocation {
  if (env.CIP_CONFIG_DIR) return { dir: env.CIP_CONFIG_DIR, isDefault: false };
  const home = nonEmpty(env.HOME) ?? homedir();
  if (platform() === 'win32')
    return { dir: join(nonEmpty(env.APPDATA) ?? join(home, 'AppData', 'Roaming'), 'cip', 'Config'), isDefault: true };
  if (platform() === 'darwin') return { dir: join(home, 'Library', 'Preferences', 'cip'), isDefault: true };
  return { dir: join(nonEmpty(env.XDG_CONFIG_HOME) ?? join(home, '.config'), 'cip'), isDefault: true };
}

export function configDir(env: Env): string {
  return configLocation(env).dir;
}

export function configFilePath(dir: string): string {
  return join(dir, 'config.json');
}
