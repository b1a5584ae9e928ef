// docs/commands.md is generated from the command tree; like completions/, it must not go stale.
import { existsSync, readFileSync } from 'node:fs';
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
