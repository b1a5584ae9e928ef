// docs/commands.md is generated from the command tree; like completions/, it must not go stale.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: scripts are plain JavaScript (checked by their own // @ts-check)
import { renderCommandDocs } from '../../scripts/docs.mjs';

const PATH = new URL('../../docs/commands.md', import.meta.url);

describe('docs/commands.md', () => {
  it('is what the command tree says now', async () => {
    const committed = existsSync(PATH) ? readFileSync(PATH, 'utf8') : '';
    expect(await (renderCommandDocs as () => Promise<string>)(), 'docs/commands.md is stale: run `npm run docs`').toBe(committed);
  });

  it('documents every visible command and no hidden one', () => {
    const text = readFileSync(PATH, 'utf8');
    for (const command of [
      'auth login',
      'auth status',
      'auth use',
      'auth logout',
      'env list',
      'env create',
      'env update',
      'env delete',
      'completion',
      'sandbox',
    ]) {
      expect(text).toContain(`## cip ${command}\n`);
    }
    expect(text).not.toContain('__complete');
  });
});

// A moved or renamed file leaves the prose that names it pointing nowhere: a contributor follows the path and
// finds nothing. Every path of the repository's own files named in back-quotes in its Markdown must exist.
describe('the paths the Markdown names', () => {
  it('exist', () => {
    const root = new URL('../../', import.meta.url);
    const pages = ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', ...readdirSync(new URL('docs/', root)).map((name) => `docs/${name}`)];
    const missing: string[] = [];
    for (const page of pages.filter((page) => page.endsWith('.md'))) {
      const text = readFileSync(new URL(page, root), 'utf8');
      for (const [, path] of text.matchAll(/`((?:src|test|scripts)\/[\w./-]+\.(?:ts|mjs|cjs))`/g)) {
        if (!existsSync(new URL(path!, root))) missing.push(`${page}: ${path!}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
