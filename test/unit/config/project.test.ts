// The project file (src/config/project.ts): where it is found, what it may hold, when it is ignored, and how
// `auth use --here` writes it. The rule it takes part in is tested in credentials/settings.test.ts, the commands in
// test/promises/project-file.test.ts.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MAX_PROJECT_BYTES,
  checkProject,
  findProjectFile,
  loadProject,
  readProject,
  untrusted,
  writeProjectProfile,
} from '../../../src/config/project.js';
import { UsageError } from '../../../src/errors.js';
import { tempDir } from '../../helpers/cli.js';

const GUID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';
const POSIX = process.platform !== 'win32';
const uid = process.getuid?.();

/** A folder tree under a private temporary folder: root/a/b/c. */
function tree() {
  const root = tempDir('cip-project-');
  const deep = join(root, 'a', 'b', 'c');
  mkdirSync(deep, { recursive: true });
  return { root, deep };
}

function usage(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('expected a usage error');
}

describe('findProjectFile', () => {
  it('finds the nearest .cip.json from the working folder upward', () => {
    const { root, deep } = tree();
    writeFileSync(join(root, '.cip.json'), '{}');
    expect(findProjectFile(deep, undefined)).toBe(join(root, '.cip.json'));
    writeFileSync(join(root, 'a', 'b', '.cip.json'), '{}');
    expect(findProjectFile(deep, undefined)).toBe(join(root, 'a', 'b', '.cip.json'));
    expect(findProjectFile(join(root, 'a'), undefined)).toBe(join(root, '.cip.json'));
  });

  it('looks in the home folder itself, never above it, when the working folder is inside it', () => {
    const { root, deep } = tree();
    writeFileSync(join(root, '.cip.json'), '{}');
    expect(findProjectFile(deep, join(root, 'a'))).toBeUndefined();
    expect(findProjectFile(deep, `${join(root, 'a')}/`)).toBeUndefined();
    writeFileSync(join(root, 'a', '.cip.json'), '{}');
    expect(findProjectFile(deep, join(root, 'a'))).toBe(join(root, 'a', '.cip.json'));
  });

  it('stops at the home folder when HOME is a link to where the working folder is', () => {
    const { root, deep } = tree();
    writeFileSync(join(root, '.cip.json'), '{}');
    const link = join(tempDir(), 'home-link');
    symlinkSync(join(root, 'a'), link);
    expect(findProjectFile(deep, link)).toBeUndefined();
  });

  it('goes up to the root when the working folder is outside the home folder (a sibling that shares its prefix too)', () => {
    const { root } = tree();
    writeFileSync(join(root, '.cip.json'), '{}');
    mkdirSync(join(root, 'home-other'));
    expect(findProjectFile(join(root, 'home-other'), join(root, 'home'))).toBe(join(root, '.cip.json'));
    expect(findProjectFile(join(root, 'a', 'b'), join(root, 'a', 'b', 'c'))).toBe(join(root, '.cip.json'));
  });

  it('looks for nothing without a working folder, or with a relative one', () => {
    expect(findProjectFile(undefined, undefined)).toBeUndefined();
    expect(findProjectFile('relative/folder', undefined)).toBeUndefined();
  });

  it('finds folders with odd names: spaces, dots, semicolons, unicode, control characters', () => {
    const root = tempDir('cip-project-');
    const odd = join(root, 'my app; rm -rf ~', '..x', 'prod ✓', 'tab\there');
    mkdirSync(odd, { recursive: true });
    writeFileSync(join(root, 'my app; rm -rf ~', '.cip.json'), '{"profile": "prod"}');
    const found = findProjectFile(odd, root);
    expect(found).toBe(join(root, 'my app; rm -rf ~', '.cip.json'));
    expect(readProject(found!, false)).toEqual({ path: found, profile: 'prod' });
  });
});

