// `npm run bench`: start-up, list, create and delete timings of the built cip against floors measured in the same
// run, interleaved run by run so that drift in machine load hits both sides alike. Prints a Markdown table,
// writes it to test/bench/RESULTS.md and into the README between the bench markers.
// BENCH_RUNS (default 10) sets the runs per measurement; the 100,000-row and delete ones use half of them (at least 5).
// BENCH_ONLY=deletes runs only the "200 deletes" row and prints it, writing no file.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CIP = join(root, 'bin', 'cip.cjs');
const FLOOR = join(root, 'test', 'bench', 'floor-fetch.mjs');
const FLOOR_DELETE = join(root, 'test', 'bench', 'floor-delete.mjs');
const ONLY = process.env.BENCH_ONLY;
if (ONLY !== undefined && ONLY !== 'deletes') throw new Error(`BENCH_ONLY=${ONLY}: only 'deletes' can run alone`);
const GNU_TIME = '/usr/bin/time';
const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 10));
// Runs for the rows that take seconds each: the 100,000-row lists and the 200 deletes.
const LONG_RUNS = Math.max(5, Math.round(RUNS / 2));
const WARMUP = 2;
// Start-up rows are short and noisy (the floor itself varies by tens of ms here): they get five times the runs.
const STARTUP_RUNS = RUNS * 5;
const scratch = mkdtempSync(join(tmpdir(), 'cip-bench-'));
const hasTime = existsSync(GNU_TIME);
// Commands run in this machine's own environment (as its users run them), less any cip settings.
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CIP_')));
const CLEAN_ENV = { PATH: process.env.PATH };

/** One run: wall time in ms (spawn to exit) and peak RSS in MiB (GNU time), output drained from a pipe. */
function once(args, env) {
  const rssFile = join(scratch, 'rss');
  const [command, argv] = hasTime ? [GNU_TIME, ['-f', '%M', '-o', rssFile, process.execPath, ...args]] : [process.execPath, args];
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, argv, {
      env: { ...(env.CLEAN ? CLEAN_ENV : baseEnv), HOME: scratch, ...env, CLEAN: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr}`));
      const rss = hasTime ? Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024 : NaN;
      resolve({ ms, rss });
    });
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function summary(runs) {
  const ms = runs.map((run) => run.ms);
  return { median: median(ms), min: Math.min(...ms), max: Math.max(...ms), rss: Math.max(...runs.map((run) => run.rss)) };
}

/** Subject and floor, alternating, after warm-up runs of each. */
async function compare({ subject, floor, env = {}, runs = RUNS }) {
  for (let i = 0; i < WARMUP; i++) {
    await once(subject, env);
    await once(floor, env);
  }
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    a.push(await once(subject, env));
    b.push(await once(floor, env));
  }
  return { subject: summary(a), floor: summary(b), runs };
}

async function serve(seed, latencyMs = 0) {
  const child = spawn(process.execPath, [join(root, 'test', 'bench', 'serve.mjs'), String(seed), String(latencyMs)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const line = await new Promise((resolve) => child.stdout.once('data', (chunk) => resolve(String(chunk))));
  const { url, keys } = JSON.parse(line);
  return {
    env: { CIP_BASE_URL: url, CIP_API_KEY: keys.apiKey, CIP_SUBSCRIPTION_KEY: keys.subscriptionKey, CIP_ENTERPRISE_ID: keys.enterpriseId },
    /** Resolves once the server process has exited. */
    stop: () => {
      child.stdin.end();
      return exited;
    },
  };
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
  record(
    `${DELETES} deletes in one command: \`cip env delete id1 … id${DELETES} --yes${concurrency.length ? ' --concurrency 8' : ''}\`, ${DELETE_LATENCY_MS} ms per answer`,
    'bare node:http keep-alive script, 8 at a time',
    { subject: summary(a), floor: summary(b), runs },
    '(informative)',
    () => true,
  );
}

