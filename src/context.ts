// The factory every command receives: streams and what they are (terminal or not), the environment,
// global options, and lazily built dependencies (profile store, API client, styles): each is built, and its
// third-party package loaded, only when a command first asks for it. Nothing here reads
// process.*; main.ts hands it in, so tests can run commands with fake streams and a temp config dir.
import type { Readable, Writable } from 'node:stream';
import { UsageError } from './errors.js';
import { configLocation, openProfileStore, type ProfileStore } from './config/store.js';
import { resolveSettings, type ResolvedSettings } from './config/settings.js';
import { createEnvironmentsApi, type EnvironmentsApi } from './api/environments.js';
import { MIN_KEY_LENGTH } from './config/validate.js';

export type Env = Readonly<Record<string, string | undefined>>;
export type OutputFormat = 'table' | 'json';

export interface IO {
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
  stderrColumns?: number;
}

export interface GlobalOptions {
  profile?: string;
  output?: OutputFormat;
  json?: boolean;
  baseUrl?: string;
  enterpriseId?: string;
  timeout: number;
  verbose: boolean;
  quiet: boolean;
  color: boolean;
}

export const DEFAULT_GLOBALS: GlobalOptions = { timeout: 30, verbose: false, quiet: false, color: true };

const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json'];

export function isTruthyEnv(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

export class Context {
  globals: GlobalOptions = { ...DEFAULT_GLOBALS };
  #store: Promise<ProfileStore> | undefined;
  #api: Promise<EnvironmentsApi> | undefined;
  #settings: Promise<ResolvedSettings> | undefined;
  readonly #secrets: string[] = [];

  constructor(
    readonly io: IO,
    readonly env: Env,
    readonly version: string,
    /** A signal that aborts when the user interrupts (Ctrl-C); requests and prompts listen to it. */
    readonly signal: AbortSignal = new AbortController().signal,
  ) {
    this.addSecret(env.CIP_API_KEY);
    this.addSecret(env.CIP_SUBSCRIPTION_KEY);
  }

  /**
   * Registers a key: from then on redact() replaces it, wherever it came from (a server may echo it), in the
   * spellings a server is likely to echo it in: as it is, URL-encoded and JSON-escaped.
   */
  addSecret(value: string | undefined): void {
    const secret = value?.trim();
    // Shorter values would blank out ordinary words; cip refuses keys that short anyway.
    if (!secret || secret.length < MIN_KEY_LENGTH) return;
    const encoded = encodeURIComponent(secret);
    const spellings = [secret, encoded, encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()), JSON.stringify(secret).slice(1, -1)];
    for (const spelling of spellings) if (!this.#secrets.includes(spelling)) this.#secrets.push(spelling);
    // Longest first: a key that contains another key must not be left half-redacted.
    this.#secrets.sort((a, b) => b.length - a.length);
  }

  /**
   * Under GitHub Actions, a value cip must print (the sandbox's keys) is first declared a mask, so the job
   * log shows *** wherever it appears, in this step or later ones.
   */
  maskInCI(value: string): void {
    if (this.env.GITHUB_ACTIONS === 'true') this.io.stdout.write(`::add-mask::${value}\n`);
  }

  /** Text with every registered key replaced by ***: for anything cip prints that it did not write itself. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.#secrets) if (out.includes(secret)) out = out.split(secret).join('***');
    return out;
  }

  get isCI(): boolean {
    return isTruthyEnv(this.env.CI);
  }

  /** Flag > CIP_OUTPUT > table on a terminal, JSON in a pipe. */
  get outputFormat(): OutputFormat {
    if (this.globals.json) return 'json';
    if (this.globals.output) return this.globals.output;
    const fromEnv = this.env.CIP_OUTPUT?.trim().toLowerCase();
    if (fromEnv) {
      if (!OUTPUT_FORMATS.includes(fromEnv as OutputFormat)) {
        throw new UsageError(`CIP_OUTPUT must be one of ${OUTPUT_FORMATS.join(', ')}, not '${this.env.CIP_OUTPUT}'`);
      }
      return fromEnv as OutputFormat;
    }
    return this.io.stdoutIsTTY ? 'table' : 'json';
  }

  /** Colour level for a stream: FORCE_COLOR wins, then --no-color/NO_COLOR/CI/--quiet, then the terminal. */
  colorLevel(isTTY: boolean): 0 | 1 | 2 | 3 {
    const force = this.env.FORCE_COLOR;
    if (force !== undefined && force !== '') {
      if (force === '0' || force === 'false') return 0;
      const level = Number(force);
      return level >= 1 && level <= 3 ? (level as 1 | 2 | 3) : 1;
    }
    if (!this.globals.color || this.env.NO_COLOR !== undefined && this.env.NO_COLOR !== '') return 0;
    if (this.isCI || this.globals.quiet || !isTTY) return 0;
    if (this.env.TERM === 'dumb') return 0;
    return this.env.COLORTERM === 'truecolor' ? 3 : 2;
  }

  /** Whether we may ask the user something: a terminal on both ends, not CI, not --quiet. */
  get canPrompt(): boolean {
    return this.io.stdinIsTTY && this.io.stderrIsTTY && !this.isCI && !this.globals.quiet;
  }

  /** Spinners only on a terminal's stderr, for people reading tables; NO_COLOR asks for a plain terminal. */
  get spinnerEnabled(): boolean {
    return this.io.stderrIsTTY && (this.io.stderrColumns ?? 0) > 0 && !this.isCI && !this.globals.quiet && this.outputFormat === 'table'
      && this.env.TERM !== 'dumb' && this.globals.color && !this.env.NO_COLOR;
  }

  /** Human messages: stderr, silenced by --quiet. */
  info(message: string): void {
    if (!this.globals.quiet) this.io.stderr.write(`${message}\n`);
  }

  /** Warnings survive --quiet: they are about the result. */
  warn(message: string): void {
    this.io.stderr.write(`warning: ${message}\n`);
  }

  store(): Promise<ProfileStore> {
    const { dir, isDefault } = configLocation(this.env);
    this.#store ??= openProfileStore(dir, { warn: (message) => this.warn(message), ownFolder: isDefault });
    return this.#store;
  }

  settings(): Promise<ResolvedSettings> {
    this.#settings ??= resolveSettings(this);
    return this.#settings;
  }

  api(): Promise<EnvironmentsApi> {
    this.#api ??= this.settings().then((settings) => createEnvironmentsApi(this, settings));
    return this.#api;
  }
}
