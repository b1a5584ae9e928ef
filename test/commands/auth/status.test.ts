// `cip auth status` in-process against the sandbox: what a user sees (exit code, stdout, stderr) and what the server received.
import { writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, afterAll, beforeEach, beforeAll } from 'vitest';
import { expectOneErrorLine, readConfig, tempDir } from '../../helpers/cli.js';
import { epochSeconds, makeJwt } from '../../helpers/jwt.js';
import { rawHttpServer, type RawHttpServer } from '../../helpers/raw-http.js';
import { fakeKeychain, interruptAt } from '../../helpers/fake-keychain.js';
import { it, test } from '../../helpers/fixture.js';
import { GUID, TOKEN, OK, configWith, noSecrets, API_KEY, SUB_KEY } from '../../helpers/token-server.js';
import { type StoredProfile } from '../../helpers/stored-profiles.js';
import {
  configPath,
  service,
  otherUrl,
  noKeys,
  writeConfig,
  keychainProfile,
  plainProfile,
  prodInKeychain,
} from '../../helpers/keychain-profiles.js';
import { TIME, NOTE, threeProfiles, lines, table, LONG_NAME_SANDBOX } from '../../helpers/fitted-tables.js';

describe('with the keychain and at the edges', () => {
  test.override({ sandboxOptions: { seed: 1 } });

  describe('auth status with the keychain', () => {
    it('reads the keychain profiles’ keys in one visit, masks them, and warns only of keys in plain text', async ({ sandbox, cip }) => {
      const { keychain, configDir } = prodInKeychain(sandbox, { dev: plainProfile() });
      const other = '1a1a1a1a-2b2b-4c4c-8d8d-3e3e3e3e3e3e';
      const result = await cip(['auth', 'status', '--json'], { keychain, configDir, env: { CIP_ENTERPRISE_ID: other } });
      expect(result.exitCode).toBe(0);
      noKeys(sandbox, result);
      const mask = (key: string) => `****${key.slice(-4)}`;
      expect(JSON.parse(result.stdout)).toEqual([
        {
          name: 'prod',
          active: true,
          inUse: true,
          protected: false,
          keys: 'keychain',
          baseUrl: sandbox.url,
          enterpriseId: sandbox.keys.enterpriseId,
          apiKey: mask(sandbox.keys.apiKey),
          subscriptionKey: mask(sandbox.keys.subscriptionKey),
          overriddenBy: ['CIP_ENTERPRISE_ID'],
        },
        {
          name: 'dev',
          active: false,
          inUse: false,
          protected: false,
          keys: 'file',
          baseUrl: 'https://api.example.com/ms',
          enterpriseId: '0b0b0b0b-1c1c-4d4d-8e8e-9f9f9f9f9f9f',
          apiKey: '****6789',
          subscriptionKey: '****ghij',
          overriddenBy: [],
        },
      ]);
      expect(result.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([
        "warning: CIP_ENTERPRISE_ID from the environment overrides profile 'prod'",
        `warning: profile 'dev' keeps its keys in plain text in ${configPath(configDir)}; move them into the keychain with 'cip auth login --profile dev --migrate'`,
      ]);
      expect(keychain.visits()).toEqual([`get ${service(sandbox)} prod`]);
    });

    it('keys gone from the keychain: null, a warning naming the entry, and the profile in use fails (exit 3) after the list', async ({
      cip,
      sandbox,
    }) => {
      const keychain = fakeKeychain();
      const configDir = tempDir();
      writeConfig(configDir, { activeProfile: 'prod', profiles: { prod: keychainProfile(sandbox) } });
      const json = await cip(['auth', 'status', '--json'], { keychain, configDir });
      expect(json.exitCode).toBe(3);
      expect(JSON.parse(json.stdout)).toMatchObject([
        { name: 'prod', keys: 'keychain', apiKey: null, subscriptionKey: null, inUse: false },
      ]);
      const gone = `the keys of profile 'prod' are gone from the keychain (service '${service(sandbox)}', account 'prod')`;
      expect(json.stderr).toBe(
        `warning: ${gone}; log in again: cip auth login --profile prod\nerror: ${gone} (log in again: cip auth login --profile prod)\n`,
      );
      const table = await cip(['auth', 'status'], { keychain, configDir, terminalColumns: 200, spinners: true });
      expect(table.exitCode).toBe(3);
      expect(table.stdout).toMatch(/^prod\s+true\s+false\s+keychain\s/m);
    });

    it('a keychain that cannot be read: a warning naming its profiles, their keys null; a file profile in use still works', async ({
      cip,
      sandbox,
    }) => {
      const keychain = fakeKeychain();
      const configDir = tempDir();
      writeConfig(configDir, {
        activeProfile: 'dev',
        profiles: { a: keychainProfile(sandbox), b: keychainProfile(sandbox, otherUrl(sandbox)), dev: plainProfile() },
      });
      const result = await cip(['auth', 'status', '--json'], { keychain, configDir, env: { FAKE_KC_FAIL: 'all' } });
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout).map((row: { name: string; apiKey: unknown }) => [row.name, row.apiKey])).toEqual([
        ['a', null],
        ['b', null],
        ['dev', '****6789'],
      ]);
      // No --migrate where the keychain does not answer: it could not work.
      expect(result.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([
        `warning: profile 'dev' keeps its keys in plain text in ${configPath(configDir)}, readable only by you (mode 0600): no keychain answers here, so keep that file out of backups and shared images`,
        "warning: cannot read the keys of 'a', 'b' from the keychain: no Secret Service on this bus",
      ]);
    });

    it('interrupted while the keychain is read: exit 130, no warning that it cannot be read', async ({ cip, sandbox }) => {
      const keychain = fakeKeychain();
      const configDir = tempDir();
      writeConfig(configDir, { activeProfile: 'dev', profiles: { a: keychainProfile(sandbox), dev: plainProfile() } });
      const result = await cip(['auth', 'status', '--json'], { keychain, configDir, ...interruptAt('read') });
      expect(result.exitCode).toBe(130);
      expect(result.stderr).not.toContain('cannot read');
      expect(result.stdout).toBe('');
    });

    const fiveInFile = () => ({
      activeProfile: 'a',
      profiles: Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((name) => [name, plainProfile()])),
    });
    const warnings = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('warning:'));

    it('profiles with their keys in the file, without a D-Bus session (a server): one warning, no --migrate, no keychain helper', async ({
      cip,
    }) => {
      const keychain = fakeKeychain();
      const configDir = tempDir();
      writeConfig(configDir, fiveInFile());
      const result = await cip(['auth', 'status', '--json'], { keychain, configDir });
      expect(result.exitCode).toBe(0);
      expect(warnings(result.stderr)).toEqual([
        `warning: profiles 'a', 'b', 'c', 'd', 'e' keep their keys in plain text in ${configPath(configDir)}, readable only by you (mode 0600): ` +
          'no keychain answers here, so keep that file out of backups and shared images',
      ]);
      expect(result.stderr).not.toContain('--migrate');
      expect(keychain.visits()).toEqual([]);
    });

    it('profiles with their keys in the file where a keychain answers: one warning that says how to move them', async ({ cip }) => {
      const keychain = fakeKeychain();
      const configDir = tempDir();
      writeConfig(configDir, fiveInFile());
      const result = await cip(['auth', 'status', '--json'], { keychain, configDir, env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x' } });
      expect(result.exitCode).toBe(0);
      expect(warnings(result.stderr)).toEqual([
        `warning: profiles 'a', 'b', 'c', 'd', 'e' keep their keys in plain text in ${configPath(configDir)}; ` +
          "move each into the keychain with 'cip auth login --profile NAME --migrate'",
      ]);
      // One visit asked whether the keychain answers.
      expect(keychain.visits()).toEqual([`get cip:https://api.example.com a`]);
    });

    it('profiles with their keys in the file where the keychain does not answer: the advice for keeping the file', async ({ cip }) => {
      const keychain = fakeKeychain();
      const configDir = tempDir();
      writeConfig(configDir, fiveInFile());
      const result = await cip(['auth', 'status', '--json'], {
        keychain,
        configDir,
        env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x', FAKE_KC_FAIL: 'all' },
      });
      expect(result.exitCode).toBe(0);
      expect(warnings(result.stderr)).toEqual([
        `warning: profiles 'a', 'b', 'c', 'd', 'e' keep their keys in plain text in ${configPath(configDir)}, readable only by you (mode 0600): ` +
          'no keychain answers here, so keep that file out of backups and shared images',
      ]);
    });

    it('CIP_CREDENTIAL_STORE=file: the file was chosen, so no --migrate and no keychain helper', async ({ cip }) => {
      const keychain = fakeKeychain();
      const configDir = tempDir();
      writeConfig(configDir, { activeProfile: 'dev', profiles: { dev: plainProfile() } });
      const result = await cip(['auth', 'status', '--json'], {
        keychain,
        configDir,
        env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x', CIP_CREDENTIAL_STORE: 'file' },
      });
      expect(result.exitCode).toBe(0);
      expect(warnings(result.stderr)).toEqual([
        `warning: profile 'dev' keeps its keys in plain text in ${configPath(configDir)}, readable only by you (mode 0600), as CIP_CREDENTIAL_STORE=file asks`,
      ]);
      expect(keychain.visits()).toEqual([]);
    });

    it('no profile, keys from the environment: the table says how to create one, then what is in use', async ({ sandbox, cip }) => {
      const result = await cip(['auth', 'status'], {
        keychain: fakeKeychain(),
        terminalColumns: 120,
        spinners: true,
        env: {
          CIP_BASE_URL: sandbox.url,
          CIP_ENTERPRISE_ID: sandbox.keys.enterpriseId,
          CIP_API_KEY: sandbox.keys.apiKey,
          CIP_SUBSCRIPTION_KEY: sandbox.keys.subscriptionKey,
        },
      });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n').slice(0, 2)).toEqual([
        "No profiles. Run 'cip auth login' to create one.",
        'A command run now would use no profile (every credential from the environment):',
      ]);
      noKeys(sandbox, result);
    });

    it('no profile and nothing usable: the table is only the error; JSON is an empty list, then the error', async ({ cip }) => {
      const configDir = tempDir();
      const table = await cip(['auth', 'status'], { configDir, terminalColumns: 120, spinners: true });
      expect(table.exitCode).toBe(3);
      expect(table.stdout).toBe('');
      const json = await cip(['auth', 'status', '--json'], { configDir });
      expect(json.exitCode).toBe(3);
      expect(JSON.parse(json.stdout)).toEqual([]);
      expect(expectOneErrorLine(json.stderr)).toBe(expectOneErrorLine(table.stderr));
    });
  });
});

