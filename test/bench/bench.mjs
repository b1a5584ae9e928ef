// `npm run bench`: start-up, list, get, create, update and delete timings of the built cip against the floors no
// Node.js program can beat, measured in the same run and interleaved run by run, so that drift in machine load
// hits both sides alike: `node -e 0` for start-up, and for API calls a bare node:http(s) script that makes the
// same requests and prints the same JSON (test/bench/floor-http.cjs: CommonJS, as cip's entry is; an ES module
// floor pays for Node's module loader, about 10 ms, and flattered every ratio by as much). Each row reports wall
// time and CPU time (user + system, exact: the kernel's own count, read by test/bench/measure.py), both as medians,
// and peak RSS; the ratios are ratios of medians. Rows run twice: in this machine's environment (where
// NODE_EXTRA_CA_CERTS names the system bundle, whose loading costs every Node process tens of milliseconds and
// dilutes every ratio) and with only PATH set, where cip's own cost shows undiluted.
// Prints a Markdown table, writes it to test/bench/RESULTS.md and into docs/performance.md between the bench markers,
// as the section of this Node's major: run it once with each Node on PATH (`PATH=/path/to/node26/bin:$PATH npm run
// bench`), and each keeps its own.
// BENCH_RUNS (default 10) sets the runs per measurement; the 100,000-row and delete rows use half of them (at
// least 5), start-up rows five times as many. BENCH_ONLY=deletes runs only the "200 deletes" row and prints it,
// writing no file; BENCH_ONLY=api only the API command rows.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_VERSION as SEA_NODE_VERSION } from '../../scripts/sea-node.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CIP = join(root, 'bin', 'cip.cjs');
const FLOOR = join(root, 'test', 'bench', 'floor-http.cjs');
const FLOOR_FETCH = join(root, 'test', 'bench', 'floor-fetch.cjs');
const FLOOR_DELETE = join(root, 'test', 'bench', 'floor-delete.cjs');
// The single executable, when `npm run package` has built it (it is not rebuilt here): its rows compare it too,
// when this is the Node it carries (scripts/sea-node.mjs), whose floors are those to compare it with.
const SEA = join(root, 'release', 'cip-linux-x64');
const HAS_SEA = existsSync(SEA) && process.versions.node === SEA_NODE_VERSION;
if (existsSync(SEA) && !HAS_SEA) {
  process.stderr.write(`skipped: the single executable's rows (it carries Node ${SEA_NODE_VERSION}; this is ${process.version})\n`);
}
const ONLY = process.env.BENCH_ONLY;
if (ONLY !== undefined && ONLY !== 'deletes' && ONLY !== 'api')
  throw new Error(`BENCH_ONLY=${ONLY}: only 'deletes' or 'api' can run alone`);
const GNU_TIME = '/usr/bin/time';
const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 10));
// Runs for the rows that take seconds each: the 100,000-row lists and the 200 deletes.
const LONG_RUNS = Math.max(5, Math.round(RUNS / 2));
const WARMUP = 2;
// Start-up rows are short and noisy (the floor itself varies by tens of ms here): they get five times the runs.
const STARTUP_RUNS = RUNS * 5;
const scratch = mkdtempSync(join(tmpdir(), 'cip-bench-'));
const hasTime = existsSync(GNU_TIME);
const EXTRA_CA = process.env.NODE_EXTRA_CA_CERTS;
// Commands run in this machine's own environment (as its users run them), less any cip settings.
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CIP_')));
const CLEAN_ENV = { PATH: process.env.PATH };
const loads = [];

/**
 * The measurer (test/bench/measure.py): one process for the whole run, which forks each command and reads its
 * rusage. Without python3, GNU time measures instead, in 10 ms steps of CPU (half a step each is added back, so
 * that means are not biased low), and wall time includes GNU time's own start.
 */
function startMeasurer() {
  try {
    execFileSync('python3', ['-c', 'import os; os.wait4'], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  const child = spawn('python3', [join(root, 'test', 'bench', 'measure.py')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = [];
  let buffered = '';
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      waiting.shift()(JSON.parse(line));
    }
  });
  return {
    run: (request) =>
      new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`${JSON.stringify(request)}\n`);
      }),
    stop: () => child.stdin.end(),
  };
}
const measurer = startMeasurer();
if (!measurer) process.stderr.write('python3 not found: CPU times from GNU time, in 10 ms steps\n');

