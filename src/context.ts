// The factory every command receives (after gh's cmdutil.Factory): the terminal side (io), the environment,
// the global options, the run's secrets, and lazily built dependencies: the profile store, the resolved
// settings and the API client. Each is built, and its third-party package loaded, only when a command
// first asks for it. Nothing here reads process.*: main.ts hands everything in, so tests can run commands
// in-process with fake streams and a temporary config folder.
import { DEFAULT_GLOBALS, type GlobalOptions } from './cli/globals.js';
import { nonEmpty, type Env } from './env.js';
import { Secrets } from './secrets.js';
import { IOStreams, type Streams } from './terminal/io-streams.js';
import type { JqWorkerScript } from './output/jq.js';
import { configLocation, openProfileStore, type ProfileStore } from './config/store.js';
import { allowHttp, resolveSettings, type ResolvedSettings } from './config/credentials/settings.js';
import { findProjectFile, loadProject, type ProjectFile } from './config/project.js';
import { SECRET_VARIABLES, expiredError, expiryWarning, tokenOf } from './config/credentials/credential.js';
import { createKeychain, type Keychain } from './config/store/keychain.js';
import { connect } from './api/connect.js';
import type { Http } from './api/http.js';
import { createEnvironmentsApi, type EnvironmentsApi } from './api/environments.js';

/** Facts about the machine and process that main.ts reads from process.* for the rest of cip. */
export interface Host {
  /** The user's id (POSIX); undefined on Windows. */
  uid: number | undefined;
  /** The user's primary group (POSIX): a folder only it may write to is the user's own (umask 002). */
  gid?: number | undefined;
  /** The working folder, where the project file is looked for; undefined (it was removed): none is. */
  cwd?: string | undefined;
  /** Node's version, for the User-Agent. */
  nodeVersion: string;
  /** Node's executable (or the single executable), to run the keychain helper with. */
  execPath: string;
  /** The keychain helper (dist/keychain-helper.cjs, or the single executable's helper mode); undefined: no keychain. */
  keychainHelper: string | undefined;
  /** The thread --jq runs in: dist/jq-worker.cjs, or the single executable's code of it. */
  jqWorker: JqWorkerScript;
}

export interface ContextOptions {
  streams: Streams;
  env: Env;
  /** cip's version. */
  version: string;
  host: Host;
  /** Aborts when the user interrupts (Ctrl-C); requests, prompts and stdin reads listen to it. */
  signal?: AbortSignal;
}

export class Context {
  globals: GlobalOptions = { ...DEFAULT_GLOBALS };
  readonly io: IOStreams;
  readonly env: Env;
  readonly version: string;
  readonly host: Host;
  readonly signal: AbortSignal;
  readonly #secrets = new Secrets();
  #store: Promise<ProfileStore> | undefined;
  #keychain: Keychain | undefined;
  #settings: Promise<ResolvedSettings> | undefined;
  #project: { file: ProjectFile | undefined } | undefined;
  #api: Promise<EnvironmentsApi> | undefined;

  constructor({ streams, env, version, host, signal = new AbortController().signal }: ContextOptions) {
    this.env = env;
    this.version = version;
    this.host = host;
    this.signal = signal;
    this.io = new IOStreams(
      streams,
      env,
      () => this.globals,
      (text) => this.redact(text),
      { worker: host.jqWorker, env, signal },
    );
    // Keys in the environment are secrets even when this run does not use them.
    this.#rememberKeys(...SECRET_VARIABLES.map((name) => env[name]));
  }

