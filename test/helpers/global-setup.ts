// Runs once per `vitest run`, before any test file: says once why the reference API tests are skipped, when
// they are. Building the reference API is left to the files that use it (test/helpers/reference-api.ts), so a
// run of other files never pays for it.
import { NO_DOTNET_MESSAGE, hasDotnet } from './dotnet.js';

export default function setup(): void {
  if (!hasDotnet()) process.stdout.write(`${NO_DOTNET_MESSAGE}\n`);
}
