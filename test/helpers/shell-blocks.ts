// The ```sh blocks of a Markdown file, run in order as a reader pastes them into one shell, and what each command
// did beside how it ended: after every command the sandboxes' environments and the profile store are compared
// with what they were before it, and the changes must be exactly those the test's table names for that command.
// So a block that writes to another environment than the one it names (the README's `cip api "Environments/$id"
// -X PUT`, whose $id an earlier block had reassigned) fails with the block, the command and what it changed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { stringifyExactJson } from '../../src/json/exact.js';
import type { Sandbox } from '../../src/sandbox/index.js';

export interface ShellBlock {
  /** 1-based line of the opening fence. */
  line: number;
  heading: string;
  /** Marked `<!-- readme-test: skip -->` on the line before it. */
  skip: boolean;
  /** Commands, each with its continuation lines, comment lines left out. */
  commands: string[];
  /** The 1-based line each command starts on. */
  commandLines: number[];
}

/** A Markdown file's shell blocks, in order. */
export function shellBlocks(markdown: string): ShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^#{1,6} /.test(line)) heading = line;
    if (!/^```(sh|bash|shell|console)\s*$/.test(line)) continue;
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const skip = lines[before]?.trim() === '<!-- readme-test: skip -->';
    const body: string[] = [];
    let end = i + 1;
    for (; end < lines.length && !/^```\s*$/.test(lines[end]!); end++) body.push(lines[end]!);
    const commands: string[] = [];
    const commandLines: number[] = [];
    let current: string[] = [];
    for (const [offset, text] of body.entries()) {
      if (current.length === 0 && (text.trim() === '' || text.trimStart().startsWith('#'))) continue;
      if (current.length === 0) commandLines.push(i + 2 + offset);
      current.push(text);
      if (!text.endsWith('\\')) {
        commands.push(current.join('\n'));
        current = [];
      }
    }
    if (current.length > 0) commands.push(current.join('\n'));
    blocks.push({ line: i + 1, heading, skip, commands, commandLines });
    i = end;
  }
  return blocks;
}

// A trailing comment is set off by two spaces or more, as the README aligns them.
const TRAILING_COMMENT = / {2,}# .*$/;

/** The exit code a command's trailing comment names (`# ... exit 2 ...`), else 0. */
export function expectedExit(command: string): number {
  const comment = TRAILING_COMMENT.exec(command)?.[0] ?? '';
  return Number(/\bexit (\d+)\b/.exec(comment)?.[1] ?? 0);
}

// ---------------------------------------------------------------------------------------------------------------
// What a command changed, written as the tables write what it may change (sorted):
//   +NAME {field,...}   an environment created, with the fields it was given (not id, createdAt, updatedAt)
//   -NAME               an environment deleted
//   ~NAME {field,...}   an environment written: the fields added, removed or changed (not updatedAt; `{}` for a
//                       write that changed no field), NAME as it was before
//   LABEL:...           the same in another sandbox than the first (`second:+x {name}`)
//   profile +P, profile -P, profile ~P {field,...}, active P   the profile store (config.json)

/** Fields the server sets itself: never named in a change. */
const SERVER_FIELDS = new Set(['createdAt', 'updatedAt']);

type Fields = Record<string, string>;

export interface Snapshot {
  /** Per sandbox label: each environment by id, each field as exact JSON. */
  environments: Record<string, Map<string, Fields>>;
  profiles: Record<string, Fields>;
  active: string | undefined;
}

function fieldsOf(record: object): Fields {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, stringifyExactJson(value)]));
}