/**
 * One run: wall time in ms (fork to exit), CPU time in ms and peak RSS in MiB, output to a file. `env.CLEAN`
 * starts from only PATH instead of this machine's environment.
 */
async function once(args, env) {
  const fullEnv = Object.fromEntries(
    Object.entries({ ...(env.CLEAN ? CLEAN_ENV : baseEnv), HOME: scratch, ...env, CLEAN: undefined }).filter(
      ([, value]) => value !== undefined,
    ),
  );
  const stdout = join(scratch, 'stdout');
  const stderr = join(scratch, 'stderr');
  const failed = (code) => new Error(`node ${args.join(' ')} exited ${code}: ${readFileSync(stderr, 'utf8')}`);
  if (measurer) {
    const result = await measurer.run({ argv: args[0] === SEA ? args : [process.execPath, ...args], env: fullEnv, stdout, stderr });
    if (result.code !== 0) throw failed(result.code);
    return { ms: result.wall, cpu: result.cpu, rss: result.rss };
  }
  const timeFile = join(scratch, 'time');
  // The single executable runs by itself; everything else is a script for this Node.
  const line = args[0] === SEA ? args : [process.execPath, ...args];
  const [command, argv] = hasTime ? [GNU_TIME, ['-f', '%U %S %M', '-o', timeFile, ...line]] : [line[0], line.slice(1)];
  const files = [openSync(stdout, 'w'), openSync(stderr, 'w')];
  const started = process.hrtime.bigint();
  const code = await new Promise((resolve, reject) => {
    const child = spawn(command, argv, { env: fullEnv, stdio: ['ignore', ...files] });
    child.on('error', reject);
    child.on('close', resolve);
  }).finally(() => files.forEach((fd) => closeSync(fd)));
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (code !== 0) throw failed(code);
  const [user, system, rss] = hasTime ? readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(' ').map(Number) : [NaN, NaN, NaN];
  return { ms, cpu: (user + system) * 1000 + 10, rss: rss / 1024 };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function summary(runs) {
  const ms = runs.map((run) => run.ms);
  return {
    median: median(ms),
    min: Math.min(...ms),
    max: Math.max(...ms),
    cpu: median(runs.map((run) => run.cpu)),
    rss: Math.max(...runs.map((run) => run.rss)),
  };
}

/**
 * Subject and floor, alternating, after warm-up runs of each. `env` may be a function of the run's number;
 * `setup`, when given, runs before each run (untimed) and its result is passed to `subject` and `floor`, which
 * are then functions giving the arguments (a fresh environment to delete, say).
 */
async function compare({ subject, floor, env = {}, subjectEnv, runs = RUNS, setup }) {
  const envFor = typeof env === 'function' ? env : () => env;
  const subjectEnvFor = subjectEnv ?? envFor;
  const argsOf = async (args) => (typeof args === 'function' ? args(await setup()) : args);
  let run = 0;
  for (let i = 0; i < WARMUP; i++) {
    await once(await argsOf(subject), subjectEnvFor(run++));
    await once(await argsOf(floor), envFor(run++));
  }
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    a.push(await once(await argsOf(subject), subjectEnvFor(run++)));
    b.push(await once(await argsOf(floor), envFor(run++)));
  }
  loads.push(loadavg()[0]);
  return { subject: summary(a), floor: summary(b), runs };
}

