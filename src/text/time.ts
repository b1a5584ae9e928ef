// Times as tables show them: "2026-11-26 14:08:03Z", in UTC (two people reading one journal or one list see the
// same time), to the second, never rounded to the minute.

/** "2026-11-26 14:08:03Z" for a time JSON or a journal gave (ISO 8601); undefined for text that is no time. */
export function utcSecond(at: string): string | undefined {
  const time = Date.parse(at);
  return Number.isNaN(time) ? undefined : `${new Date(time).toISOString().slice(0, 19).replace('T', ' ')}Z`;
}