describe('boundaries found by mutation testing', () => {
  test.override({ sandboxOptions: { seed: 1 } });

  /** A config folder holding these profiles, written as cip writes it (folder 0700, file 0600). */
  function configWith(profiles: Record<string, StoredProfile>, activeProfile?: string): string {
    const dir = tempDir();
    chmodSync(dir, 0o700);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ activeProfile, profiles }, null, '\t'), { mode: 0o600 });
    return dir;
  }

  describe('auth status masks keys', () => {
    it.for<[string, string]>([
      ['abcdefghijklmnopqrst', '****qrst'],
      ['abcdefghijklmnop', '****mnop'],
      ['abcdefghijklmno', '****no'],
      ['abcdefgh', '****gh'],
      ['abcdefg', '****'],
    ])('%s (hand-written in the file) is shown as %s', async ([key, masked], { sandbox, cip }) => {
      const configDir = configWith({ p: { enterpriseId: sandbox.keys.enterpriseId, apiKey: key, subscriptionKey: key } }, 'p');
      const result = await cip(['auth', 'status', '--json'], { configDir });
      const [row] = JSON.parse(result.stdout) as { apiKey: string; subscriptionKey: string }[];
      expect(row).toMatchObject({ apiKey: masked, subscriptionKey: masked });
      expect(result.stdout).not.toContain(key.slice(0, -4));
    });
  });
});

