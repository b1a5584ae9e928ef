// Sample environments: varied, deterministic apart from their ids, and cheap to make by the 100,000 (the
// benchmarks seed that many).
import { randomBytes } from 'node:crypto';
import type { Environment } from './types.js';

const TYPES = ['Development', 'Test', 'Staging', 'Production'] as const;
const SYSTEMS = ['Payments', 'Billing', 'Orders', 'Inventory', 'CRM', 'HR', 'Logistics', 'Analytics', 'Identity'];
const REGIONS = ['westeurope', 'northeurope', 'swedencentral', 'uksouth', 'eastus', 'westus2', 'australiaeast'];
const LOG_LEVELS = ['Debug', 'Information', 'Warning', 'Error'];
const RETENTION_DAYS = [7, 14, 30, 90, 365];
const SEED_EPOCH = Date.UTC(2024, 0, 1);
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');

export function seedStore(seed: number | Environment[]): Map<string, Environment> {
  const store = new Map<string, Environment>();
  if (Array.isArray(seed)) {
    // Copies, so tests that mutate the store do not mutate their fixtures.
    for (const record of seed) store.set(String(record.id), { ...record });
    return store;
  }
  if (!Number.isInteger(seed) || seed < 0) throw new RangeError(`seed must be a non-negative integer, got ${seed}`);
  randomGuids(seed).forEach((id, i) => store.set(id, generateEnvironment(i, id)));
  return store;
}

/** The entry at `index`, counting round: every list here is non-empty. */
function cycle<T>(list: readonly T[], index: number): T {
  return list[index % list.length]!;
}

// Varied but deterministic apart from the id: co-prime strides spread the combinations across records.
function generateEnvironment(i: number, id: string): Environment {
  const type = cycle(TYPES, i);
  const system = cycle(SYSTEMS, i * 7);
  const createdAt = SEED_EPOCH + i * 5 * MINUTE_MS;
  const tags = i % 5 === 0 ? [] : [system.toLowerCase(), type.toLowerCase()];
  if (type === 'Production' && i % 3 === 0) tags.push('critical');
  return {
    id,
    name: `env-${String(i + 1).padStart(4, '0')}`,
    displayName: `${system} ${type} ${Math.floor(i / TYPES.length) + 1}`,
    // Some records lack a description, as real data does.
    description: i % 11 === 0 ? null : `${type} environment for the ${system} integrations.`,
    type,
    isActive: i % 7 !== 3,
    region: cycle(REGIONS, i * 3),
    tags,
    settings: {
      retention: cycle(RETENTION_DAYS, i * 3),
      logLevel: type === 'Production' ? 'Warning' : cycle(LOG_LEVELS, i),
      maxConcurrency: 1 + ((i * 5) % 16),
    },
    createdAt: seedTimestamp(createdAt),
    updatedAt: seedTimestamp(createdAt + ((i * 13) % 720) * 60 * MINUTE_MS),
  };
}

// crypto.randomUUID() builds each id by concatenation, and keeping 100,000 such strings alive costs the GC more than
// the rest of the seed; writing the ASCII into a buffer yields flat strings instead.
function randomGuids(count: number): string[] {
  const bytes = randomBytes(count * 16);
  const text = Buffer.alloc(36);
  const guids = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    const at = i * 16;
    // Indexes below stay inside the buffers, which were sized for them.
    bytes[at + 6] = (bytes[at + 6]! & 0x0f) | 0x40; // version 4
    bytes[at + 8] = (bytes[at + 8]! & 0x3f) | 0x80; // RFC 4122 variant
    let pos = 0;
    for (let j = 0; j < 16; j++) {
      if (j === 4 || j === 6 || j === 8 || j === 10) text[pos++] = 0x2d; // '-'
      const byte = bytes[at + j]!;
      text[pos++] = HEX_DIGITS[byte >> 4]!;
      text[pos++] = HEX_DIGITS[byte & 15]!;
    }
    guids[i] = text.toString('latin1');
  }
  return guids;
}

// toISOString would be the largest cost of a big seed; seed times fall on whole minutes, so each date and each
// time of day is formatted once and the two are joined.
const seedDates = new Map<number, string>();
const seedTimesOfDay = new Map<number, string>();
function seedTimestamp(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  const minute = (ms - day * DAY_MS) / MINUTE_MS;
  let date = seedDates.get(day);
  if (date === undefined) seedDates.set(day, (date = new Date(day * DAY_MS).toISOString().slice(0, 11)));
  let time = seedTimesOfDay.get(minute);
  if (time === undefined) seedTimesOfDay.set(minute, (time = new Date(minute * MINUTE_MS).toISOString().slice(11)));
  return date + time;
}