describe('checkProject', () => {
  const path = '/p/.cip.json';
  it.each([
    [{ profile: 'prod' }, { profile: 'prod' }],
    [{ profile: ' prod ' }, { profile: 'prod' }],
    [{ enterpriseId: GUID }, { enterpriseId: GUID }],
    [{ enterpriseId: ` ${GUID} ` }, { enterpriseId: GUID }],
    [{ baseUrl: 'https://api.example.com/ms' }, { baseUrl: 'https://api.example.com/ms' }],
    [
      { enterpriseId: GUID, baseUrl: 'https://api.example.com/ms' },
      { enterpriseId: GUID, baseUrl: 'https://api.example.com/ms' },
    ],
  ])('takes %j', (value, expected) => {
    expect(checkProject(value, path, false)).toEqual({ path, ...expected });
  });

  it.each([
    [[], 'the project file /p/.cip.json is not a JSON object'],
    [null, 'the project file /p/.cip.json is not a JSON object'],
    ['prod', 'the project file /p/.cip.json is not a JSON object'],
    [{}, 'the project file /p/.cip.json pins nothing'],
    [{ profile: 'prod', extra: 1 }, "the project file /p/.cip.json has an unknown field 'extra'"],
    [{ Profile: 'prod', env: {} }, "the project file /p/.cip.json has unknown fields 'Profile', 'env'"],
    [JSON.parse('{"__proto__": {"profile": "prod"}}') as unknown, "the project file /p/.cip.json has an unknown field '__proto__'"],
    [{ 'bad\u001b[31mkey': 1 }, "the project file /p/.cip.json has an unknown field 'bad?[31mkey'"],
    [
      { profile: 'prod', enterpriseId: GUID },
      'the project file /p/.cip.json names a profile and an enterprise id: a profile brings its own',
    ],
    [
      { profile: 'prod', baseUrl: 'https://api.example.com/ms' },
      'the project file /p/.cip.json names a profile and a base URL: a profile brings its own',
    ],
    [{ profile: 7 }, 'the project file /p/.cip.json has a profile that is not a non-empty string'],
    [{ profile: ' ' }, 'the project file /p/.cip.json has a profile that is not a non-empty string'],
    [{ profile: '../prod' }, "the project file /p/.cip.json names profile '../prod', which is not a valid profile name"],
    [{ profile: 'a b' }, "the project file /p/.cip.json names profile 'a b', which is not a valid profile name"],
    [{ profile: 'prod;rm' }, "the project file /p/.cip.json names profile 'prod;rm', which is not a valid profile name"],
    [{ profile: 'prød' }, "the project file /p/.cip.json names profile 'prød', which is not a valid profile name"],
    [{ profile: 'p\u0007' }, "the project file /p/.cip.json names profile 'p?', which is not a valid profile name"],
    [
      { enterpriseId: 'nope' },
      "the enterprise id in the project file /p/.cip.json must be a GUID like 3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b, not 'nope'",
    ],
    [{ enterpriseId: 12 }, 'the project file /p/.cip.json has a enterpriseId that is not a non-empty string'],
  ])('refuses %j (exit 2, naming the file)', (value, message) => {
    const error = usage(() => checkProject(value, path, false));
    expect(error.message).toBe(message);
    expect(error.exitCode).toBe(2);
  });

  it('refuses a cleartext base URL to another machine unless CIP_ALLOW_HTTP allows it', () => {
    expect(usage(() => checkProject({ baseUrl: 'http://api.example.com/ms' }, path, false)).message).toMatch(
      /^the base URL in the project file \/p\/\.cip\.json /,
    );
    expect(checkProject({ baseUrl: 'http://api.example.com/ms' }, path, true).baseUrl).toBe('http://api.example.com/ms');
  });
});

