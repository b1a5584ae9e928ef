// `cip env list` in-process against the sandbox: what a user sees (exit code, stdout, stderr) and what the server received.
import { describe, expect } from 'vitest';
import { expectOneErrorLine, sandboxEnv } from '../../helpers/cli.js';
import { it, test, type Fixtures } from '../../helpers/fixture.js';
import { sent } from '../../helpers/requests.js';
import { AT_TERMINAL } from '../../helpers/harness.js';
import { type Sandbox } from '../../../src/sandbox/index.js';
import { reads, NAMED_SANDBOX } from '../../helpers/named-environments.js';
import { lines } from '../../helpers/fitted-tables.js';
import { TWO_ENVIRONMENTS_SANDBOX } from '../../helpers/two-environments.js';
import { ID, WIDE, ESC, WIDE_SANDBOX } from '../../helpers/wide-record.js';

describe('boundaries found by mutation testing', () => {
  test.override({ sandboxOptions: { seed: 1 } });

  describe('the list envelope', () => {
    it.for(['value', 'Items', 'DATA', 'results'])('{"%s": [...]} is unwrapped', async (envelope, { sandbox, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 200, body: JSON.stringify({ [envelope]: [{ id: 'x1', name: 'one' }] }) } });
      const result = await cip(['env', 'list', '--json'], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual([{ id: 'x1', name: 'one' }]);
    });

    it.for(['errors', 'warnings', 'environmentsList'])(
      'an object whose only array is "%s" is not a list: exit 7',
      async (field, { sandbox, cip }) => {
        sandbox.inject({ fault: { kind: 'status', status: 200, body: JSON.stringify({ [field]: [{ id: 'x1' }] }) } });
        const result = await cip(['env', 'list', '--json'], { env: sandboxEnv(sandbox) });
        expect(result.exitCode).toBe(7);
        expect(expectOneErrorLine(result.stderr)).toBe(
          'error: cannot list environments: the API answered with something that is not a list',
        );
        expect(result.stdout).toBe('');
      },
    );
  });
});

describe('at the edges', () => {
  test.override({ sandboxOptions: TWO_ENVIRONMENTS_SANDBOX });

  describe('env list', () => {
    it('--columns with no names says what it expects', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'list', '--columns', ' , '], { env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe(
        "error: option '--columns <fields>' argument ' , ' is invalid. expected a comma-separated list of field names",
      );
      expect(sent(sandbox)).toEqual([]);
    });

    const PARTIAL = '(nothing is shown: cip never reports part of a list as the whole)';
    it.for<[unknown, Record<string, string>, string]>([
      [
        { value: [{ id: 'e1' }, { id: 'e2' }], nextPageToken: 'abc' },
        {},
        'says the list goes on (nextPageToken), but has no next link cip can follow',
      ],
      [
        { items: [{ id: 'e1' }], continuationToken: '+RID:x' },
        {},
        'says the list goes on (continuationToken), but has no next link cip can follow',
      ],
      [{ data: [{ id: 'e1' }], hasMore: true }, {}, 'says the list goes on (hasMore: true), but has no next link cip can follow'],
      [
        { data: [{ id: 'e1' }], links: { next: '/ms/Environments?page=2' } },
        {},
        'says the list goes on (links.next), but has no next link cip can follow',
      ],
      [
        [{ id: 'e1' }],
        { 'x-ms-continuation': 'tok' },
        'says the list goes on (the x-ms-continuation header), but has no next link cip can follow',
      ],
    ])(
      '%j (headers %j): the answer says there is more than it holds: exit 7, no partial list',
      async ([body, headers, message], { sandbox, env, cip }) => {
        sandbox.inject({ fault: { kind: 'status', status: 200, body: JSON.stringify(body), headers } });
        const result = await cip(['env', 'list', '--json'], { env });
        expect(result.exitCode).toBe(7);
        expect(result.stdout).toBe('');
        expect(expectOneErrorLine(result.stderr)).toBe(`error: cannot list environments: the API's answer ${message} ${PARTIAL}`);
      },
    );

    it.for<[unknown, Record<string, string>, string]>([
      [{ totalCount: 500, value: [{ id: 'e1' }, { id: 'e2' }] }, {}, 'the API says the list holds 500 (totalCount), but its answer held 2'],
      [
        { '@odata.count': 3, value: [{ id: 'e1' }, { id: 'e2' }] },
        {},
        'the API says the list holds 3 (@odata.count), but its answer held 2',
      ],
      [[{ id: 'e1' }], { 'X-Total-Count': '2' }, 'the API says the list holds 2 (the x-total-count header), but its answer held 1'],
      [
        { value: [], items: [{ id: 'e1' }] },
        {},
        'the API answered with 2 lists (value, items), and cip cannot tell which one is the environments',
      ],
    ])(
      '%j (headers %j): a count above what came, or two lists: exit 7, no list',
      async ([body, headers, message], { sandbox, env, cip }) => {
        sandbox.inject({ fault: { kind: 'status', status: 200, body: JSON.stringify(body), headers } });
        const result = await cip(['env', 'list', '--json'], { env });
        expect(result.exitCode).toBe(7);
        expect(result.stdout).toBe('');
        expect(expectOneErrorLine(result.stderr)).toBe(`error: cannot list environments: ${message} ${PARTIAL}`);
      },
    );

    it.for([
      { value: [{ id: 'e1' }], nextPageToken: null, hasMore: false, '@odata.count': 1 },
      { items: [{ id: 'e1' }], continuationToken: '', totalCount: 0 },
      { data: [{ id: 'e1' }], meta: { total: 1, next: null } },
    ])('%j: an answer that says it is whole is the list', async (body, { sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 200, body: JSON.stringify(body) } });
      const result = await cip(['env', 'list', '--json'], { env });
      expect(result).toEqual({ exitCode: 0, stdout: expect.stringContaining('"e1"') as string, stderr: '' });
    });

    it('shows a spinner while the list loads, at a terminal', async ({ env, cip }) => {
      const result = await cip(['env', 'list'], { env, ...AT_TERMINAL });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toContain('Loading environments');
      expect(result.stdout).toContain('alpha');
    });
  });
});

