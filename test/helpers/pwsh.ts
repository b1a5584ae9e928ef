// Where the tests find PowerShell 7 (`pwsh`): where .ci/run installs it as a .NET tool (/opt/cip-pwsh as root,
// .tools/pwsh in the checkout otherwise), else on PATH.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The folders .ci/run installs pwsh into (`dotnet tool install --tool-path <folder> PowerShell`). */
export const PWSH_TOOL_DIRS = ['/opt/cip-pwsh', join(ROOT, '.tools', 'pwsh')];

export const NO_PWSH_MESSAGE =
  'pwsh not found in /opt/cip-pwsh, .tools/pwsh or on PATH: .ci/run installs it (dotnet tool install --tool-path .tools/pwsh PowerShell --version 7.6.9)';

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The pwsh to run, or undefined when there is none (looked up without starting it). */
export function findPwsh(path = process.env.PATH ?? ''): string | undefined {
  const dirs = [...PWSH_TOOL_DIRS, ...path.split(delimiter).filter(Boolean)];
  return dirs.map((dir) => join(dir, 'pwsh')).find(executable);
}