/** A sandbox in its own process (test/bench/serve.mjs); `tls` is {keyPath, certPath} for HTTPS. */
async function serve(seed, latencyMs = 0, tls = undefined) {
  const args = [join(root, 'test', 'bench', 'serve.mjs'), String(seed), String(latencyMs), ...(tls ? [tls.keyPath, tls.certPath] : [])];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const line = await new Promise((resolve) => child.stdout.once('data', (chunk) => resolve(String(chunk))));
  const { url, keys } = JSON.parse(line);
  const ca = tls ? readFileSync(tls.certPath, 'utf8') : undefined;
  return {
    env: { CIP_BASE_URL: url, CIP_API_KEY: keys.apiKey, CIP_SUBSCRIPTION_KEY: keys.subscriptionKey, CIP_ENTERPRISE_ID: keys.enterpriseId },
    /** One request of the benchmark's own (untimed): the answer's JSON. */
    call: async (method, path, body) => {
      const { request } = await import(tls ? 'node:https' : 'node:http');
      const headers = {
        Authorization: `ApiKey ${keys.apiKey}`,
        'Ocp-Apim-Subscription-Key': keys.subscriptionKey,
        EnterpriseId: keys.enterpriseId,
      };
      if (body) Object.assign(headers, { 'Content-Type': 'application/json' });
      return new Promise((resolve, reject) => {
        const outgoing = request(`${url}${path}`, { method, headers, ...(ca ? { ca } : {}) }, (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () =>
            response.statusCode < 300 ? resolve(JSON.parse(text)) : reject(new Error(`${method} ${path}: ${response.statusCode} ${text}`)),
          );
        });
        outgoing.on('error', reject);
        outgoing.end(body === undefined ? undefined : JSON.stringify(body));
      });
    },
    /** Resolves once the server process has exited. */
    stop: () => {
      child.stdin.end();
      return exited;
    },
  };
}

/**
 * A self-signed certificate for 127.0.0.1 (openssl, as the tests make theirs), and a CA file that holds this
 * machine's NODE_EXTRA_CA_CERTS followed by it: the HTTPS rows pay for the same CA bundle as the others.
 * Undefined without openssl.
 */
function certificate() {
  const keyPath = join(scratch, 'key.pem');
  const certPath = join(scratch, 'cert.pem');
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-keyout',
        keyPath,
        '-out',
        certPath,
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
  } catch {
    return undefined;
  }
  const caPath = join(scratch, 'ca.pem');
  writeFileSync(
    caPath,
    `${EXTRA_CA && existsSync(EXTRA_CA) ? `${readFileSync(EXTRA_CA, 'utf8').trimEnd()}\n` : ''}${readFileSync(certPath, 'utf8')}`,
  );
  return { keyPath, certPath, caPath };
}

const DELETES = 200;
const DELETE_LATENCY_MS = 50;

/**
 * One run of a delete command against a fresh sandbox of DELETES environments whose answers each take
 * DELETE_LATENCY_MS: the ids come from a list read, and only the command is timed.
 */
async function deleteOnce(command) {
  const server = await serve(DELETES, DELETE_LATENCY_MS);
  try {
    const { CIP_BASE_URL, CIP_API_KEY, CIP_SUBSCRIPTION_KEY, CIP_ENTERPRISE_ID } = server.env;
    const response = await fetch(`${CIP_BASE_URL}/Environments`, {
      headers: {
        Authorization: `ApiKey ${CIP_API_KEY}`,
        'Ocp-Apim-Subscription-Key': CIP_SUBSCRIPTION_KEY,
        EnterpriseId: CIP_ENTERPRISE_ID,
      },
    });
    const ids = (await response.json()).map((environment) => environment.id);
    if (ids.length !== DELETES) throw new Error(`the sandbox listed ${ids.length} environments, not ${DELETES}`);
    return await once(command(ids), { ...server.env, CIP_CONFIG_DIR: join(scratch, 'config') });
  } finally {
    await server.stop();
  }
}

/** `cip env delete` of 200 ids against a bare keep-alive script with 8 in flight, alternating, a few runs each. */
async function deletes() {
  const help = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CIP, 'env', 'delete', '--help'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (chunk) => (text += chunk));
    child.on('error', reject);
    child.on('close', () => resolve(text));
  });
  // Once `env delete` runs requests side by side, it is compared at the floor's width.
  const concurrency = /--concurrency\b/.test(help) ? ['--concurrency', '8'] : [];
  const subject = (ids) => [CIP, 'env', 'delete', ...ids, '--yes', ...concurrency];
  const floor = (ids) => [FLOOR_DELETE, ...ids];
  const runs = LONG_RUNS;
  // One warm-up each: a sequential run takes seconds.
  await deleteOnce(subject);
  await deleteOnce(floor);
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    a.push(await deleteOnce(subject));
    b.push(await deleteOnce(floor));
  }
  loads.push(loadavg()[0]);
  record(
    `${DELETES} deletes in one command: \`cip env delete id1 … id${DELETES} --yes${concurrency.length ? ' --concurrency 8' : ''}\`, ${DELETE_LATENCY_MS} ms per answer`,
    'bare node:http keep-alive script, 8 at a time',
    { subject: summary(a), floor: summary(b), runs },
    concurrency.length ? { wall: 2 } : undefined,
  );
}