  /** The one place keys are registered for redaction. */
  #rememberKeys(...keys: (string | undefined)[]): void {
    for (const key of keys) this.#secrets.add(key);
  }

  /** Text with every key of this run replaced by ***: for anything cip prints that it did not write itself. */
  redact(text: string): string {
    return this.#secrets.redact(text);
  }

  /** --verbose: a line for people on stderr, with keys as ***; nothing without it. */
  detail(line: string): void {
    if (this.globals.verbose) this.io.stderr.write(`${this.redact(line)}\n`);
  }

  /** redact(), and a key in base64 too: for what cip keeps in a file (the journal). */
  redactKept(text: string): string {
    return this.#secrets.redactKept(text);
  }

  store(): Promise<ProfileStore> {
    this.#store ??= (() => {
      const { dir, isDefault } = configLocation(this.env);
      return openProfileStore(dir, { warn: (message) => this.io.warn(message), ownFolder: isDefault, uid: this.host.uid });
    })();
    return this.#store;
  }

  /**
   * The operating system's keychain. Nothing runs until a call: commands whose keys come from the environment
   * or the file never start the helper or load its module.
   */
  keychain(): Keychain {
    this.#keychain ??= createKeychain({
      execPath: this.host.execPath,
      helper: this.host.keychainHelper,
      env: this.env,
      signal: this.signal,
    });
    return this.#keychain;
  }

  /** The home folder, where the search for a project file stops. */
  get home(): string | undefined {
    return nonEmpty(this.env.HOME) ?? nonEmpty(this.env.USERPROFILE);
  }

  /**
   * The project file in force (config/project.ts): found, checked and read once a run. One that others can
   * change is ignored, with a warning.
   */
  project(): ProjectFile | undefined {
    this.#project ??= {
      file: loadProject({
        cwd: this.host.cwd,
        home: this.home,
        uid: this.host.uid,
        gid: this.host.gid,
        allowHttp: allowHttp(this),
        warn: (message) => this.io.warn(message),
      }),
    };
    return this.#project.file;
  }

  /** Which profile, base URL and credentials a command uses (config/credentials/settings.ts has the rule). */
  settings(): Promise<ResolvedSettings> {
    this.#settings ??= resolveSettings({
      env: this.env,
      globals: this.globals,
      store: () => this.store(),
      keychain: () => this.keychain(),
      warn: (message) => this.io.warn(message),
      project: () => this.project(),
      projectPath: () => findProjectFile(this.host.cwd, this.home),
    }).then((settings) => {
      // Keys read from the keychain are secrets from the moment they are known, not only once a client exists.
      this.#rememberKeys(...settings.credentials.secrets);
      // Said once a run, as the settings are resolved once; an expired token is refused where a request starts.
      const warning = expiryWarning(tokenOf(settings.credentials), settings.profile, Date.now());
      if (warning !== undefined) this.io.warn(warning);
      return settings;
    });
    return this.#settings;
  }

  /** The API client for the settings in use. */
  api(): Promise<EnvironmentsApi> {
    this.#api ??= this.settings().then((settings) => this.apiFor(settings));
    return this.#api;
  }

  /**
   * An API client for other settings (`auth login` checks keys before it stores them), or with a shorter
   * time-out and its own signal (completion must never keep a shell waiting).
   */
  async apiFor(settings: ResolvedSettings, limits: { timeout?: number; signal?: AbortSignal } = {}): Promise<EnvironmentsApi> {
    return createEnvironmentsApi(await this.#connect(settings, limits), settings);
  }

  /** The HTTP client itself, for `cip api`: any path below the base URL, with the three headers. */
  async http(): Promise<{ settings: ResolvedSettings; http: Http }> {
    const settings = await this.settings();
    return { settings, http: await this.#connect(settings, {}) };
  }

  async #connect(settings: ResolvedSettings, limits: { timeout?: number; signal?: AbortSignal }): Promise<Http> {
    this.#rememberKeys(...settings.credentials.secrets);
    // Before anything is sent: a token that has expired would only be refused (config/credentials/credential.ts).
    const expired = expiredError(tokenOf(settings.credentials), settings.profile, Date.now());
    if (expired) throw expired;
    const { verbose } = this.globals;
    return connect(settings, {
      env: this.env,
      timeout: limits.timeout ?? this.globals.timeout,
      signal: limits.signal ?? this.signal,
      userAgent: `cip/${this.version} node/${this.host.nodeVersion}`,
      nodeVersion: this.host.nodeVersion,
      redact: (text) => this.redact(text),
      log: verbose ? (line) => this.detail(line) : undefined,
      warn: (message) => this.io.warn(message),
    });
  }
}
