// @ts-check
// Regenerates the committed completion scripts in completions/ from the CLI itself, so they match the command
// tree. Builds first: the scripts come from the built binary, and a stale dist/ would write stale scripts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const files = { bash: 'cip.bash', zsh: '_cip', fish: 'cip.fish', powershell: 'cip.ps1' };

execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
mkdirSync(new URL('../completions/', import.meta.url), { recursive: true });
for (const [shell, file] of Object.entries(files)) {
  const script = execFileSync(process.execPath, ['bin/cip.cjs', 'completion', shell], { cwd: root, encoding: 'utf8' });
  writeFileSync(new URL(`../completions/${file}`, import.meta.url), script);
  console.log(`wrote completions/${file}`);
}
