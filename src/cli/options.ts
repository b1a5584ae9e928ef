// Options and arguments as plain declarations. program.ts turns them into commander objects; the value
// types a command's run() receives are inferred from them (ValuesOf), so a flag and the code that reads it
// cannot disagree.

/** Where a shell finds the values of an option or argument that takes no fixed choices. */
export type ValueSource = 'files' | 'profiles' | 'environments';

interface Spec<Kind extends string, T> {
  readonly kind: Kind;
  readonly description: string;
  /** What completion offers for the value (completion/spec.ts); nothing when absent. */
  readonly completes?: ValueSource;
  /** Never set: carries the value type for ValuesOf (a function, so that undefined in T is kept). */
  readonly valueType?: () => T;
}

export interface OptionSpec<T = unknown> extends Spec<'flag' | 'value' | 'list', T> {
  /** commander's flags: '-o, --output <format>', '--no-color'. The value's key is its camelCased long name. */
  readonly flags: string;
  /** Turns the text into the value; throws commander's InvalidArgumentError for a bad one (exit 2). */
  readonly parse?: (text: string) => unknown;
  readonly defaultValue?: T;
  readonly choices?: readonly string[];
  /** Accepted but left out of help, completions and docs (an old name kept for scripts). */
  readonly hidden?: boolean;
}

export interface ArgumentSpec<T = unknown> extends Spec<'argument', T> {
  /** '<id>', or '<id...>' for one or more. */
  readonly name: string;
  readonly choices?: readonly string[];
}

// The constraints of a command's declarations; `any` lets each entry keep its own value type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OptionSpecs = Readonly<Record<string, OptionSpec<any>>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ArgumentSpecs = Readonly<Record<string, ArgumentSpec<any>>>;

/** The values a command receives for its declarations. */
export type ValuesOf<S> = { -readonly [K in keyof S]: S[K] extends { valueType?: () => infer T } ? T : never };

/** A switch: true when given, false otherwise; '--no-color' is true unless given. */
export function flag(flags: string, description: string): OptionSpec<boolean> {
  return { kind: 'flag', flags, description };
}

/** A value named `<path>` or `<file>` is a file's path: shells complete it from the files. */
const completesOf = (flags: string): ValueSource | undefined => (/<(?:path|file)>/.test(flags) ? 'files' : undefined);

/** An option that takes a value: the text, or what parse makes of it; undefined when not given. */
export function option(flags: string, description: string): OptionSpec<string | undefined>;
export function option<T>(flags: string, description: string, parse: (text: string) => T): OptionSpec<T | undefined>;
export function option<T>(flags: string, description: string, parse: (text: string) => T, defaultValue: T): OptionSpec<T>;
export function option<T>(flags: string, description: string, parse?: (text: string) => T, defaultValue?: T): OptionSpec<T> {
  return { kind: 'value', flags, description, parse, defaultValue, completes: completesOf(flags) };
}

/** An option whose value is one of a fixed list. */
export function choice<const C extends readonly string[]>(
  flags: string,
  description: string,
  choices: C,
): OptionSpec<C[number] | undefined> {
  return { kind: 'value', flags, description, choices };
}

/** The same option, accepted but shown nowhere. */
export function hidden<T>(spec: OptionSpec<T>): OptionSpec<T> {
  return { ...spec, hidden: true };
}

/** A repeatable option: every value in the order given (none: an empty list). Shells offer it again. */
export function list<T>(flags: string, description: string, parse: (text: string) => T): OptionSpec<T[]> {
  return { kind: 'list', flags, description, parse, completes: completesOf(flags) };
}

/** The same option or argument, its value completed from the stored profiles or the environments. */
export function completedFrom<S extends OptionSpec | ArgumentSpec>(source: ValueSource, spec: S): S {
  return { ...spec, completes: source };
}

/** The value of a positional argument: '<id>' the text, '<id...>' and '[id...]' a list, '[id]' the text or undefined. */
type ArgumentValue<N extends string> = N extends `${string}...>` | `${string}...]`
  ? string[]
  : N extends `[${string}]`
    ? string | undefined
    : string;

/** A positional argument: '<id>' gives the text, '<id...>' the list of them; '[...]' is optional. */
// N is kept literal so that the type can tell '<id...>' from '<id>'.
export function argument<const N extends string>(name: N, description: string): ArgumentSpec<ArgumentValue<N>>;
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- as above
export function argument<const N extends string, const C extends readonly string[]>(
  name: N,
  description: string,
  choices: C,
): ArgumentSpec<C[number]>;
export function argument(name: string, description: string, choices?: readonly string[]): ArgumentSpec {
  return { kind: 'argument', name, description, choices };
}
