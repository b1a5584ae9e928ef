// @ts-check
// `npm run demo`: the main job, offline. Starts the sandbox on a free loopback port, logs in to a throw-away
// profile in a temporary config directory, then creates, lists, updates and deletes an environment, showing
// each command and what it printed. Everything it made is removed at the end.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const { startSandbox } = await import(join(root, 'dist', 'sandbox.js'));

const work = mkdtempSync(join(tmpdir(), 'cip-demo-'));
const sandbox = await startSandbox({ seed: 2 });
// The user's own CIP_* settings must not reach the demo's cip.
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CIP_'))),
  CIP_CONFIG_DIR: join(work, 'config'),
  // Its code cache too, which is removed with it.
  XDG_CACHE_HOME: join(work, 'cache'),
  // The sandbox's test keys go to the temporary folder, which is removed, never into the user's keychain;
  // and the demo runs where there is none (a container). cip says so with a warning line.
  CIP_CREDENTIAL_STORE: 'file',
  CIP_OUTPUT: 'table',
  FORCE_COLOR: '0',
};

/** @param {string[]} args */
async function cip(...args) {
  process.stdout.write(`\n$ cip ${args.map((arg) => (/[\s"'{}$]/.test(arg) ? `'${arg}'` : arg)).join(' ')}\n`);
  try {
    const { stdout, stderr } = await run(process.execPath, [join(root, 'bin', 'cip.cjs'), ...args], { env, maxBuffer: 64 << 20 });
    process.stdout.write(stdout + stderr);
    return stdout;
  } catch (caught) {
    const error = /** @type {{ stdout?: string, stderr?: string, code?: number }} */ (caught);
    process.stdout.write(`${error.stdout ?? ''}${error.stderr ?? ''}`);
    throw new Error(`cip ${args.join(' ')} exited ${error.code}`);
  }
}

let failed = false;
try {
  process.stdout.write(`Sandbox API on ${sandbox.url}; profiles go to a temporary directory.\n`);
  writeFileSync(join(work, 'api-key.txt'), `${sandbox.keys.apiKey}\n`, { mode: 0o600 });
  writeFileSync(join(work, 'subscription-key.txt'), `${sandbox.keys.subscriptionKey}\n`, { mode: 0o600 });
  process.chdir(work);
  await cip(
    'auth',
    'login',
    '--profile',
    'demo',
    '--base-url',
    sandbox.url,
    '--enterprise-id',
    sandbox.keys.enterpriseId,
    '--api-key-file',
    'api-key.txt',
    '--subscription-key-file',
    'subscription-key.txt',
  );
  await cip('auth', 'status');
  const created = await cip(
    'env',
    'create',
    '-f',
    'name=demo-staging',
    '-f',
    'description=Created by npm run demo',
    '-F',
    'isActive=true',
    '--json',
  );
  const { id } = JSON.parse(created);
  await cip('env', 'list', '--columns', 'id,name,description,isActive');
  await cip('env', 'update', id, '--data', '{"name":"demo-production","description":"Promoted"}', '-F', 'isActive=false');
  await cip('env', 'list', '--columns', 'id,name,description,isActive');
  await cip('env', 'delete', id, '--yes');
  await cip('env', 'list', '--columns', 'id,name');
  await cip('auth', 'logout');
  process.stdout.write('\nDemo finished: the sandbox is stopped and its temporary profile removed.\n');
} catch (error) {
  failed = true;
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
} finally {
  await sandbox.close();
  process.chdir(root);
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
