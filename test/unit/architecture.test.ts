// The layers of src/ (ARCHITECTURE.md) as a test: each module imports only from its own layer and the
// layers below it, no two modules import each other (even for types), third-party packages stay in the
// module that wraps them, and only the entry touches process.*.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** Each layer, lowest first, and the layers it may import (besides its own). */
const LAYERS = {
  base: [],
  output: ['base'],
  config: ['base'],
  sandbox: ['base'],
  secrets: ['base', 'config'],
  terminal: ['base', 'output'],
  api: ['base', 'config'],
  cli: ['base', 'output', 'config'],
  context: ['base', 'output', 'config', 'secrets', 'terminal', 'api', 'cli'],
  commands: ['base', 'output', 'config', 'sandbox', 'secrets', 'terminal', 'api', 'cli', 'context'],
  program: ['base', 'output', 'config', 'cli', 'context', 'commands'],
  run: ['base', 'context', 'program'],
  entry: ['base', 'terminal', 'run'],
  helper: ['base', 'config'],
} as const satisfies Record<string, readonly string[]>;
type Layer = keyof typeof LAYERS;

function layerOf(file: string): Layer {
  const top = file.split('/')[0] ?? '';
  if (top === 'text' || top === 'json' || ['errors.ts', 'env.ts', 'version.ts'].includes(file)) return 'base';
  if (['output', 'config', 'sandbox', 'terminal', 'api', 'cli', 'commands'].includes(top)) return top as Layer;
  const byFile: Record<string, Layer> = {
    'secrets.ts': 'secrets',
    'context.ts': 'context',
    'program.ts': 'program',
    'run.ts': 'run',
    'main.ts': 'entry',
    'load-cli.ts': 'entry',
    'keychain-helper.ts': 'helper',
  };
  const layer = byFile[file];
  if (!layer) throw new Error(`src/${file} belongs to no layer: add it to architecture.test.ts and ARCHITECTURE.md`);
  return layer;
}

/** Packages, and the only modules that may load each. */
const PACKAGE_HOMES: Record<string, string[]> = {
  ky: ['api/http.ts'],
  undici: ['api/proxy.ts'],
  conf: ['config/store/write.ts'],
  'proper-lockfile': ['config/store/lock.ts'],
  ora: ['terminal/spinner.ts'],
  chalk: ['output/writer.ts'],
  'cli-table3': ['output/record.ts'],
  'string-width': ['output/table.ts'],
  'lossless-json': ['json/exact.ts'],
  yaml: ['json/yaml.ts'],
  'jq-wasm': ['output/jq-worker.ts'],
  '@napi-rs/keyring': ['keychain-helper.ts'],
  commander: [
    'cli/globals.ts',
    'commands/define.ts',
    'commands/env/options.ts',
    'commands/api.ts',
    'commands/sandbox.ts',
    'commands/completion/spec.ts',
    'commands/completion/index.ts',
    'program.ts',
  ],
};

function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(SRC, path)] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:[^'";]*?\sfrom\s)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

interface Imports {
  local: string[];
  packages: string[];
}

function importsOf(file: string): Imports {
  const text = readFileSync(join(SRC, file), 'utf8');
  const local: string[] = [];
  const packages: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? '';
    if (specifier.startsWith('.')) local.push(relative(SRC, resolve(dirname(join(SRC, file)), specifier.replace(/\.js$/, '.ts'))));
    else if (!specifier.startsWith('node:'))
      packages.push(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? specifier));
  }
  return { local, packages };
}

const FILES = sourceFiles();
const GRAPH = new Map(FILES.map((file) => [file, importsOf(file)]));

describe('architecture', () => {
  it('finds the modules and their imports', () => {
    expect(FILES).toContain('context.ts');
    expect(GRAPH.get('context.ts')!.local).toContain('config/store.ts');
    expect(GRAPH.get('api/http.ts')!.packages).toContain('ky');
  });

  it.each(FILES)('src/%s imports only its own layer and the layers below', (file) => {
    const layer = layerOf(file);
    const allowed = new Set<string>([layer, ...LAYERS[layer]]);
    const wrong = GRAPH.get(file)!.local.filter((target) => !allowed.has(layerOf(target)));
    expect(
      wrong.map((target) => `${target} (${layerOf(target)})`),
      `${file} is in layer ${layer}`,
    ).toStrictEqual([]);
  });

  it('no import cycles, counting type-only imports', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'visiting');
      for (const target of GRAPH.get(file)?.local ?? []) visit(target, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of FILES) visit(file, []);
    expect(cycles).toStrictEqual([]);
  });

  it('each package is loaded only by the module that wraps it', () => {
    const strays: string[] = [];
    for (const [file, { packages }] of GRAPH) {
      for (const name of packages) if (!PACKAGE_HOMES[name]?.includes(file)) strays.push(`${file} imports ${name}`);
    }
    expect(strays).toStrictEqual([]);
  });

  it('only the entries (main.ts, load-cli.ts, and the keychain helper, a process of its own) touch process.*', () => {
    const touching = FILES.filter((file) => {
      const code = readFileSync(join(SRC, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      return /\bprocess\.(?!\w+Exception\b)/.test(code.replace(/NodeJS\.\w+/g, ''));
    });
    expect(touching.sort()).toStrictEqual(['keychain-helper.ts', 'load-cli.ts', 'main.ts']);
  });
});
