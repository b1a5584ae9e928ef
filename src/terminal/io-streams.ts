// The terminal side of a run (after gh's IOStreams): the three streams and whether each is a terminal, and
// what follows from that and from the environment: colour, prompts, spinners, the output format, and the
// human messages on stderr. Nothing here reads process.*: main.ts hands the streams in.
import type { Readable, Writable } from 'node:stream';
import { isTruthyEnv, type Env } from '../env.js';
import type { CipError } from '../errors.js';
import { chooseFormat, type CommandOutput, type OutputFormat } from '../output/format.js';
import type { JqRunner } from '../output/jq.js';

export interface Streams {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Terminal width of stdout, when it is a terminal (80 when the terminal does not say). */
  columns: number | undefined;
  /**
   * Terminal width of stderr, when it is a terminal that reports one. A pty without a size reports 0, and a
   * spinner that divides by it never stops clearing lines: no spinner then.
   */
  stderrColumns?: number | undefined;
}

/** The global options that change how cip talks; known once argv is parsed. */
export interface DisplayOptions {
  json: boolean;
  output: OutputFormat | undefined;
  quiet: boolean;
  color: boolean;
  /** --jq: the data goes through this jq filter, as JSON. */
  jq?: string | undefined;
  /** --no-headers makes this false. */
  headers?: boolean;
}

export type ColorLevel = 0 | 1 | 2 | 3;

export class IOStreams implements Streams {
  readonly stdout: Writable;
  /** Made on first use, as stdin is: most runs that succeed write nothing to stderr. */
  get stderr(): Writable {
    return this.streams.stderr;
  }
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly columns: number | undefined;
  readonly stderrColumns: number | undefined;
  /** Where --jq runs: its thread, the caller's environment, the run's signal. */
  readonly jqRunner: JqRunner | undefined;
  /** The first run-time failure of the --jq filter; run.ts reports it when the command itself succeeds. */
  jqFailure: CipError | undefined;

  /**
   * @param redact replaces the run's keys with ***: the writer passes all it prints through it, and notes and
   * warnings go through it here. Context gives its Secrets'.
   */
  constructor(
    streams: Streams,
    private readonly env: Env,
    private readonly display: () => DisplayOptions,
    readonly redact: (text: string) => string = (text) => text,
    jqRunner?: JqRunner,
  ) {
    this.jqRunner = jqRunner;
    this.streams = streams;
    this.stdout = streams.stdout;
    ({ stdoutIsTTY: this.stdoutIsTTY, stderrIsTTY: this.stderrIsTTY } = streams);
    this.columns = streams.columns;
    this.stderrColumns = streams.stderrColumns;
  }

  private readonly streams: Streams;

  // stdin is looked at only by a command that reads it or asks a question: Node makes process.stdin on first
  // use, which loads the modules of a stream (net for a pipe or terminal), a few milliseconds of every run.
  get stdin(): Readable {
    return this.streams.stdin;
  }

  get stdinIsTTY(): boolean {
    return this.streams.stdinIsTTY;
  }

  get isCI(): boolean {
    return isTruthyEnv(this.env.CI);
  }

  /** The --jq filter, if any. */
  get jq(): string | undefined {
    return this.display().jq;
  }

  /** Whether -o tsv starts with a header line (not under --no-headers). */
  get headers(): boolean {
    return this.display().headers ?? true;
  }

  /** The formats of the command that runs (program.ts sets them from its declaration). */
  command: CommandOutput | undefined;

  /**
   * --jq (JSON) > --json > --output > CIP_OUTPUT > the command's own choice > a table on a terminal, JSON in a
   * pipe; a format the command cannot honour is a usage error (output/format.ts).
   */
  get outputFormat(): OutputFormat {
    const { json, output, jq } = this.display();
    return chooseFormat({ json, output, jq, fromEnv: this.env.CIP_OUTPUT, stdoutIsTTY: this.stdoutIsTTY, command: this.command });
  }

  /** Colour level for a stream: FORCE_COLOR wins, then --no-color/NO_COLOR/CI/--quiet, then the terminal. */
  colorLevel(isTTY: boolean): ColorLevel {
    const force = this.env.FORCE_COLOR;
    if (force !== undefined && force !== '') {
      if (force === '0' || force === 'false') return 0;
      const level = Number(force);
      return level === 1 || level === 2 || level === 3 ? level : 1;
    }
    const { color, quiet } = this.display();
    if (!color || (this.env.NO_COLOR ?? '') !== '') return 0;
    if (this.isCI || quiet || !isTTY) return 0;
    if (this.env.TERM === 'dumb') return 0;
    return this.env.COLORTERM === 'truecolor' ? 3 : 2;
  }

  /** Whether cip may ask the user something: a terminal on both ends, not CI, not --quiet. */
  get canPrompt(): boolean {
    return this.stdinIsTTY && this.stderrIsTTY && !this.isCI && !this.display().quiet;
  }

  /** Why cip may not ask, for an error that needs an answer: said only when canPrompt is false. */
  get noPromptReason(): string {
    if (this.stdinIsTTY && this.stderrIsTTY) return this.isCI ? 'prompts are off under CI' : 'prompts are off under --quiet';
    return 'there is no terminal to ask';
  }

  /**
   * Spinners only on a terminal's stderr, for people reading tables (or what the command writes for people
   * when it writes no table, as export's YAML); NO_COLOR asks for a plain terminal.
   */
  get spinnerEnabled(): boolean {
    const { color, quiet } = this.display();
    const format = this.outputFormat;
    return (
      this.stderrIsTTY &&
      (this.stderrColumns ?? 0) > 0 &&
      !this.isCI &&
      !quiet &&
      (format === 'table' || format === this.command?.preferred) &&
      this.env.TERM !== 'dumb' &&
      color &&
      !this.env.NO_COLOR
    );
  }

  /** Human messages: stderr, silenced by --quiet. */
  info(message: string): void {
    if (!this.display().quiet) this.stderr.write(`${this.redact(message)}\n`);
  }

  /** Warnings survive --quiet: they are about the result. */
  warn(message: string): void {
    this.stderr.write(`warning: ${this.redact(message)}\n`);
  }

  /**
   * Under GitHub Actions, a value cip must print (the sandbox's keys) is first declared a mask, so the job
   * log shows *** wherever it appears, in this step or later ones.
   */
  maskInCI(value: string): void {
    if (this.env.GITHUB_ACTIONS === 'true') this.stdout.write(`::add-mask::${value}\n`);
  }
}