describe('the basics', () => {
  // With credentials from the environment (the CI case).

  test.override({ sandboxOptions: { seed: 3 } });

  describe('cip env list', () => {
    it('prints the bare array as JSON when stdout is not a terminal, with the three headers sent', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'list'], { env });
      expect(result.exitCode).toBe(0);
      const list = JSON.parse(result.stdout) as { id: string }[];
      expect(list.map((item) => item.id)).toEqual([...sandbox.environments.keys()]);
      expect(result.stdout).toBe(`${JSON.stringify(list, null, 2)}\n`);
      expect(result.stderr).toBe('');
      const [request] = sandbox.requests;
      expect(sandbox.requests).toHaveLength(1);
      expect(request!.method).toBe('GET');
      expect(request!.url).toBe('/ms/Environments');
      expect(request!.headers.authorization).toBe(`ApiKey ${sandbox.keys.apiKey}`);
      expect(request!.headers['ocp-apim-subscription-key']).toBe(sandbox.keys.subscriptionKey);
      expect(request!.headers.enterpriseid).toBe(sandbox.keys.enterpriseId);
      expect(request!.headers.accept).toBe('application/json');
      expect(request!.headers['user-agent']).toMatch(/^cip\/\d+\.\d+\.\d+\S* node\/v\d+/);
    });

    it('renders a table with id first and name-like columns next when asked', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'list', '-o', 'table'], { env });
      expect(result.exitCode).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^ID\s+NAME\s+DISPLAY NAME\s+/);
      expect(lines).toHaveLength(4);
      for (const environment of sandbox.environments.values()) expect(result.stdout).toContain(environment.id);
      expect(result.stdout).not.toContain('\u001b[');
      expect(result.stdout).toContain('{3 fields}');
    });

    it('shows only --columns, in that order', async ({ env, cip }) => {
      const result = await cip(['env', 'list', '--columns', 'name,id', '-o', 'table'], { env });
      expect(result.exitCode).toBe(0);
      const [header, first] = result.stdout.split('\n');
      expect(header).toMatch(/^NAME\s+ID$/);
      expect(first).toMatch(/^env-0001\s+[0-9a-f-]{36}$/);
    });

    it('--json and CIP_OUTPUT=json override the table', async ({ env, cip }) => {
      for (const [args, extra] of [
        [['--json'], {}],
        [[], { CIP_OUTPUT: 'json' }],
        [['-o', 'json'], { CIP_OUTPUT: 'table' }],
      ] as const) {
        const result = await cip(['env', 'list', ...args], { env: { ...env, ...extra } });
        expect(result.exitCode).toBe(0);
        expect(Array.isArray(JSON.parse(result.stdout))).toBe(true);
      }
    });

    it('a CIP_OUTPUT it does not know is exit 2 before any request', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'list'], { env: { ...env, CIP_OUTPUT: 'xml' } });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe("error: CIP_OUTPUT must be one of table, json, yaml, tsv, not 'xml'");
      expect(sandbox.requests).toHaveLength(0);
    });

    it('a 404 for the list itself points at the base URL', async ({ sandbox, env, cip }) => {
      const wrong = sandbox.url.replace(/\/ms$/, '/wrong');
      const result = await cip(['env', 'list'], { env: { ...env, CIP_BASE_URL: wrong } });
      expect(result.exitCode).toBe(5);
      expect(expectOneErrorLine(result.stderr)).toContain(`(is the base URL right? cip asked ${wrong}/Environments)`);
    });

    for (const envelope of ['value', 'items', 'data', 'results'] as const) {
      it(`unwraps a list wrapped in {"${envelope}": [...]}`, async ({ cip, startSandbox }) => {
        const wrapped = await startSandbox({ seed: 2, envelope });
        const result = await cip(['env', 'list'], { env: sandboxEnv(wrapped) });
        expect(result.exitCode).toBe(0);
        const list = JSON.parse(result.stdout) as { id: string }[];
        expect(list.map((item) => item.id)).toEqual([...wrapped.environments.keys()]);
      });
    }

    it('an empty list is [] in JSON and a friendly line on stderr in a table', async ({ cip, startSandbox }) => {
      const empty = await startSandbox({ seed: 0 });
      const json = await cip(['env', 'list'], { env: sandboxEnv(empty) });
      expect(json).toMatchObject({ exitCode: 0, stdout: '[]\n', stderr: '' });
      const table = await cip(['env', 'list', '-o', 'table'], { env: sandboxEnv(empty) });
      expect(table.exitCode).toBe(0);
      expect(table.stdout).toBe('');
      expect(table.stderr).toMatch(/No environments yet/);
    });

    it('a body that is not a list is a server error (7)', async ({ sandbox, env, cip }) => {
      sandbox.inject({
        fault: { kind: 'status', status: 200, body: '{"unexpected":true}', headers: { 'content-type': 'application/json' } },
      });
      const result = await cip(['env', 'list'], { env });
      expect(result.exitCode).toBe(7);
      expect(expectOneErrorLine(result.stderr)).toMatch(/not a list/);
      expect(result.stdout).toBe('');
    });
  });
});