const rows = [];
function record(name, floorName, result, target, check) {
  const ratio = result.subject.median / result.floor.median;
  const rssRatio = result.subject.rss / result.floor.rss;
  const verdict = check({ ratio, rssRatio, result });
  rows.push({ name, floorName, result, ratio, rssRatio, target, verdict });
  const fmt = (value) => value.toFixed(0);
  process.stderr.write(
    `${verdict ? 'ok  ' : 'MISS'} ${name}: ${fmt(result.subject.median)} ms vs ${fmt(result.floor.median)} ms = ${ratio.toFixed(2)}x` +
      ` (RSS ${fmt(result.subject.rss)} vs ${fmt(result.floor.rss)} MiB = ${rssRatio.toFixed(2)}x), target ${target}\n`,
  );
}

const started = Date.now();
let perRowText;
try {
  if (!ONLY) {
    const cipEnvNoCreds = { CIP_CONFIG_DIR: join(scratch, 'config') };
    record(
      '`cip --version`',
      '`node -e 0`',
      await compare({ subject: [CIP, '--version'], floor: ['-e', '0'], env: cipEnvNoCreds, runs: STARTUP_RUNS }),
      '≤ 1.25x',
      ({ ratio }) => ratio <= 1.25,
    );
    record(
      '`cip --help`',
      '`node -e 0`',
      await compare({ subject: [CIP, '--help'], floor: ['-e', '0'], env: cipEnvNoCreds, runs: STARTUP_RUNS }),
      '≤ 1.35x',
      ({ ratio }) => ratio <= 1.35,
    );
    if (process.env.NODE_EXTRA_CA_CERTS) {
      // Loading extra CA certificates costs every Node process on this machine tens of milliseconds, which
      // dilutes start-up ratios; the same two rows with only PATH set show cip's own cost more sharply.
      const clean = { ...cipEnvNoCreds, CLEAN: '1' };
      record(
        '`cip --version`, environment with only PATH',
        '`node -e 0`, same',
        await compare({ subject: [CIP, '--version'], floor: ['-e', '0'], env: clean, runs: STARTUP_RUNS }),
        '(informative)',
        () => true,
      );
      record(
        '`cip --help`, environment with only PATH',
        '`node -e 0`, same',
        await compare({ subject: [CIP, '--help'], floor: ['-e', '0'], env: clean, runs: STARTUP_RUNS }),
        '(informative)',
        () => true,
      );
    }

    const tableTime = {};

    /** Median ms of the table stage for 1,000 and 100,000 records, bundled from src/output as cip bundles it. */
    async function tableStage() {
      const { build } = await import('esbuild');
      const out = join(scratch, 'table-stage.mjs');
      await build({
        stdin: {
          contents:
            "export { streamTable } from './src/output/table.ts'; export { cellsOf, chooseColumns, headerText } from './src/output/columns.ts'; export { startSandbox } from './src/sandbox/index.ts';",
          resolveDir: root,
          loader: 'ts',
        },
        bundle: true,
        format: 'esm',
        platform: 'node',
        outfile: out,
        logLevel: 'warning',
      });
      const { streamTable, cellsOf, chooseColumns, headerText, startSandbox } = await import(out);
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
          const columns = chooseColumns(records);
          let written = 0;
          streamTable(
            columns.map(headerText),
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
    for (const seed of [10, 1_000, 100_000]) {
      const server = await serve(seed);
      const env = { ...server.env, CIP_CONFIG_DIR: join(scratch, 'config') };
      const runs = seed >= 100_000 ? LONG_RUNS : RUNS;
      const label = seed.toLocaleString('en-US');
      try {
        const json = await compare({ subject: [CIP, 'env', 'list', '-o', 'json'], floor: [FLOOR, 'list'], env, runs });
        if (seed === 10)
          record(`\`cip env list -o json\`, ${label} environments`, 'bare fetch script', json, '≤ 1.25x', ({ ratio }) => ratio <= 1.25);
        else if (seed === 100_000) {
          record(
            `\`cip env list -o json\`, ${label} environments`,
            'bare fetch script',
            json,
            '≤ 1.3x time and RSS',
            ({ ratio, rssRatio }) => ratio <= 1.3 && rssRatio <= 1.3,
          );
        } else record(`\`cip env list -o json\`, ${label} environments`, 'bare fetch script', json, '(informative)', () => true);
        if (seed === 10) {
          record(
            `bare fetch script, ${label} environments`,
            '`node -e 0`',
            await compare({ subject: [FLOOR, 'list'], floor: ['-e', '0'], env, runs }),
            '(the floor itself)',
            () => true,
          );
        }
        if (seed >= 1_000) {
          const table = await compare({
            subject: [CIP, 'env', 'list', '-o', 'table'],
            floor: [CIP, 'env', 'list', '-o', 'json'],
            env,
            runs,
          });
          tableTime[seed] = table.subject.median;
          record(
            `\`cip env list -o table\`, ${label} rows`,
            '`cip env list -o json`, same list',
            table,
            seed === 100_000 ? '< 2x' : '(informative)',
            ({ ratio }) => seed !== 100_000 || ratio < 2,
          );
        }
        if (seed === 10) {
          record(
            '`cip env create`',
            'bare fetch POST',
            await compare({ subject: [CIP, 'env', 'create', '-f', 'name=bench', '-o', 'json'], floor: [FLOOR, 'create'], env, runs }),
            '(informative)',
            () => true,
          );
        }
      } finally {
        server.stop();
      }
    }
    // Whether tables grow linearly: the table stage alone (cells and layout, as `env list -o table` runs them),
    // timed in this process on the sandbox's own records, so start-up and network noise cannot hide it.
    const render = await tableStage();
    const perRow = (rows) => render[rows] / rows;
    const growth = perRow(100_000) / perRow(1_000);
    perRowText =
      `Table stage per row: ${(perRow(1_000) * 1000).toFixed(2)} µs at 1,000 rows and ` +
      `${(perRow(100_000) * 1000).toFixed(2)} µs at 100,000 rows, ${growth.toFixed(2)}x (target ≤ 1.5x${growth <= 1.5 ? ' ✓' : ' ✗'}); ` +
      `whole command per row: ${((tableTime[1_000] / 1_000) * 1000).toFixed(0)} µs and ${((tableTime[100_000] / 100_000) * 1000).toFixed(1)} µs.`;
    process.stderr.write(`${growth <= 1.5 ? 'ok  ' : 'MISS'} ${perRowText}\n`);
  }
  await deletes();

  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}` +
      `${process.env.NODE_EXTRA_CA_CERTS ? ' (NODE_EXTRA_CA_CERTS set, as on these machines)' : ''}; ` +
      `${RUNS} runs per row after ${WARMUP} warm-ups (100,000-row rows and the delete row: ${LONG_RUNS}, the delete row after 1 warm-up), subject and floor alternating. Regenerate with \`npm run bench\`.`,
    '',
    '| command | floor | cip median (min–max) | floor median | ratio | peak RSS cip / floor | target |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      ({ name, floorName, result, ratio, rssRatio, target, verdict }) =>
        `| ${name} | ${floorName} | ${result.subject.median.toFixed(0)} ms (${result.subject.min.toFixed(0)}–${result.subject.max.toFixed(0)}) | ${result.floor.median.toFixed(0)} ms | ${ratio.toFixed(2)}x | ${result.subject.rss.toFixed(0)} / ${result.floor.rss.toFixed(0)} MiB (${rssRatio.toFixed(2)}x) | ${target}${target.startsWith('(') ? '' : verdict ? ' ✓' : ' ✗'} |`,
    ),
    ...(perRowText === undefined ? [] : ['', perRowText]),
  ];
  const markdown = `${lines.join('\n')}\n`;
  process.stdout.write(`\n${markdown}`);
  // A partial run would overwrite the full table with one row.
  if (!ONLY) {
    writeFileSync(join(root, 'test', 'bench', 'RESULTS.md'), `# Benchmark results\n\n${markdown}`);
    const readmePath = join(root, 'README.md');
    const readme = readFileSync(readmePath, 'utf8');
    const marked = /(<!-- bench:start -->\n)[\s\S]*?(<!-- bench:end -->)/;
    if (marked.test(readme)) writeFileSync(readmePath, readme.replace(marked, `$1${markdown}$2`));
  }
  process.stderr.write(`done in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