describe('at a narrow terminal', () => {
  test.override({ sandboxOptions: LONG_NAME_SANDBOX });

  describe('auth status at a terminal', () => {
    it.for([100, 80])(
      'at %i columns: NAME, ACTIVE, PROTECTED, KIND and ENTERPRISE ID whole; what it hid is said',
      async (width, { sandbox, cip }) => {
        const configDir = threeProfiles(sandbox);
        const result = await cip(['auth', 'status'], { configDir, terminalColumns: width, env: { NO_COLOR: '1' } });
        expect(result.exitCode).toBe(0);
        const { header, rows } = table(result.stdout, width);
        expect(header.slice(0, 5)).toEqual(['NAME', 'ACTIVE', 'PROTECTED', 'KIND', 'ENTERPRISE ID']);
        expect(rows.map((row) => row.slice(0, 5))).toEqual([
          ['prod', 'true', 'true', 'api-key', sandbox.keys.enterpriseId],
          ['staging', 'false', 'false', 'api-key', '11111111-2222-4333-8444-555555555555'],
          // A token names no enterprise: its cell is empty, and the split above skips it.
          ['ci-pipeline', 'false', 'false', 'token', ...(width === 100 ? [expect.stringMatching(TIME)] : [])],
        ]);
        const note = NOTE.exec(result.stderr);
        expect(note).not.toBeNull();
        const hidden = note![2]!.split(', ');
        expect(Number(note![1])).toBe(hidden.length);
        expect(hidden).toContain('baseUrl');
        // At 100 columns the token's expiry is there too, to the second.
        if (width === 100) {
          expect(header[5]).toBe('EXPIRES');
        } else {
          expect(hidden).toContain('expires');
        }
        expect(result.stdout).not.toContain('…');
      },
    );

    it('API key profiles alone at 100 columns: only BASE URL goes', async ({ sandbox, cip }) => {
      const dir = tempDir();
      const { apiKey, subscriptionKey, enterpriseId } = sandbox.keys;
      const profile = { baseUrl: 'https://api.copyl.com/ms', enterpriseId, apiKey, subscriptionKey, keys: 'file' };
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ activeProfile: 'default', profiles: { default: profile, prod: profile } }), {
        mode: 0o600,
      });
      const result = await cip(['auth', 'status'], { configDir: dir, terminalColumns: 100, env: { NO_COLOR: '1' } });
      expect(table(result.stdout, 100).header).toEqual([
        'NAME',
        'ACTIVE',
        'IN USE',
        'KEYS',
        'ENTERPRISE ID',
        'API KEY',
        'SUBSCRIPTION KEY',
      ]);
      expect(result.stderr).toContain('(1 column hidden to fit the terminal: baseUrl; widen it, or use --columns or -o json)\n');
    });

    it('--columns names the columns, in any format', async ({ cip, sandbox }) => {
      const configDir = threeProfiles(sandbox);
      const result = await cip(['auth', 'status', '--columns', 'name,expires', '-o', 'tsv'], { configDir });
      expect(result.exitCode).toBe(0);
      // The data as it is (the table writes the time shorter).
      expect(lines(result.stdout)).toEqual([
        'name\texpires',
        'prod\t',
        'staging\t',
        expect.stringMatching(/^ci-pipeline\t\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/),
      ]);
    });

    it('says when the token in use expires, to the second', async ({ cip, sandbox }) => {
      const configDir = threeProfiles(sandbox);
      const { token } = (readConfig(configDir) as { profiles: Record<string, { token: string }> }).profiles['ci-pipeline']!;
      const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number };
      const result = await cip(['auth', 'status'], { configDir, env: { CIP_PROFILE: 'ci-pipeline' } });
      expect(result.exitCode).toBe(0);
      const at = new Date(exp * 1000);
      const time = [at.getHours(), at.getMinutes(), at.getSeconds()].map((value) => String(value).padStart(2, '0')).join(':');
      expect(result.stderr).toMatch(new RegExp(`^ {2}expires +at (\\d{4}-\\d\\d-\\d\\d )?${time} \\(in (59 min|1 h)\\)$`, 'm'));
    });
  });
});

