/**
 * How a miner's latest reading is kept (migration 202611230310): the fields that have their own column on the miners
 * row (ip, mac, make, model, family, firmware, hashrates, work mode, online, missed polls, state flags, fault labels)
 * are not stored a second time in miners.snapshot, which keeps the rest of the reading as `json` text: boards, fans,
 * pools, error codes, power, LED, network mode, plus the reported SN (miners.sn follows an SN override), the compile
 * time, the uptime and the reading time exactly as the agent sent them.
 *
 * Why (tests/bench/snapshot-ingest.bench.ts, 20,000 miners per batch): the ingest writes every miner's reading every
 * cycle, and turning ~30 MB of readings into jsonb and compressing them was the largest share of it; the rest of the
 * reading as json text is a third smaller and is only checked, not converted (see ingest-snapshots.ts for figures).
 * The detail call puts the reading back together (fullReading), equal to what the agent uploaded. A row whose
 * snapshot still holds the whole reading (written before the migration, or by SQL in tests) reads the same.
 */
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';

/** The reading's fields kept in the miners row's own columns, so left out of miners.snapshot. */
const IN_COLUMNS: ReadonlySet<string> = new Set<keyof MinerSnapshot>([
  'ip', 'mac', 'make', 'model', 'family', 'firmwareVersion', 'rt5s', 'rate30m', 'avg', 'ideal', 'workMode', 'online', 'missedPolls', 'state', 'faultLabels',
]);

/** The JSON text miners.snapshot keeps of a reading: every field without a column of its own. */
export function storedReading(s: MinerSnapshot): string {
  const rest: Record<string, unknown> = {};
  for (const k of Object.keys(s)) if (!IN_COLUMNS.has(k)) rest[k] = (s as unknown as Record<string, unknown>)[k];
  return JSON.stringify(rest);
}

/** The columns of a miners row that fullReading reads. */
export interface ReadingColumns {
  ip: string;
  mac: string;
  make: string;
  model: string;
  family: string;
  firmware_version: string;
  rt5s: number;
  rate30m: number;
  avg: number;
  ideal: number;
  work_mode: string;
  online: boolean;
  missed_polls: number;
  state: unknown;
  fault_labels: string[];
  snapshot: unknown;
}

/** The reading as the agent uploaded it, put back together from the row's columns and miners.snapshot. */
export function fullReading(row: ReadingColumns): MinerSnapshot {
  const rest = (row.snapshot && typeof row.snapshot === 'object' ? row.snapshot : {}) as Partial<MinerSnapshot>;
  return {
    ...rest,
    ip: row.ip,
    mac: row.mac,
    make: row.make,
    model: row.model,
    family: row.family as MinerSnapshot['family'],
    firmwareVersion: row.firmware_version,
    rt5s: Number(row.rt5s),
    rate30m: Number(row.rate30m),
    avg: Number(row.avg),
    ideal: Number(row.ideal),
    workMode: row.work_mode as MinerSnapshot['workMode'],
    online: row.online,
    missedPolls: Number(row.missed_polls),
    state: row.state as MinerSnapshot['state'],
    faultLabels: row.fault_labels as MinerSnapshot['faultLabels'],
  } as MinerSnapshot;
}