export function snapshot(sandboxes: Record<string, Sandbox>, configFile: string): Snapshot {
  const environments: Record<string, Map<string, Fields>> = {};
  for (const [label, sandbox] of Object.entries(sandboxes))
    environments[label] = new Map([...sandbox.environments].map(([id, record]) => [id, fieldsOf(record)]));
  const config = existsSync(configFile)
    ? (JSON.parse(readFileSync(configFile, 'utf8')) as { profiles?: Record<string, object>; activeProfile?: string })
    : {};
  const profiles = Object.fromEntries(Object.entries(config.profiles ?? {}).map(([name, profile]) => [name, fieldsOf(profile)]));
  return { environments, profiles, active: config.activeProfile };
}

function changedFields(before: Fields, after: Fields, ignore: ReadonlySet<string>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((key) => !ignore.has(key) && before[key] !== after[key]).sort();
}

function nameOf(fields: Fields, id: string): string {
  const name = fields.name ?? fields.Name;
  if (name === undefined) return id;
  const parsed: unknown = JSON.parse(name);
  return typeof parsed === 'string' ? parsed : name;
}

/** What changed between two snapshots, in the tables' notation (see above), sorted. */
export function changes(before: Snapshot, after: Snapshot, first: string): string[] {
  const out: string[] = [];
  for (const [label, now] of Object.entries(after.environments)) {
    const prefix = label === first ? '' : `${label}:`;
    const then = before.environments[label] ?? new Map<string, Fields>();
    for (const [id, fields] of then) if (!now.has(id)) out.push(`${prefix}-${nameOf(fields, id)}`);
    for (const [id, fields] of now) {
      const old = then.get(id);
      if (old === undefined) {
        const given = Object.keys(fields).filter((key) => key !== 'id' && !SERVER_FIELDS.has(key));
        out.push(`${prefix}+${nameOf(fields, id)} {${given.sort().join(',')}}`);
      } else if (changedFields(old, fields, new Set()).length > 0) {
        out.push(`${prefix}~${nameOf(old, id)} {${changedFields(old, fields, SERVER_FIELDS).join(',')}}`);
      }
    }
  }
  for (const name of Object.keys(before.profiles)) if (!(name in after.profiles)) out.push(`profile -${name}`);
  for (const [name, fields] of Object.entries(after.profiles)) {
    const old = before.profiles[name];
    if (old === undefined) out.push(`profile +${name}`);
    else if (changedFields(old, fields, new Set()).length > 0)
      out.push(`profile ~${name} {${changedFields(old, fields, new Set()).join(',')}}`);
  }
  if (after.active !== before.active) out.push(`active ${after.active ?? '(none)'}`);
  return out.sort();
}

// ---------------------------------------------------------------------------------------------------------------

/** What a document's commands must change, by the command exactly as written (trailing comment included). */
export type Writes = Record<string, readonly string[]>;
/** Outputs checked beyond the exit code, by the command exactly as written. */
export type Chosen = Record<string, { stdout?: RegExp; stderr?: RegExp }>;

export interface BlockRun {
  /** The file's name in messages (`README.md`). */
  file: string;
  blocks: ShellBlock[];
  /** The sandboxes whose stores are compared, by label; `first` names the one written without a prefix. */
  sandboxes: Record<string, Sandbox>;
  first: string;
  /** The reader's home: the profile store is its ~/.config/cip/config.json. */
  home: string;
  /** The folder the shell starts in. */
  cwd: string;
  /** Where each command's stdout, stderr and exit code are kept. */
  results: string;
  env: Record<string, string>;
  /** The command as the shell gets it (ports the test chose in place of the README's). */
  rewrite: (command: string) => string;
  writes: Writes;
  chosen: Chosen;
  /** How long one command may take before the run is given up (default 120 s). */
  commandTimeoutMs?: number;
}

export interface BlockRunResult {
  failures: string[];
  /** How many commands ran. */
  count: number;
}

const MARK = '@@readme-command-done ';

/**
 * Runs every command of the blocks not marked skip in one bash that reads them from a pipe, one at a time, as a
 * reader pastes them: variables, `cd` and exports carry from one to the next. Between two commands the stores
 * are still (the command and everything it started have ended), so each snapshot is exact.
 */