/**
 * `text` (sections of earlier runs, each between `<!-- bench:node<major> -->` and `<!-- bench:node<major>:end -->`)
 * with this Node's section in place of its old one, the sections in order of Node major; text outside any section
 * (a table written before there were sections) is dropped.
 */
function withSection(text, major, section) {
  const sections = new Map(
    [...text.matchAll(/<!-- bench:node(\d+) -->\n[\s\S]*?<!-- bench:node\1:end -->\n/g)].map((m) => [Number(m[1]), m[0]]),
  );
  sections.set(Number(major), `<!-- bench:node${major} -->\n${section}<!-- bench:node${major}:end -->\n`);
  return [...sections]
    .sort(([a], [b]) => a - b)
    .map(([, body]) => body)
    .join('\n');
}

const rows = [];
/** `limits` is {wall, cpu, rss}: the largest ratio each may have; a row without limits is informative. */
function record(name, floorName, result, limits = undefined, note = undefined) {
  const ratio = result.subject.median / result.floor.median;
  const cpuRatio = result.subject.cpu / result.floor.cpu;
  const rssRatio = result.subject.rss / result.floor.rss;
  const failed = [];
  if (limits?.wall !== undefined && !(ratio <= limits.wall)) failed.push('wall');
  if (limits?.cpu !== undefined && !(cpuRatio <= limits.cpu)) failed.push('CPU');
  if (limits?.rss !== undefined && !(rssRatio <= limits.rss)) failed.push('RSS');
  const target = limits
    ? [
        limits.wall !== undefined && limits.cpu === limits.wall ? `≤ ${limits.wall}x wall and CPU` : undefined,
        limits.wall !== undefined && limits.cpu !== limits.wall ? `≤ ${limits.wall}x wall` : undefined,
        limits.cpu !== undefined && limits.cpu !== limits.wall ? `≤ ${limits.cpu}x CPU` : undefined,
        limits.rss !== undefined ? `RSS ≤ ${limits.rss}x` : undefined,
      ]
        .filter(Boolean)
        .join(', ') + (failed.length ? ` ✗ (${failed.join(', ')})` : ' ✓')
    : (note ?? '(informative)');
  rows.push({ name, floorName, result, ratio, cpuRatio, rssRatio, target });
  const fmt = (value) => value.toFixed(0);
  process.stderr.write(
    `${failed.length ? 'MISS' : 'ok  '} ${name}: ${fmt(result.subject.median)} ms vs ${fmt(result.floor.median)} ms = ${ratio.toFixed(2)}x` +
      `, CPU ${fmt(result.subject.cpu)} vs ${fmt(result.floor.cpu)} ms = ${cpuRatio.toFixed(2)}x` +
      `, RSS ${fmt(result.subject.rss)} vs ${fmt(result.floor.rss)} MiB = ${rssRatio.toFixed(2)}x; ${target}\n`,
  );
}

