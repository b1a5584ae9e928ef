// Whether the .NET SDK is here, for the reference API tests; no vitest imports, so the global setup can use it.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export const NO_DOTNET_MESSAGE = 'reference API tests skipped: dotnet is not on PATH (they check the sandbox against ASP.NET Core)';

/** Whether `dotnet` is an executable on PATH (looked up without starting it). */
export function hasDotnet(path = process.env.PATH ?? ''): boolean {
  return path
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        accessSync(join(dir, 'dotnet'), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}