export async function runBlocks(run: BlockRun): Promise<BlockRunResult> {
  const failures: string[] = [];
  const configFile = join(run.home, '.config', 'cip', 'config.json');
  const shell = execa('bash', ['--noprofile', '--norc'], {
    env: { ...run.env, RESULTS: run.results },
    extendEnv: false,
    cwd: run.cwd,
    buffer: false,
    reject: false,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let shellErrors = '';
  shell.stderr.setEncoding('utf8');
  shell.stderr.on('data', (chunk: string) => (shellErrors += chunk));
  const lines = createInterface({ input: shell.stdout })[Symbol.asyncIterator]();
  const read = (n: number, suffix: string) => {
    const path = join(run.results, `${n}.${suffix}`);
    return existsSync(path) ? readFileSync(path, 'utf8') : '';
  };

  let count = 0;
  let before = snapshot(run.sandboxes, configFile);
  outer: for (const block of run.blocks) {
    if (block.skip) continue;
    for (const [index, command] of block.commands.entries()) {
      const n = count++;
      const where = `${run.file}:${block.commandLines[index]} (the block at line ${block.line}, under "${block.heading}"): ${command}`;
      if (/(?<!&)&$/.test(command.replace(TRAILING_COMMENT, '').trimEnd())) {
        // What it changes would land in the next command's snapshot, or in none.
        failures.push(`${where}\n  runs in the background: mark its block <!-- readme-test: skip --> and start what it starts in the test`);
        continue;
      }
      shell.stdin.write(
        `{\n${run.rewrite(command)}\n} >"$RESULTS/${n}.out" 2>"$RESULTS/${n}.err" </dev/null\n` +
          `echo "$?" >"$RESULTS/${n}.rc"\necho '${MARK}${n}'\n`,
      );
      if (!(await waitForMark(lines, `${MARK}${n}`, run.commandTimeoutMs ?? 120_000))) {
        failures.push(`${where}\n  did not finish (shell: ${shellErrors.trim().slice(-600) || 'no message'})`);
        shell.kill('SIGKILL');
        break outer;
      }
      const code = Number(read(n, 'rc').trim() || -1);
      const expected = expectedExit(command);
      if (code !== expected)
        failures.push(`${where}\n  exit ${code}, expected ${expected}\n  stderr: ${read(n, 'err').trim().slice(0, 600)}`);
      const chosen = run.chosen[command];
      if (chosen?.stdout && !chosen.stdout.test(read(n, 'out')))
        failures.push(`${where}\n  stdout does not match ${chosen.stdout}:\n${read(n, 'out').slice(0, 600)}`);
      if (chosen?.stderr && !chosen.stderr.test(read(n, 'err')))
        failures.push(`${where}\n  stderr does not match ${chosen.stderr}:\n${read(n, 'err').slice(0, 600)}`);

      const after = snapshot(run.sandboxes, configFile);
      const changed = changes(before, after, run.first);
      const expectedChanges = [...(run.writes[command] ?? [])].sort();
      if (changed.join('\n') !== expectedChanges.join('\n'))
        failures.push(
          `${where}\n  changed:  ${changed.join('; ') || 'nothing'}\n  expected: ${expectedChanges.join('; ') || 'nothing'}` +
            (run.writes[command] === undefined ? ' (the test names no change for this command)' : ''),
        );
      before = after;
    }
  }
  shell.stdin.end();
  await shell;
  return { failures, count };
}

async function waitForMark(lines: AsyncIterator<string>, mark: string, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  // Only a guard against a command that never ends: the wait itself is on the shell's own line.
  const expired = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const found = (async () => {
    for (;;) {
      const next = await lines.next();
      if (next.done === true) return false;
      if (next.value === mark) return true;
    }
  })();
  try {
    return await Promise.race([found, expired]);
  } finally {
    clearTimeout(timer);
  }
}