describe("the base URL's origin", () => {
  test.override({ sandboxOptions: { seed: [{ id: 'e1', name: 'alpha' }] } });

  describe('a next-page link with a user name and password', () => {
    const link = (sandbox: Sandbox) => `${sandbox.url.replace('//', '//user:hunter2-pw@')}/Environments?page=2`;
    it.for<[string, (sandbox: Sandbox) => { body: string; headers?: Record<string, string> }]>([
      ['in the body', (sandbox) => ({ body: JSON.stringify({ value: [{ id: 'e1' }], '@odata.nextLink': link(sandbox) }) })],
      ['in a Link header', (sandbox) => ({ body: '[{"id":"e1"}]', headers: { Link: `<${link(sandbox)}>; rel="next"` } })],
    ])(
      '%s is a broken answer (exit 7) that never shows the password, and is not followed',
      async ([_where, answer], { sandbox, env, cip }) => {
        sandbox.inject({ fault: { kind: 'status', status: 200, ...answer(sandbox) } });
        const result = await cip(['env', 'list'], { env });
        expect(result.exitCode).toBe(7);
        expect(result.stdout).toBe('');
        expect(result.stderr).not.toContain('hunter2');
        expect(expectOneErrorLine(result.stderr)).toBe(
          `error: cannot list environments: the API's next-page link holds a user name or password (${sandbox.url.replace('//', '//***@')}/Environments?page=2) (nothing was sent; the list is incomplete, so nothing is shown)`,
        );
        expect(sandbox.requests).toHaveLength(1);
      },
    );
  });
});

