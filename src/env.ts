// The environment a run was given: main.ts hands in process.env; tests hand in a plain object.

export type Env = Readonly<Record<string, string | undefined>>;

/** A variable's value; empty or blank counts as unset. */
export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** A switch variable (CI, CIP_DEBUG): set, and not '', '0' or 'false'. */
export function isTruthyEnv(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
