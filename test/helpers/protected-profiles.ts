// Protected profiles: profiles written as another tool (or an older cip) would write them, the question a person
// answers, an apply file, and the guarded commands.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './cli.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import type { SandboxSetup } from './fixture.js';

export function writeProfiles(
  sandbox: Sandbox,
  configDir: string,
  profiles: Record<string, Record<string, unknown>>,
  active: string,
  top: Record<string, unknown> = {},
): string {
  const file = {
    ...top,
    activeProfile: active,
    profiles: Object.fromEntries(
      Object.entries(profiles).map(([name, extra]) => [
        name,
        {
          baseUrl: sandbox.url,
          enterpriseId: sandbox.keys.enterpriseId,
          keys: 'file',
          apiKey: sandbox.keys.apiKey,
          subscriptionKey: sandbox.keys.subscriptionKey,
          ...extra,
        },
      ]),
    ),
  };
  const text = JSON.stringify(file, null, 2);
  writeFileSync(join(configDir, 'config.json'), text, { mode: 0o600 });
  return text;
}

export const configText = (configDir: string) => readFileSync(join(configDir, 'config.json'), 'utf8');

export const methods = (sandbox: Sandbox) => sandbox.requests.map((request) => request.method);

export const host = (sandbox: Sandbox) => new URL(sandbox.url).host;

export const QUESTION = "Type the profile's name, 'prod', to go on:";

export const screen = (text: string) => text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');

export const COLOUR = /\u001b\[[0-9;]*m/;

export function applyFile(names: readonly string[], extra = 0): string {
  const path = join(tempDir(), 'environments.json');
  const records = [
    ...names.map((name) => ({ name, description: `the ${name} one` })),
    ...Array.from({ length: extra }, (_, index) => ({ name: `new-${index}` })),
  ];
  writeFileSync(path, JSON.stringify(records));
  return path;
}

export function guarded(): [string, string[]][] {
  return [
    ['env delete', ['env', 'delete', 'alpha', '--yes']],
    ['env delete --stdin', ['env', 'delete', '--stdin', '--yes']],
    ['env apply --prune (a delete)', ['env', 'apply', '--file', applyFile(['alpha', 'beta']), '--prune', '--yes']],
    ['env apply of more than 10 changes', ['env', 'apply', '--file', applyFile(['alpha', 'beta', 'gamma'], 11), '--yes']],
    ['env update --replace', ['env', 'update', 'alpha', '-f', 'name=alpha', '--replace']],
    ['env update --unset', ['env', 'update', 'alpha', '--unset', 'description']],
    ['api -X POST', ['api', 'Environments', '-X', 'POST', '-f', 'name=x']],
    ['api -X PUT', ['api', 'Environments/e1', '-X', 'PUT', '-f', 'name=x']],
    ['api -X PATCH', ['api', 'Environments/e1', '-X', 'PATCH', '-f', 'name=x']],
    ['api -X DELETE', ['api', 'Environments/e1', '-X', 'DELETE']],
    ['api with fields (POST)', ['api', 'Environments', '-f', 'name=x']],
  ];
}

export const PROTECTED_SANDBOX: SandboxSetup = {
  seed: ['alpha', 'beta', 'gamma'].map((name, index) => ({ id: `e${index + 1}`, name, description: `the ${name} one` })),
};