const started = Date.now();
let perRowText;
try {
  const config = { CIP_CONFIG_DIR: join(scratch, 'config') };
  // The two environments each row runs in: this machine's (with its NODE_EXTRA_CA_CERTS, if set) and only PATH.
  const settings = [
    { label: '', env: {}, strict: true },
    ...(EXTRA_CA ? [{ label: ', NODE_EXTRA_CA_CERTS unset (only PATH set)', env: { CLEAN: '1' }, strict: false }] : []),
  ];
  if (!ONLY) {
    for (const { label, env } of settings) {
      const startupEnv = { ...config, ...env };
      record(
        `\`cip --version\`${label}`,
        '`node -e 0`, same',
        await compare({ subject: [CIP, '--version'], floor: ['-e', '0'], env: startupEnv, runs: STARTUP_RUNS }),
        {
          wall: 1.1,
        },
      );
      record(
        `\`cip --help\`${label}`,
        '`node -e 0`, same',
        await compare({ subject: [CIP, '--help'], floor: ['-e', '0'], env: startupEnv, runs: STARTUP_RUNS }),
        { wall: 1.25 },
      );
      if (HAS_SEA) {
        record(
          `single executable (release/): \`cip-linux-x64 --version\`${label}`,
          '`node -e 0`, same',
          await compare({ subject: [SEA, '--version'], floor: ['-e', '0'], env: startupEnv, runs: STARTUP_RUNS }),
          { wall: 1.05 },
        );
      }
    }
  }
  if (!ONLY || ONLY === 'api') {
    // Every API command, over http and https, in both environments: each against the floor script making the
    // same requests (floor-http.cjs). A fresh sandbox of 10 environments for each protocol and environment; the
    // commands that add environments run last.
    const tls = certificate();
    if (!tls) process.stderr.write('skipped: the https rows (need openssl)\n');
    for (const protocol of tls ? ['http', 'https'] : ['http']) {
      for (const { label, env: settingEnv, strict } of settings) {
        const server = await serve(10, 0, protocol === 'https' ? tls : undefined);
        try {
          // Over https the certificate is trusted through NODE_EXTRA_CA_CERTS: the machine's bundle and it, or
          // it alone where the variable is otherwise unset.
          const caEnv = protocol === 'https' ? { NODE_EXTRA_CA_CERTS: strict ? tls.caPath : tls.certPath } : {};
          const env = { ...server.env, ...config, ...settingEnv, ...caEnv };
          const limits = { wall: 1.25, cpu: 1.25 };
          const floorName = `node:${protocol} script, same`;
          const where = `${protocol === 'https' ? ' over https' : ''}${label}`;
          const [first] = await server.call('GET', '/Environments');
          const api = (name, subject, floor, setup) =>
            compare({ subject, floor, env, setup }).then((result) => record(`${name}${where}`, floorName, result, limits));
          await api('`cip env list -o json`, 10 environments', [CIP, 'env', 'list', '-o', 'json'], [FLOOR, 'list']);
          await api('`cip env get ID -o json`', [CIP, 'env', 'get', first.id, '-o', 'json'], [FLOOR, 'get', first.id]);
          await api(
            '`cip env update ID -f description=bench -o json`',
            [CIP, 'env', 'update', first.id, '-f', 'description=bench', '-o', 'json'],
            [FLOOR, 'update', first.id],
          );
          // Each run deletes an environment made for it (untimed): the list it reads holds 11.
          const made = () => server.call('POST', '/Environments', { name: 'doomed' }).then((environment) => environment.id);
          await api(
            '`cip env delete ID --yes -o json`',
            (id) => [CIP, 'env', 'delete', id, '--yes', '-o', 'json'],
            (id) => [FLOOR, 'delete', id],
            made,
          );
          await api('`cip env create -f name=bench -o json`', [CIP, 'env', 'create', '-f', 'name=bench', '-o', 'json'], [FLOOR, 'create']);
        } finally {
          await server.stop();
        }
      }
    }
  }
  if (!ONLY) {
    const tableTime = {};
    /** Median ms of the table stage for 1,000 and 100,000 records, bundled from src/output as cip bundles it. */
    async function tableStage() {
      const { build } = await import('esbuild');
      const out = join(scratch, 'table-stage.mjs');
      await build({
        stdin: {
          contents:
            "export { streamTable } from './src/output/table.ts'; export { cellsOf, chooseColumns, headerText, topLevel } from './src/output/columns.ts'; export { startSandbox } from './src/sandbox/index.ts';",
          resolveDir: root,
          loader: 'ts',
        },
        bundle: true,
        format: 'esm',
        platform: 'node',
        outfile: out,
        logLevel: 'warning',
      });
      const { streamTable, cellsOf, chooseColumns, headerText, topLevel, startSandbox } = await import(out);
      const times = {};
      for (const [rows, repeats] of [
        [1_000, 50],
        [100_000, 5],
      ]) {
        const sandbox = await startSandbox({ seed: rows });
        const records = [...sandbox.environments.values()];
        await sandbox.close();
        const once = () => {
          const started = process.hrtime.bigint();
          const columns = chooseColumns(records).map(topLevel);
          let written = 0;
          streamTable(
            columns.map((column) => headerText(column.name)),
            records.length,
            (row) => cellsOf(records[row], columns),
            (chunk) => (written += chunk.length),
          );
          return Number(process.hrtime.bigint() - started) / 1e6;
        };
        once();
        times[rows] = median(Array.from({ length: repeats }, once));
      }
      return times;
    }
    // The floors themselves, and the first run after an install.
    {
      const server = await serve(10);
      try {
        const env = { ...server.env, ...config };
        if (HAS_SEA) {
          record(
            'single executable (release/): `cip-linux-x64 env list -o json`, 10 environments',
            'node:http script',
            await compare({ subject: [SEA, 'env', 'list', '-o', 'json'], floor: [FLOOR, 'list'], env }),
            { wall: 1.25, cpu: 1.25 },
          );
        }
        record(
          'bare fetch script, 10 environments',
          'node:http script',
          await compare({ subject: [FLOOR_FETCH, 'list'], floor: [FLOOR, 'list'], env }),
          undefined,
          '(the old floor)',
        );
        record(
          '`node:http script`, 10 environments',
          '`node -e 0`',
          await compare({ subject: [FLOOR, 'list'], floor: ['-e', '0'], env }),
          undefined,
          '(the floor itself)',
        );
        // ky builds web Request objects, which Node keeps in its internal undici: what loading it costs any process.
        record(
          '`node -e globalThis.Request`, only PATH set',
          '`node -e 0`, same',
          await compare({ subject: ['-e', 'globalThis.Request'], floor: ['-e', '0'], env: { CLEAN: '1' } }),
          undefined,
          "(what Node's web Request costs to load: cip's API commands use their own since src/api/web.ts)",
        );
        // The first run after an install has no compile cache: a fresh cache folder (XDG_CACHE_HOME) each run.
        let fresh = 0;
        const cold = await compare({
          subject: [CIP, 'env', 'list', '-o', 'json'],
          floor: [CIP, 'env', 'list', '-o', 'json'],
          env,
          subjectEnv: () => {
            const dir = join(scratch, `cold-${fresh++}`);
            mkdirSync(dir);
            return { ...env, XDG_CACHE_HOME: dir };
          },
        });
        const extra = cold.subject.median - cold.floor.median;
        record(
          '`cip env list -o json`, first run (no compile cache)',
          'the same, warm',
          cold,
          undefined,
          `+${extra.toFixed(0)} ms (target ≤ +40 ms${extra <= 40 ? ' ✓' : ' ✗'})`,
        );
      } finally {
        await server.stop();
      }
    }
    for (const seed of [1_000, 100_000]) {
      const server = await serve(seed);
      const env = { ...server.env, ...config };
      const runs = seed >= 100_000 ? LONG_RUNS : RUNS;
      const label = seed.toLocaleString('en-US');
      const big = seed >= 100_000;
      try {
        record(
          `\`cip env list -o json\`, ${label} environments`,
          'node:http script',
          await compare({ subject: [CIP, 'env', 'list', '-o', 'json'], floor: [FLOOR, 'list'], env, runs }),
          big ? { wall: 1.2, rss: 1 } : undefined,
        );
        const table = await compare({ subject: [CIP, 'env', 'list', '-o', 'table'], floor: [FLOOR, 'list'], env, runs });
        tableTime[seed] = table.subject.median;
        record(`\`cip env list -o table\`, ${label} rows`, 'node:http script (JSON)', table, big ? { wall: 1.3 } : undefined);
      } finally {
        await server.stop();
      }
    }
    // Whether tables grow linearly: the table stage alone (cells and layout, as `env list -o table` runs them),
    // timed in this process on the sandbox's own records, so start-up and network noise cannot hide it.
    const render = await tableStage();
    const perRow = (count) => render[count] / count;
    const growth = perRow(100_000) / perRow(1_000);
    perRowText =
      `Table stage per row: ${(perRow(1_000) * 1000).toFixed(2)} µs at 1,000 rows and ` +
      `${(perRow(100_000) * 1000).toFixed(2)} µs at 100,000 rows, ${growth.toFixed(2)}x (target ≤ 1.5x${growth <= 1.5 ? ' ✓' : ' ✗'}); ` +
      `whole command per row: ${((tableTime[1_000] / 1_000) * 1000).toFixed(0)} µs and ${((tableTime[100_000] / 100_000) * 1000).toFixed(1)} µs.`;
    process.stderr.write(`${growth <= 1.5 ? 'ok  ' : 'MISS'} ${perRowText}\n`);
  }
  if (!ONLY || ONLY === 'deletes') await deletes();

  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const load = `load average ${Math.min(...loads, loadavg()[0]).toFixed(1)}–${Math.max(...loads, loadavg()[0]).toFixed(1)} while it ran`;
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}` +
      ` (${process.env.NODE_EXTRA_CA_CERTS ? 'NODE_EXTRA_CA_CERTS set, as on these machines' : 'NODE_EXTRA_CA_CERTS unset'}), ${load}; ` +
      `${RUNS} runs per row after ${WARMUP} warm-ups (start-up rows: ${STARTUP_RUNS}; 100,000-row and 200-delete rows: ${LONG_RUNS}, the 200-delete row after 1 warm-up), subject and floor alternating. ` +
      (measurer
        ? 'Wall: median (min–max), fork to exit; CPU: user + system as the kernel counts it (wait4), median; RSS: peak; ratios are of medians. '
        : 'Wall: median (min–max); CPU: user + system, median (GNU time counts it in 10 ms steps, cut down: 5 ms each is added back); RSS: peak. ') +
      'Floors are CommonJS scripts making the same requests and printing the same JSON (test/bench/floor-http.cjs). Regenerate with `npm run bench`.',
    '',
    '| command | floor | cip wall | floor wall | wall ratio | CPU cip / floor | peak RSS cip / floor | target |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      ({ name, floorName, result, ratio, cpuRatio, rssRatio, target }) =>
        `| ${name} | ${floorName} | ${result.subject.median.toFixed(0)} ms (${result.subject.min.toFixed(0)}–${result.subject.max.toFixed(0)}) | ${result.floor.median.toFixed(0)} ms | ${ratio.toFixed(2)}x | ${result.subject.cpu.toFixed(0)} / ${result.floor.cpu.toFixed(0)} ms (${cpuRatio.toFixed(2)}x) | ${result.subject.rss.toFixed(0)} / ${result.floor.rss.toFixed(0)} MiB (${rssRatio.toFixed(2)}x) | ${target} |`,
    ),
    ...(perRowText === undefined ? [] : ['', perRowText]),
  ];
  const markdown = `${lines.join('\n')}\n`;
  process.stdout.write(`\n${markdown}`);
  // A partial run would overwrite the full table with one row. Each Node major keeps a section of its own (the
  // goals are ratios on the same Node: run it once with each Node on PATH); a run replaces only its own.
  if (!ONLY) {
    const major = process.versions.node.split('.')[0];
    const section = `**Node ${major}**\n\n${markdown}`;
    const resultsPath = join(root, 'test', 'bench', 'RESULTS.md');
    const results = existsSync(resultsPath) ? readFileSync(resultsPath, 'utf8') : '';
    writeFileSync(resultsPath, `# Benchmark results\n\n${withSection(results.replace(/^# Benchmark results\n\n/, ''), major, section)}`);
    const readmePath = join(root, 'docs', 'performance.md');
    const readme = readFileSync(readmePath, 'utf8');
    const marked = /(<!-- bench:start -->\n)([\s\S]*?)(<!-- bench:end -->)/;
    const region = marked.exec(readme);
    if (region)
      writeFileSync(
        readmePath,
        readme.replace(marked, () => `${region[1]}${withSection(region[2], major, section)}${region[3]}`),
      );
  }
  process.stderr.write(`done in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
} finally {
  measurer?.stop();
  rmSync(scratch, { recursive: true, force: true });
}
