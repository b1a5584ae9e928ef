// The layers of src/ (ARCHITECTURE.md) as a test: each module imports only from its own layer and the
// layers below it, no two modules import each other (even for types), third-party packages stay in the
// module that wraps them, and only the entry touches process.*.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: scripts are plain JavaScript (checked by their own // @ts-check)
import { PACKAGES } from '../../scripts/packages.mjs';

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
  completion: ['base', 'cli'],
  context: ['base', 'output', 'config', 'secrets', 'terminal', 'api', 'cli'],
  domain: ['base', 'output', 'config', 'terminal', 'api', 'context'],
  commands: ['base', 'output', 'config', 'sandbox', 'secrets', 'terminal', 'api', 'cli', 'completion', 'context', 'domain'],
  program: ['base', 'output', 'config', 'cli', 'context', 'commands'],
  run: ['base', 'context', 'program'],
  entry: ['base', 'terminal', 'run'],
  helper: ['base', 'config'],
} as const satisfies Record<string, readonly string[]>;
type Layer = keyof typeof LAYERS;

function layerOf(file: string): Layer {
  const top = file.split('/')[0] ?? '';
  if (top === 'text' || top === 'json' || ['errors.ts', 'env.ts', 'version.ts'].includes(file)) return 'base';
  if (['output', 'config', 'sandbox', 'terminal', 'api', 'cli', 'domain', 'commands', 'program', 'completion'].includes(top))
    return top as Layer;
  const byFile: Record<string, Layer> = {
    'secrets.ts': 'secrets',
    'context.ts': 'context',
    'program.ts': 'program',
    'run.ts': 'run',
    'main.ts': 'entry',
    'load-cli.ts': 'entry',
    'code-cache.ts': 'entry',
    'sea.ts': 'entry',
    'run-process.ts': 'entry',
    'cache-folder.ts': 'entry',
    'keychain-helper.ts': 'helper',
  };
  const layer = byFile[file];
  if (!layer) throw new Error(`src/${file} belongs to no layer: add it to architecture.test.ts and ARCHITECTURE.md`);
  return layer;
}

/** Packages, and the only modules that may load each (scripts/packages.mjs, which the build reads too). */
const PACKAGE_HOMES: Record<string, string[]> = Object.fromEntries(
  Object.entries(PACKAGES as Record<string, { homes: string[] }>).map(([name, { homes }]) => [name, homes]),
);

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

  it('a verb is imported by program.ts alone, and the folder of a noun holds verbs only', () => {
    // A verb is a module that declares a command; what verbs share lives in the domain or beside them.
    const verbs = new Set(
      FILES.filter((file) => /\bdefineCommand\(/.test(readFileSync(join(SRC, file), 'utf8')) && file !== 'commands/define.ts'),
    );
    expect(verbs).toContain('commands/env/list.ts');
    const importers = [...GRAPH].flatMap(([file, { local }]) =>
      local.filter((target) => verbs.has(target) && file !== 'program.ts').map((target) => `${file} imports ${target}`),
    );
    expect(importers).toStrictEqual([]);
    const nounFolders = ['commands/env/', 'commands/auth/'];
    expect(FILES.filter((file) => nounFolders.some((folder) => file.startsWith(folder)) && !verbs.has(file))).toStrictEqual([]);
  });

  it('the writer alone decides by the output format: no command asks whether it is data', () => {
    const asking = FILES.filter((file) => !file.startsWith('output/') && /\bisDataFormat\b/.test(readFileSync(join(SRC, file), 'utf8')));
    expect(asking).toStrictEqual([]);
  });

  it('each package is loaded only by the module that wraps it', () => {
    const strays: string[] = [];
    for (const [file, { packages }] of GRAPH) {
      for (const name of packages) if (!PACKAGE_HOMES[name]?.includes(file)) strays.push(`${file} imports ${name}`);
    }
    expect(strays).toStrictEqual([]);
  });

  it('only the entries (main.ts with what loads and runs cip as this process, and the keychain helper, a process of its own) touch process.*', () => {
    const touching = FILES.filter((file) => {
      const code = readFileSync(join(SRC, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      return /\bprocess\.(?!\w+Exception\b)/.test(code.replace(/NodeJS\.\w+/g, ''));
    });
    expect(touching.sort()).toStrictEqual(['code-cache.ts', 'keychain-helper.ts', 'load-cli.ts', 'main.ts', 'run-process.ts', 'sea.ts']);
  });
});
