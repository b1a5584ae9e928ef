// @ts-check
// The one entry point of mutation testing (`npm run mutation -- ...`; see mutation/README.md):
//   npm run mutation -- TARGET... [--tests related|unit|all] [--concurrency N] [--timeout MS] [--plan]
//   npm run mutation -- report [REPORT] [--file TEXT] [--list]
//   npm run mutation -- check REPORT src/FILE.ts [--ids 12,13] [-- TEST_FILE...]
// A TARGET is a group (below), a module (src/text/sanitize.ts) or a glob of modules ("src/commands/env/*.ts").
// The tests come from the tree (mutation/tests.mjs): `related` (the default for modules) are the test files that
// import the modules mutated or are named for them; `unit` all of test/unit; `all` every test that can kill a
// mutant. `--plan` prints the modules and the tests and runs nothing.
import { check } from './check.mjs';
import { report } from './report.mjs';
import { ROOT, modulesOf, testsFor } from './tests.mjs';

/** @typedef {'related' | 'unit' | 'all'} TestKind */

// Only the built binary runs the launcher, the code-cache loader and the version; the keychain helper's entry is
// three statements (its work, config/store/keychain-ops.ts, is reached in-process).
const NEVER = ['!src/main.ts', '!src/load-cli.ts', '!src/version.ts', '!src/keychain-helper.ts'];

/**
 * Groups by folder, so that a new module belongs to one without a list to keep. Commands are tested through the
 * in-process harness, which the related tests do not follow, so their group runs every test. The sandbox is
 * shipped (`cip sandbox`) and is also what every in-process test runs against: those tests are its related ones.
 * @type {Record<string, { about: string, mutate: string[], tests: TestKind }>}
 */
const GROUPS = {
  core: {
    about: 'base, config, output, terminal and the context (modules every command reaches)',
    mutate: [
      'src/*.ts',
      '!src/program.ts',
      'src/json/**/*.ts',
      'src/text/**/*.ts',
      'src/config/**/*.ts',
      'src/output/**/*.ts',
      'src/terminal/**/*.ts',
    ],
    tests: 'related',
  },
  api: { about: 'the HTTP client and the Environments resource', mutate: ['src/api/**/*.ts'], tests: 'related' },
  commands: {
    about: 'the command tree and the domain it calls: program, declarations, commands, completion scripts, domain',
    mutate: [
      'src/program.ts',
      'src/program/**/*.ts',
      'src/cli/**/*.ts',
      'src/commands/**/*.ts',
      'src/completion/**/*.ts',
      'src/domain/**/*.ts',
    ],
    tests: 'all',
  },
  sandbox: { about: 'the offline API server', mutate: ['src/sandbox/**/*.ts'], tests: 'related' },
  all: { about: 'every module (hours)', mutate: ['src/**/*.ts'], tests: 'all' },
};
const KINDS = ['related', 'unit', 'all'];

const USAGE = `usage:
  npm run mutation -- TARGET... [--tests related|unit|all] [--concurrency N] [--timeout MS] [--plan]
  npm run mutation -- report [REPORT] [--file TEXT] [--list]
  npm run mutation -- check REPORT src/FILE.ts [--ids 12,13] [-- TEST_FILE...]
TARGET: a module (src/text/sanitize.ts), a glob ("src/commands/env/*.ts") or a group:
${Object.entries(GROUPS)
  .map(([name, group]) => `  ${name.padEnd(9)}${group.about}; tests: ${group.tests}`)
  .join('\n')}`;

/** @param {string} message @returns {never} */
function usage(message) {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

/** @param {string[]} args */
function parse(args) {
  /** @type {{ targets: string[], tests?: string, concurrency?: number, timeout?: number, plan: boolean }} */
  const options = { targets: [], plan: false };
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    const value = () => args[++index] ?? usage(`${arg} needs a value`);
    if (arg === '--tests') options.tests = value();
    else if (arg === '--concurrency') options.concurrency = Number(value());
    else if (arg === '--timeout') options.timeout = Number(value());
    else if (arg === '--plan') options.plan = true;
    else if (arg.startsWith('-')) usage(`unknown option ${arg}`);
    else options.targets.push(arg);
  }
  if (options.targets.length === 0) usage('name what to mutate');
  if (options.tests !== undefined && !KINDS.includes(options.tests)) usage(`--tests is one of ${KINDS.join(', ')}`);
  for (const name of /** @type {const} */ (['concurrency', 'timeout'])) {
    const number = options[name];
    if (number !== undefined && !(Number.isInteger(number) && number > 0)) usage(`--${name} takes a whole number above 0`);
  }
  return options;
}

/** The patterns to mutate, the modules they name, and which tests to run. @param {ReturnType<typeof parse>} options */
function plan(options) {
  const mutate = [];
  let every = false;
  for (const target of options.targets) {
    const group = GROUPS[target];
    const patterns = group ? group.mutate : [target];
    if (modulesOf(patterns).length === 0) usage(`${target} is no group and names no module of src/`);
    mutate.push(...patterns);
    every ||= group?.tests === 'all';
  }
  mutate.push(...NEVER);
  const tests = /** @type {TestKind | undefined} */ (options.tests) ?? (every ? 'all' : 'related');
  const modules = modulesOf(mutate);
  return { mutate, modules, tests, testFiles: testsFor(tests, modules) };
}

/** @param {string[]} args */
async function mutation(args) {
  const options = parse(args);
  const { mutate, modules, tests, testFiles } = plan(options);
  console.log(`${modules.length} modules to mutate, with ${testFiles.length} test files (${tests})`);
  if (options.plan) {
    const list = (/** @type {string[]} */ files) => files.map((file) => `\n  ${file}`).join('');
    console.log(`modules:${list(modules)}\ntests:${list(testFiles)}`);
    return;
  }
  const { Stryker } = await import('@stryker-mutator/core');
  const started = Date.now();
  const results = await new Stryker({
    configFile: 'mutation/stryker.config.mjs',
    mutate,
    testFiles,
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.timeout === undefined ? {} : { timeoutMS: options.timeout }),
  }).runMutationTest();
  const count = (/** @type {string[]} */ ...statuses) => results.filter((result) => statuses.includes(result.status)).length;
  const detected = count('Killed', 'Timeout');
  const valid = detected + count('Survived', 'NoCoverage');
  const score = valid === 0 ? 'n/a' : `${((100 * detected) / valid).toFixed(1)}%`;
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(`score ${score} (${detected}/${valid}) in ${minutes} min; report in reports/mutation/`);
}

process.chdir(ROOT);
const [command, ...rest] = process.argv.slice(2);
if (command === 'report') report(rest);
else if (command === 'check') check(rest, usage);
else await mutation(process.argv.slice(2));