describe('at a terminal', () => {
  test.override({ sandboxOptions: WIDE_SANDBOX });

  // A terminal that can show colour, where colour is asked for.
  test.override('env', ({ sandbox }) => ({ ...sandboxEnv(sandbox), TERM: 'xterm-256color' }));

  describe('a table at a terminal', () => {
    it('fits the width, keeps the id whole, and says which columns it hid', async ({ env, cip }) => {
      const result = await cip(['env', 'list', '--no-color'], { env, terminalColumns: 80 });
      expect(result.exitCode).toBe(0);
      for (const line of lines(result.stdout)) expect(line.length).toBeLessThanOrEqual(80);
      expect(result.stdout).toContain(ID);
      const note = /^\((\d+) columns? hidden to fit the terminal: ([^;]+); widen it, or use --columns or -o json\)$/m.exec(result.stderr);
      expect(note, result.stderr).not.toBeNull();
      const hidden = note![2]!.split(', ');
      expect(Number(note![1])).toBe(hidden.length);
      for (const column of hidden) expect(result.stdout).not.toContain(column.toUpperCase());
    });

    it('says "1 column" when one is hidden', async ({ env, cip }) => {
      const result = await cip(['env', 'list', '--no-color', '--columns', 'id,name,description,owner'], { env, terminalColumns: 60 });
      expect(result.stderr).toContain('(1 column hidden to fit the terminal: owner; widen it, or use --columns or -o json)');
    });

    it('keeps the id column whole wherever --columns puts it', async ({ env, cip }) => {
      const result = await cip(['env', 'list', '--no-color', '--columns', 'description,owner,ID'], { env, terminalColumns: 60 });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain(ID);
      for (const line of lines(result.stdout)) expect(line.length).toBeLessThanOrEqual(60);
    });

    it('with room for everything hides nothing and says nothing', async ({ env, cip }) => {
      const result = await cip(['env', 'list', '--no-color', '--columns', 'id,name'], { env, terminalColumns: 200 });
      expect(result.stderr).toBe('');
      expect(lines(result.stdout)).toHaveLength(2);
    });

    it('in a pipe is never cut, whatever the width of the terminal elsewhere', async ({ env, cip }) => {
      const result = await cip(['env', 'list', '-o', 'table'], { env });
      expect(result.stdout).toContain(WIDE.description);
      expect(result.stdout).toContain(WIDE.region);
      expect(result.stderr).toBe('');
    });

    it('has bold headers at a colour terminal, and none with NO_COLOR, --no-color, CI or TERM=dumb', async ({ env, cip }) => {
      const coloured = await cip(['env', 'list', '--columns', 'id,name'], { env, terminalColumns: 120 });
      expect(coloured.stdout.startsWith(`${ESC}[1mID`)).toBe(true);
      for (const [extraEnv, args] of [
        [{ NO_COLOR: '1' }, []],
        [{}, ['--no-color']],
        [{ CI: 'true' }, []],
        [{ TERM: 'dumb' }, []],
      ] as const) {
        const plain = await cip(['env', 'list', '--columns', 'id,name', ...args], { env: { ...env, ...extraEnv }, terminalColumns: 120 });
        expect(plain.stdout).not.toContain(ESC);
        expect(plain.stdout.startsWith('ID')).toBe(true);
      }
    });
  });

  describe('text beyond ASCII', () => {
    it('is aligned by display width: wide characters take two cells (the Unicode tables load on demand)', async ({ cip, startSandbox }) => {
      const wide = await startSandbox({
        seed: [
          { id: 'a1', name: '日本語', type: 'x' },
          { id: 'b2', name: 'ab', type: 'y' },
        ],
      });
      try {
        const result = await cip(['env', 'list', '-o', 'table', '--columns', 'id,name,type'], { env: sandboxEnv(wide) });
        expect(result.exitCode).toBe(0);
        expect(lines(result.stdout)).toEqual(['ID  NAME    TYPE', 'a1  日本語  x', 'b2  ab      y']);
      } finally {
        await wide.close();
      }
    });
  });
});

