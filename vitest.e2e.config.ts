import { loop } from './vitest.config.js';

// The end-to-end loop, `npm run test:e2e` (as wrangler's test:e2e and gh's acceptance tag keep theirs apart from
// the default loop): the built program as a user runs it (test/e2e/: the launcher, signals, terminals, pipes, the
// code cache, the single executables for x64 and arm64, PowerShell, zsh and fish, the keychain, real proxies, the
// README's and the manual's blocks), and the reference service (test/reference-api/, ASP.NET Core with dotnet).
// The fixture's `cip` runs the built program here (test/helpers/fixture.ts).
export default loop(
  { include: ['test/e2e/**/*.test.ts', 'test/reference-api/**/*.test.ts'] },
  // Says once why the reference service's tests are skipped, when they are.
  { globalSetup: ['test/helpers/dotnet-notice.ts'], provide: { runner: 'spawned' } },
);
