// Runs once per end-to-end run (vitest.e2e.config.ts): says once why the reference service's tests are skipped,
// when they are. Building the reference service is left to the files that use it (test/helpers/reference-api.ts),
// so a run of other files never pays for it.
import { NO_DOTNET_MESSAGE, hasDotnet } from './dotnet.js';

export default function setup(): void {
  if (!hasDotnet()) process.stdout.write(`${NO_DOTNET_MESSAGE}\n`);
}