describe('small edges', () => {
  test.override({ sandboxOptions: { seed: [{ id: 'e1', name: 'alpha', type: 'Test' }] } });

  describe('env list --columns', () => {
    it('takes a list with spaces and empty items', async ({ sandbox, cip }) => {
      const result = await cip(['env', 'list', '-o', 'table', '--columns', ' name , ,type '], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(0);
      expect(result.stdout.split('\n')[0]).toMatch(/^NAME\s+TYPE$/);
    });

    it.for([',', ' , ', ''])('refuses %j: exit 2', async (value, { sandbox, cip }) => {
      const result = await cip(['env', 'list', '--columns', value], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toMatch(/^error: option '--columns <fields>' argument '.*' is invalid\./);
    });
  });
});

describe('table width', () => {
  // `env list` at a terminal, on the data `cip sandbox` serves, at the widths people use: the id and the name are
  // always there (as kubectl and gh keep NAME), long cells are cut with … before a column is hidden, and the
  // columns hidden are the least important ones (the rightmost).

  // What `cip sandbox` serves: its default three environments.
  test.override({ sandboxOptions: { seed: 3 } });

  /** The ids and names of the sandbox's environments, in its order. */
  function seeded(sandbox: Sandbox): { ids: string[]; names: string[] } {
    const records = [...sandbox.environments.values()] as { id: string; name: string }[];
    return { ids: records.map((record) => record.id), names: records.map((record) => record.name) };
  }

  async function listAt({ sandbox, cip }: Pick<Fixtures, 'sandbox' | 'cip'>, columns: number) {
    const result = await cip(['env', 'list', '--no-color'], { env: sandboxEnv(sandbox), terminalColumns: columns });
    expect(result.exitCode).toBe(0);
    const [header, ...rows] = lines(result.stdout);
    for (const line of [header!, ...rows]) expect(line.length, line).toBeLessThanOrEqual(columns);
    expect(rows).toHaveLength(3);
    return { header: header!.split(/ {2,}/), rows, stderr: result.stderr, ...seeded(sandbox) };
  }

  describe('env list at a terminal keeps ID and NAME', () => {
    it('at 40 columns: ID (cut, with …) and NAME whole; the note says so', async ({ sandbox, cip }) => {
      const { header, rows, stderr, ids, names } = await listAt({ sandbox, cip }, 40);
      expect(header).toEqual(['ID', 'NAME']);
      rows.forEach((row, index) => {
        const [id, name] = row.split(/ {2,}/);
        expect(name).toBe(names[index]);
        expect(id).toMatch(/…$/);
        expect(ids[index]!.startsWith(id!.slice(0, -1))).toBe(true);
        expect(id!.length).toBeGreaterThanOrEqual(9);
      });
      expect(stderr).toBe(
        '(id cut and 9 columns hidden to fit the terminal: displayName, description, type, isActive, region, createdAt, updatedAt, tags, settings; widen it, or use --columns or -o json)\n',
      );
    });

    it('at 80 columns: the id whole, NAME, and long cells cut before columns are hidden', async ({ sandbox, cip }) => {
      const { header, rows, stderr, ids, names } = await listAt({ sandbox, cip }, 80);
      expect(header.slice(0, 4)).toEqual(['ID', 'NAME', 'DISPLAY NAME', 'DESCRIPTION']);
      rows.forEach((row, index) => expect(row.startsWith(`${ids[index]}  ${names[index]}  `)).toBe(true));
      expect(rows.join('\n')).toContain('…');
      expect(stderr).toBe(
        '(7 columns hidden to fit the terminal: type, isActive, region, createdAt, updatedAt, tags, settings; widen it, or use --columns or -o json)\n',
      );
    });

    it('at 120 columns: seven columns shown, the four least important hidden', async ({ sandbox, cip }) => {
      const { header, rows, stderr, ids, names } = await listAt({ sandbox, cip }, 120);
      expect(header).toEqual(['ID', 'NAME', 'DISPLAY NAME', 'DESCRIPTION', 'TYPE', 'IS ACTIVE', 'REGION']);
      rows.forEach((row, index) => expect(row.startsWith(`${ids[index]}  ${names[index]}  `)).toBe(true));
      expect(stderr).toBe(
        '(4 columns hidden to fit the terminal: createdAt, updatedAt, tags, settings; widen it, or use --columns or -o json)\n',
      );
    });

    it('with --columns, the name is kept beside the id wherever they are', async ({ sandbox, cip }) => {
      const { ids, names } = seeded(sandbox);
      const result = await cip(['env', 'list', '--no-color', '--columns', 'description,name,id'], {
        env: sandboxEnv(sandbox),
        terminalColumns: 40,
      });
      const [header, ...rows] = lines(result.stdout);
      expect(header!.split(/ {2,}/)).toEqual(['NAME', 'ID']);
      rows.forEach((row, index) => expect(row.startsWith(`${names[index]}  ${ids[index]!.slice(0, 20)}`)).toBe(true));
      for (const line of lines(result.stdout)) expect(line.length).toBeLessThanOrEqual(40);
      expect(result.stderr).toBe('(id cut and 1 column hidden to fit the terminal: description; widen it, or use --columns or -o json)\n');
    });
  });
});

describe('the everyday workflow', () => {
  // Read as JSON texts, so the store keeps the exact digits as the sandbox parses them.
  test.override({ sandboxOptions: NAMED_SANDBOX });

  describe('lists in pages', () => {
    const page = (items: unknown[], next?: string, style: 'odata' | 'next' | 'nextLink' = 'odata') => {
      const key = { odata: '@odata.nextLink', next: 'next', nextLink: 'nextLink' }[style];
      return JSON.stringify(next === undefined ? { value: items } : { value: items, [key]: next });
    };
    const onPage = (query: string) => (request: { url: string }) => request.url === `/ms/Environments${query}`;

    it('follows @odata.nextLink, nextLink, next and Link headers to the last page, on the same origin only', async ({
      sandbox,
      env,
      cip,
    }) => {
      sandbox.inject(
        { fault: { kind: 'status', status: 200, body: page([{ id: 'p1' }], `${sandbox.url}/Environments?page=2`) }, match: onPage('') },
        { fault: { kind: 'status', status: 200, body: page([{ id: 'p2' }], '?page=3', 'nextLink') }, match: onPage('?page=2') },
        {
          fault: {
            kind: 'status',
            status: 200,
            body: '[{"id":"p3"}]',
            headers: { link: `<${sandbox.url}/Environments?page=4>; rel="next"` },
          },
          match: onPage('?page=3'),
        },
        { fault: { kind: 'status', status: 200, body: page([{ id: 'p4' }], '/ms/Environments?page=5', 'next') }, match: onPage('?page=4') },
        { fault: { kind: 'status', status: 200, body: page([{ id: 'p5' }]) }, match: onPage('?page=5') },
      );
      const result = await cip(['env', 'list'], { env });
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual([{ id: 'p1' }, { id: 'p2' }, { id: 'p3' }, { id: 'p4' }, { id: 'p5' }]);
      expect(reads(sandbox).map((request) => request.url)).toEqual([
        '/ms/Environments',
        '/ms/Environments?page=2',
        '/ms/Environments?page=3',
        '/ms/Environments?page=4',
        '/ms/Environments?page=5',
      ]);
      for (const request of reads(sandbox)) expect(request.headers.authorization).toBe(`ApiKey ${sandbox.keys.apiKey}`);
    });

    it('refuses a next link to another origin: exit 7, and nothing is sent there', async ({ sandbox, env, cip, startSandbox }) => {
      const elsewhere = await startSandbox();
      sandbox.inject({ fault: { kind: 'status', status: 200, body: page([{ id: 'p1' }], `${elsewhere.url}/Environments?page=2`) } });
      const result = await cip(['env', 'list'], { env });
      expect(result.exitCode).toBe(7);
      expect(result.stdout).toBe('');
      expect(expectOneErrorLine(result.stderr)).toBe(
        `error: cannot list environments: the API's next-page link goes to another origin (${new URL(elsewhere.url).origin}); cip sends the keys only to ${new URL(sandbox.url).origin} (nothing was sent there; the list is incomplete, so nothing is shown)`,
      );
      expect(elsewhere.requests).toHaveLength(0);
    });

    it('stops a chain of next links that loops: exit 7', async ({ sandbox, env, cip }) => {
      sandbox.inject(
        { fault: { kind: 'status', status: 200, body: page([{ id: 'p1' }], '?page=2') }, match: onPage('') },
        { fault: { kind: 'status', status: 200, body: page([{ id: 'p2' }], `${sandbox.url}/Environments`) }, match: onPage('?page=2') },
      );
      const result = await cip(['env', 'list'], { env });
      expect(result.exitCode).toBe(7);
      expect(expectOneErrorLine(result.stderr)).toBe(
        "error: cannot list environments: the API's next-page links loop (page 2 links back to an earlier page)",
      );
      expect(reads(sandbox)).toHaveLength(2);
    });

    it('names are found on any page', async ({ sandbox, env, cip }) => {
      sandbox.inject(
        { fault: { kind: 'status', status: 200, body: page([{ id: 'p1', name: 'one' }], '?page=2') }, match: onPage('') },
        { fault: { kind: 'status', status: 200, body: page([{ id: 'p2', name: 'two' }]) }, match: onPage('?page=2') },
      );
      const result = await cip(['env', 'get', 'two'], { env });
      expect(JSON.parse(result.stdout)).toEqual({ id: 'p2', name: 'two' });
    });
  });

  describe('--columns is checked', () => {
    it('an unknown column is exit 2, naming the fields', async ({ env, cip }) => {
      const result = await cip(['env', 'list', '--columns', 'id,colour'], { env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe(
        "error: unknown column 'colour'; the fields are: id, name, displayName, description, type, isActive, region, tags, settings, quota, ratio, Name (nested fields are named with dots (settings.retention); names match in any letter case)",
      );
      expect(result.stdout).toBe('');
    });

    it('applies to JSON: each object keeps only those fields, in that order', async ({ env, cip }) => {
      const result = await cip(['env', 'list', '--json', '--columns', 'NAME,id,settings.retention'], { env });
      expect(result.exitCode).toBe(0);
      const rows = JSON.parse(result.stdout) as Record<string, unknown>[];
      expect(
        result.stdout.startsWith('[\n  {\n    "name": "staging",\n    "id": "e1",\n    "settings": {\n      "retention": 30\n    }\n  }'),
      ).toBe(true);
      expect(rows[1]).toEqual({ name: 'prod', id: 'e2' });
    });

    it('matches header labels and nested paths in a table', async ({ env, cip }) => {
      const result = await cip(['env', 'list', '-o', 'table', '--columns', 'display name,settings.retention'], { env });
      expect(result.exitCode).toBe(0);
      expect(result.stdout.split('\n')[0]).toMatch(/^DISPLAY NAME\s+SETTINGS\.RETENTION$/);
      expect(result.stdout.split('\n')[1]).toMatch(/^Staging\s+30$/);
    });
  });

  describe('a paged sandbox', () => {
    it.for(['odata', 'link', 'next'] as const)(
      'every item of a 5-page list (%s), and no key sent to a foreign next link',
      async (paging, { cip, startSandbox }) => {
        const paged = await startSandbox({ seed: 23, pageSize: 5, paging });
        try {
          const pagedEnv = sandboxEnv(paged);
          const result = await cip(['env', 'list'], { env: pagedEnv });
          expect(result.exitCode).toBe(0);
          expect((JSON.parse(result.stdout) as { id: string }[]).map((item) => item.id)).toEqual([...paged.environments.keys()]);
          expect(paged.requests.map((request) => request.url)).toEqual([
            '/ms/Environments',
            ...[2, 3, 4, 5].map((page) => `/ms/Environments?page=${page}`),
          ]);
          paged.reset();
          paged.inject({ fault: { kind: 'next-link', to: 'foreign' }, match: (request) => request.url.endsWith('page=3') });
          const foreign = await cip(['env', 'list'], { env: pagedEnv });
          expect(foreign.exitCode).toBe(7);
          expect(expectOneErrorLine(foreign.stderr)).toMatch(
            /^error: cannot list environments: the API's next-page link goes to another origin \(http:\/\/127\.0\.0\.2:\d+\)/,
          );
          expect(paged.requests).toHaveLength(3);
          paged.reset();
          paged.inject({ fault: { kind: 'next-link', to: 'loop' }, match: (request) => request.url.endsWith('page=2') });
          expect((await cip(['env', 'list'], { env: pagedEnv })).exitCode).toBe(7);
        } finally {
          await paged.close();
        }
      },
    );
  });
});
