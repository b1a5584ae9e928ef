// Bundles src/ into dist/ with esbuild: one ESM entry plus lazily loaded chunks,
// so start-up parses only what the command being run needs.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// Chunk names carry content hashes: start clean so old chunks do not pile up.
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { main: 'src/main.ts', sandbox: 'src/sandbox/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __CIP_VERSION__: JSON.stringify(pkg.version) },
  // Some bundled CommonJS dependencies call require(); give them one.
  banner: {
    js: "import { createRequire as __cipCreateRequire } from 'node:module'; const require = __cipCreateRequire(import.meta.url);",
  },
});