describe('what a new user hits first', () => {
  test.override({ sandboxOptions: { seed: [{ id: 'e1', name: 'alpha' }] } });

  describe('auth status with no profile', () => {
    it('at a terminal is one error line that says how to log in, exit 3', async ({ cip }) => {
      const result = await cip(['auth', 'status'], { terminalColumns: 100 });
      expect(result.exitCode).toBe(3);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        "error: not logged in: no profile and no credentials in the environment (run 'cip auth login', or set CIP_API_KEY, CIP_SUBSCRIPTION_KEY and CIP_ENTERPRISE_ID)\n",
      );
    });

    it('as JSON is still the (empty) list, then the error', async ({ cip }) => {
      const result = await cip(['auth', 'status', '--json']);
      expect(result.exitCode).toBe(3);
      expect(result.stdout).toBe('[]\n');
      expect(expectOneErrorLine(result.stderr)).toMatch(/^error: not logged in: /);
    });
  });
});

describe('tokens', () => {
  // A server of the describe's own, answering as each test says.
  let server!: RawHttpServer;
  beforeAll(async () => {
    server = await rawHttpServer();
  });
  const apiKeyProfile = () => ({ baseUrl: server.url, enterpriseId: GUID, apiKey: API_KEY, subscriptionKey: SUB_KEY });
  const tokenProfile = (token = TOKEN) => ({ kind: 'token', baseUrl: server.url, keys: 'file', token, subscriptionKey: SUB_KEY });

  afterAll(() => server.close());

  beforeEach(() => {
    server.requests.length = 0;
    server.respond(OK);
  });

  describe('auth status with a token', () => {
    it('shows the kind, the token masked and its expiry, for each profile and for the credential in use', async ({ cip }) => {
      const configDir = configWith({ ci: tokenProfile(), a: apiKeyProfile() });
      const json = await cip(['auth', 'status', '--json'], { configDir });
      expect(json.exitCode).toBe(0);
      const exp = new Date(JSON.parse(Buffer.from(TOKEN.split('.')[1]!, 'base64url').toString()).exp * 1000).toISOString();
      expect(JSON.parse(json.stdout)).toEqual([
        {
          name: 'ci',
          active: true,
          inUse: true,
          protected: false,
          kind: 'token',
          keys: 'file',
          baseUrl: server.url,
          enterpriseId: null,
          apiKey: null,
          token: `****${TOKEN.slice(-4)}`,
          expires: exp,
          subscriptionKey: '****0123',
          overriddenBy: [],
        },
        {
          name: 'a',
          active: false,
          inUse: false,
          protected: false,
          kind: 'api-key',
          keys: 'file',
          baseUrl: server.url,
          enterpriseId: GUID,
          apiKey: '****6789',
          token: null,
          expires: null,
          subscriptionKey: '****0123',
          overriddenBy: [],
        },
      ]);
      expect(json.stderr).toMatch(/^ {2}kind +token$/m);
      expect(json.stderr).toMatch(new RegExp(`^ {2}token +\\*{4}${TOKEN.slice(-4)} {2}\\(from profile 'ci'\\)$`, 'm'));
      expect(json.stderr).toMatch(/^ {2}expires +at [\d: -]+ \(in (59 min|1 h)\)$/m);
      noSecrets(json);
      const table = await cip(['auth', 'status', '-o', 'table'], { configDir });
      expect(table.stdout).toMatch(
        /^NAME\s+ACTIVE\s+IN USE\s+KIND\s+KEYS\s+BASE URL\s+ENTERPRISE ID\s+API KEY\s+TOKEN\s+EXPIRES\s+SUBSCRIPTION KEY$/m,
      );
      noSecrets(table);
    });

    it('a token in use that has expired: the profiles, then exit 3', async ({ cip }) => {
      const configDir = configWith({ ci: tokenProfile(makeJwt({ exp: epochSeconds(-7200) })) });
      const result = await cip(['auth', 'status', '--json'], { configDir });
      expect(result.exitCode).toBe(3);
      expect(JSON.parse(result.stdout)).toMatchObject([{ name: 'ci', kind: 'token' }]);
      expect(result.stderr).toMatch(/^ {2}expires +expired at [\d: -]+, 2 h ago$/m);
      expect(result.stderr).toMatch(/\nerror: the token of profile 'ci' expired at [\d: -]+, 2 h ago: .*\n$/);
    });
  });
});