describe('readProject', () => {
  it('reads JSON, with or without a byte order mark', () => {
    const dir = tempDir();
    const path = join(dir, '.cip.json');
    writeFileSync(path, '\uFEFF{"profile": "prod"}\n');
    expect(readProject(path, false)).toEqual({ path, profile: 'prod' });
  });

  it('shows a path with control characters made visible, never as a terminal escape', () => {
    const dir = join(tempDir(), 'evil\u001b]0;pwned\u0007');
    mkdirSync(dir);
    const path = join(dir, '.cip.json');
    writeFileSync(path, '[]');
    const message = usage(() => readProject(path, false)).message;
    expect(message).toBe(`the project file ${path.replace('\u001b', '?').replace('\u0007', '?')} is not a JSON object`);
    expect(message).not.toMatch(/[\u0000-\u001f]/);
  });

  // JSON.parse keeps the last of a key given twice: the file would read as staging and act in prod.
  it.each([
    ['{"profile":"staging","profile":"prod"}', 'profile'],
    ['{"profile":"staging","pro\\u0066ile":"prod"}', 'profile'],
    ['\uFEFF{"profile":"staging",\n  "profile": "prod"}', 'profile'],
    ['{"enterpriseId":"x","baseUrl":"https://a.example","enterpriseId":"y"}', 'enterpriseId'],
    ['{"__proto__":{"profile":"prod"},"__proto__":{}}', '__proto__'],
    ['{"profile":{"a":1,"a":2}}', 'a'],
  ])('refuses %s: a key given twice, however it is spelled, at any depth', (text, key) => {
    const dir = tempDir();
    const path = join(dir, '.cip.json');
    writeFileSync(path, text);
    const error = usage(() => readProject(path, false));
    expect(error.message).toBe(`the project file ${path} has the key '${key}' twice`);
    expect(error.hint).toBe(
      'cip will not guess which one is meant: keep one; a project file holds {"profile": "prod"} or {"enterpriseId": "GUID", "baseUrl": "https://..."}',
    );
  });

  it.each([
    ['{"profile":"staging","Profile":"prod"}', "has an unknown field 'Profile'"],
    ['{"__proto__":{"profile":"prod"}}', "has an unknown field '__proto__'"],
    ['{"constructor":"prod"}', "has an unknown field 'constructor'"],
  ])('refuses %s: a field in another case, or an object trick, is no field of a project file', (text, why) => {
    const dir = tempDir();
    const path = join(dir, '.cip.json');
    writeFileSync(path, text);
    expect(usage(() => readProject(path, false)).message).toBe(`the project file ${path} ${why}`);
  });

  it('refuses what is not JSON, and never runs it', () => {
    const dir = tempDir();
    const path = join(dir, '.cip.json');
    writeFileSync(path, 'module.exports = { profile: "prod" }');
    expect(usage(() => readProject(path, false)).message).toBe(`the project file ${path} is not valid JSON`);
  });

  it(`refuses a file larger than ${MAX_PROJECT_BYTES} bytes`, () => {
    const dir = tempDir();
    const path = join(dir, '.cip.json');
    writeFileSync(path, `{"profile": "prod"}${' '.repeat(MAX_PROJECT_BYTES)}`);
    expect(usage(() => readProject(path, false)).message).toBe(
      `the project file ${path} is too large (${MAX_PROJECT_BYTES + 19} bytes; at most ${MAX_PROJECT_BYTES})`,
    );
    writeFileSync(path, `{"profile": "prod"}${' '.repeat(MAX_PROJECT_BYTES - 19)}`);
    expect(readProject(path, false).profile).toBe('prod');
  });

  it('refuses a folder called .cip.json', () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.cip.json'));
    expect(usage(() => readProject(join(dir, '.cip.json'), false)).message).toBe(
      `the project file ${join(dir, '.cip.json')} is not a regular file (a directory)`,
    );
  });

  it.skipIf(!POSIX)('refuses a FIFO without waiting for a writer', () => {
    const dir = tempDir();
    const path = join(dir, '.cip.json');
    execFileSync('mkfifo', [path]);
    expect(usage(() => readProject(path, false)).message).toBe(`the project file ${path} is not a regular file (a FIFO)`);
  });

  it.skipIf(!POSIX || uid === 0)('says a file it cannot read is one', () => {
    const dir = tempDir();
    const path = join(dir, '.cip.json');
    writeFileSync(path, '{"profile": "prod"}', { mode: 0o200 });
    expect(usage(() => readProject(path, false)).message).toBe(`the project file ${path} cannot be read (EACCES)`);
  });
});

