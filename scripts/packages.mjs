// @ts-check
// The third-party packages cip runs, named once: the modules of src/ that may import each (the one that wraps
// it; test/unit/architecture.test.ts holds every other module to that), and how the build ships it
// (scripts/build.mjs): 'bundled' into dist/cli.cjs, 'vendor' in a file of its own under dist/vendor/ that is
// required only when the code that uses it runs (`entry` when that is a subpath), or 'native', left in
// node_modules (a .node file per platform cannot be bundled).

/** @typedef {{ homes: string[], ship: 'bundled' | 'vendor' | 'native', entry?: string }} Package */

/** @type {Record<string, Package>} */
export const PACKAGES = {
  commander: {
    homes: [
      'cli/globals.ts',
      'cli/declared.ts',
      'commands/define.ts',
      'commands/options.ts',
      'commands/api.ts',
      'commands/sandbox.ts',
      'completion/spec.ts',
      'completion/index.ts',
      'program.ts',
      'program/cip-command.ts',
      'program/checks.ts',
      'program/declarations.ts',
      'program/help-command.ts',
      'program/help-text.ts',
    ],
    ship: 'bundled',
  },
  ky: { homes: ['api/http.ts'], ship: 'vendor' },
  conf: { homes: ['config/store/write.ts'], ship: 'vendor' },
  ora: { homes: ['terminal/spinner.ts'], ship: 'vendor' },
  chalk: { homes: ['output/writer.ts'], ship: 'vendor' },
  'cli-table3': { homes: ['output/record.ts'], ship: 'vendor' },
  'string-width': { homes: ['output/table.ts'], ship: 'vendor' },
  'proper-lockfile': { homes: ['config/store/lock.ts'], ship: 'vendor' },
  yaml: { homes: ['json/yaml.ts'], ship: 'vendor' },
  'jq-wasm': { homes: ['output/jq-worker.ts'], ship: 'vendor', entry: 'jq-wasm/inline' },
  '@napi-rs/keyring': { homes: ['keychain-helper.ts'], ship: 'native' },
};
