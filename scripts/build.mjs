// Bundles src/ into dist/ with esbuild: one ESM entry plus lazily loaded chunks,
// so start-up parses only what the command being run needs.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// Chunk names carry content hashes: start clean so old chunks do not pile up.
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

// commander requires child_process at load time, for executable subcommands that cip does not have; loading
// it (and net, dgram, streams...) costs every run a few milliseconds. Give commander a lazy stand-in.
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(builder) {
    builder.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.importer.includes('node_modules/commander/') ? { path: 'child_process', namespace: 'lazy-child-process' } : undefined);
    builder.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "let real; module.exports = new Proxy({}, { get: (_target, key) => (real ??= require('node:child_process'))[key] });",
      loader: 'js',
    }));
  },
};

await build({
  plugins: [lazyChildProcess],
  entryPoints: { main: 'src/main.ts', sandbox: 'src/sandbox/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  // Less to parse at start-up; identifiers are kept so CIP_DEBUG stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __CIP_VERSION__: JSON.stringify(pkg.version) },
  // Some bundled CommonJS dependencies call require(); give them one.
  banner: {
    js: "import { createRequire as __cipCreateRequire } from 'node:module'; const require = __cipCreateRequire(import.meta.url);",
  },
});