describe.skipIf(!POSIX)('a project file others can change is ignored, with a warning', () => {
  function pinned(folderMode: number, fileMode = 0o644) {
    const { root, deep } = tree();
    const folder = join(root, 'a');
    const path = join(folder, '.cip.json');
    writeFileSync(path, '{"profile": "prod"}');
    chmodSync(path, fileMode);
    chmodSync(folder, folderMode);
    return { root, deep, folder, path };
  }

  it('reads one in a folder only the user can write to', () => {
    const { deep, path, root } = pinned(0o755);
    const warnings: string[] = [];
    const project = loadProject({ cwd: deep, home: root, uid, gid: process.getgid?.(), allowHttp: false, warn: (m) => warnings.push(m) });
    expect(project).toEqual({ path, profile: 'prod' });
    expect(warnings).toEqual([]);
  });

  it('ignores one in a folder anyone can write to', () => {
    const { deep, folder, path, root } = pinned(0o777);
    const warnings: string[] = [];
    expect(
      loadProject({ cwd: deep, home: root, uid, gid: process.getgid?.(), allowHttp: false, warn: (m) => warnings.push(m) }),
    ).toBeUndefined();
    expect(warnings).toEqual([
      `ignoring the project file ${path}: its folder ${folder}: others can write to it (mode 777); others could change which profile cip uses`,
    ]);
  });

  it('ignores a file anyone can write to, however private its folder', () => {
    const { path } = pinned(0o700, 0o666);
    expect(untrusted(path, uid, process.getgid?.())).toBe('the file: others can write to it (mode 666)');
  });

  it("trusts a group-writable folder only when the group is the user's own (umask 002 with a group per user)", () => {
    const { folder, path } = pinned(0o775);
    const gid = statSync(folder).gid;
    expect(untrusted(path, uid, gid)).toBeUndefined();
    expect(untrusted(path, uid, gid + 1)).toBe(`its folder ${folder}: its group (gid ${gid}) can write to it (mode 775)`);
  });

  it('ignores a file that belongs to another user (root may own it)', () => {
    const { path } = pinned(0o755);
    if (uid === 0) {
      // As root, the file can be given away; root's own files are trusted.
      expect(untrusted(path, 0, process.getgid?.())).toBeUndefined();
      chownSync(path, 4242, process.getgid?.() ?? 0);
      expect(untrusted(path, 0, process.getgid?.())).toBe('the file: it belongs to another user (uid 4242)');
    } else {
      expect(untrusted(path, uid! + 1, process.getgid?.())).toBe(`the file: it belongs to another user (uid ${uid!})`);
    }
  });

  it('checks the folder of the file a link leads to', () => {
    const shared = tempDir();
    chmodSync(shared, 0o777);
    writeFileSync(join(shared, 'pin.json'), '{"profile": "prod"}');
    const mine = tempDir();
    symlinkSync(join(shared, 'pin.json'), join(mine, '.cip.json'));
    expect(untrusted(join(mine, '.cip.json'), uid, process.getgid?.())).toBe(`its folder ${shared}: others can write to it (mode 777)`);
  });
});

describe('writeProjectProfile (auth use --here)', () => {
  const inputs = { uid, gid: process.getgid?.(), allowHttp: false };

  it('writes {"profile": NAME}, readable by all (it holds no secret), in a folder without one', () => {
    const dir = tempDir();
    const { path, before } = writeProjectProfile(dir, 'prod', inputs);
    expect(path).toBe(join(dir, '.cip.json'));
    expect(before).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe('{\n  "profile": "prod"\n}\n');
    if (POSIX) expect(statSync(path).mode & 0o777).toBe(0o644 & ~process.umask());
  });

  it('replaces a valid project file, and says what it held', () => {
    const dir = tempDir();
    writeFileSync(join(dir, '.cip.json'), `{"enterpriseId": "${GUID}"}`);
    expect(writeProjectProfile(dir, 'prod', inputs).before).toEqual({ path: join(dir, '.cip.json'), enterpriseId: GUID });
    expect(JSON.parse(readFileSync(join(dir, '.cip.json'), 'utf8'))).toEqual({ profile: 'prod' });
  });

  it.each([
    ['another tool’s JSON', '{"name": "my-app", "version": "1.0.0"}', "has unknown fields 'name', 'version'"],
    ['text that is not JSON', 'profile=prod\n', 'is not valid JSON'],
    ['an empty file', '', 'is not valid JSON'],
    ['a file that gives a key twice', '{"profile": "dev", "profile": "prod"}', "has the key 'profile' twice"],
  ])('never overwrites %s, and leaves it byte for byte', (_name, text, why) => {
    const dir = tempDir();
    const path = join(dir, '.cip.json');
    writeFileSync(path, text);
    const error = usage(() => writeProjectProfile(dir, 'prod', inputs));
    expect(error.message).toBe(`the project file ${path} ${why}: cip will not replace it`);
    expect(error.hint).toBe('fix or remove it by hand');
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('never replaces a link, even to a valid project file', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'real.json'), '{"profile": "dev"}');
    symlinkSync(join(dir, 'real.json'), join(dir, '.cip.json'));
    expect(usage(() => writeProjectProfile(dir, 'prod', inputs)).message).toBe(
      `the project file ${join(dir, '.cip.json')} is a link: cip will not replace it`,
    );
    expect(readFileSync(join(dir, 'real.json'), 'utf8')).toBe('{"profile": "dev"}');
  });

  it.skipIf(!POSIX)('refuses a folder where it would be ignored', () => {
    const dir = tempDir();
    chmodSync(dir, 0o777);
    const error = usage(() => writeProjectProfile(dir, 'prod', inputs));
    expect(error.message).toBe(`cip will not write a project file in ${dir}: others can write to it (mode 777), so cip would ignore it`);
  });
});
