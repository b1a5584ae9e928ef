// The ky the unit and in-process tests run: the file cip ships, dist/vendor/ky.cjs of this run's build
// (test/helpers/global-setup.ts), whose Request, Response and Headers are cip's own (src/api/web.ts, put in place of
// Node's by scripts/build.mjs). vitest.config.ts points `import('ky')` here, so the request path is tested with the
// ky it ships with, not the package over Node's undici; test/unit/shipped-ky.test.ts fails if it is not.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// As test/helpers/cli.ts's BUILD: this run's copy of the build, else the checkout's (a run without the global setup).
const build = process.env.CIP_TEST_BUILD ?? fileURLToPath(new URL('../..', import.meta.url));
const shipped = createRequire(import.meta.url)(join(build, 'dist', 'vendor', 'ky.cjs')) as typeof import('ky');

export default shipped.default;
// The names src/api/http.ts takes from ky.
export const { HTTPError, NetworkError } = shipped;
