/**
 * The farm's stamps: what tells a server that keeps a result (a count, an ordered id list, the counters) whether the
 * farm's miners changed since it was made (find-miners.ts, miner-stats.ts, dashboard.ts). Read in the same statement
 * as whatever they validate, so a result and its stamp come from one snapshot.
 * - data: the farm's highest miners.version (every ingest, mark change or SN edit bumps it) and highest miners
 *   tombstone (every deletion leaves one) — changes whenever a miner of the farm is written or deleted;
 * - identity: miner_identity_stamps (migration 202611230330) — changes only when a miner is added, removed or changes
 *   identity (IP, SN, MAC, make, model, family, firmware).
 */
import { type RawBuilder, sql } from 'kysely';
import type { MinerFilter } from '@shared/schemas/miner';
import type { DB } from '../../db/kysely';
import { PREPARED } from '../../db/prepared-statements';

/** Which stamp a kept result is valid under. */
export type StampKind = 'data' | 'identity';
/** The farm's two stamps. */
export interface Stamps {
  data: string;
  identity: string;
}

/**
 * Per database and farm: the agent uploads this process has written (ingest-snapshots.ts notes each committed chunk
 * or upload). A hint, not a stamp: a kept result under the data stamp made before the farm's latest upload here is
 * known stale without reading the stamp (after every agent cycle, a kept id list would otherwise cost a page read
 * whose rows are thrown away, and a kept count a stamp lookup). Writes it does not see (marks, SN edits, deletions,
 * another process) are still told by the stamp read with every kept result.
 */
const uploads = new WeakMap<DB, Map<string, number>>();

/** Notes that an upload of the farm was committed (or one chunk of it). */
export function noteUpload(db: DB, agentKey: string): void {
  let m = uploads.get(db);
  if (!m) uploads.set(db, (m = new Map()));
  m.set(agentKey, (m.get(agentKey) ?? 0) + 1);
}

/** How many uploads of the farm this process noted (compare two readings: a change means the data changed). */
export function uploadsOf(db: DB, agentKey: string): number {
  return uploads.get(db)?.get(agentKey) ?? 0;
}

/** The farm's stamps as two columns: `stamp` (data) and `identity_stamp`. */
export function stampsSql(agentKey: string): RawBuilder<unknown> {
  return sql`(coalesce((select max(version) from miners where agent_key = ${agentKey})::text, '') || '/' ||
    coalesce((select max(version) from sync_tombstones where collection = 'miners' and agent_key = ${agentKey})::text, '')) as stamp,
    coalesce((select stamp from miner_identity_stamps where agent_key = ${agentKey})::text, '') as identity_stamp`;
}

export const stampsOf = (r: { stamp: string; identity_stamp: string } | undefined): Stamps => ({ data: r?.stamp ?? '', identity: r?.identity_stamp ?? '' });

/** Whether the data stamp tells every change of this filter's result (filters on other tables — customer, sub-area — do not). */
export const stampCovers = (filter: MinerFilter): boolean => filter.customer === undefined && filter.subArea === undefined && filter.accident === undefined;

/** The key of a farm's filter (its set parts in name order): equal filters, equal keys. */
export function filterKey(agentKey: string, filter: MinerFilter, offShelf = false): string {
  const parts = Object.entries(filter)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  // Whether off-shelf miners are left out (hasOffShelf) is part of the result: a farm with none answers otherwise.
  return `${agentKey}\u0000${JSON.stringify(parts)}${offShelf ? '\u0000on-shelf' : ''}`;
}

/** A kept result: its value, the data stamp it was made at, when (clock hour and ms), the farm's uploads noted before it was made. */
interface Kept<T> {
  value: T;
  stamp: string;
  hour: number;
  at: number;
  uploads: number;
}
const hourOf = (ms: number) => Math.floor(ms / 3_600_000);

/**
 * Results over a farm's miners kept per key under the farm's data stamp (miner-stats.ts: the counters; dashboard.ts:
 * the dashboard's figures now): given again while the stamp read by the request (an index lookup) is the one the
 * result was made at, within the same clock hour and for at most `ttlMs` — for results that also move on with the
 * clock (8-hour qualified, offline over 24 hours). Requests that find no valid result while one is being made wait
 * for it instead of making their own (a request arriving meanwhile gets the farm as it was when that began, a
 * fraction of a second earlier). Per database: tests run several in one process, with equal stamps over different
 * data.
 */
export class DataStampCache<T> {
  private readonly byDb = new WeakMap<DB, { kept: Map<string, Kept<T>>; making: Map<string, Promise<Kept<T>>> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxKept: number,
  ) {}

  private cachesOf(db: DB): { kept: Map<string, Kept<T>>; making: Map<string, Promise<Kept<T>>> } {
    let c = this.byDb.get(db);
    if (!c) this.byDb.set(db, (c = { kept: new Map(), making: new Map() }));
    return c;
  }

  /** The result for `key` of the farm `agentKey`; `make` reads it with the farm's stamps in one statement. */
  async get(db: DB, agentKey: string, key: string, make: () => Promise<{ value: T; stamps: Stamps }>): Promise<T> {
    const c = this.cachesOf(db);
    const kept = c.kept.get(key);
    const now = Date.now();
    // An upload since it was made: stale without asking the stamp.
    if (kept && now - kept.at < this.ttlMs && hourOf(now) === kept.hour && kept.uploads === uploadsOf(db, agentKey)) {
      const { rows } = await sql<{ stamp: string; identity_stamp: string }>`${sql.raw(PREPARED)}select ${stampsSql(agentKey)}`.execute(db);
      if (stampsOf(rows[0]).data === kept.stamp) return kept.value;
    }
    let making = c.making.get(key);
    if (!making) {
      const at = Date.now();
      const before = uploadsOf(db, agentKey);
      making = make()
        .then((r): Kept<T> => ({ value: r.value, stamp: r.stamps.data, hour: hourOf(at), at, uploads: before }))
        .finally(() => c.making.delete(key));
      c.making.set(key, making);
    }
    const made = await making;
    c.kept.delete(key);
    if (c.kept.size >= this.maxKept) c.kept.delete(c.kept.keys().next().value!);
    c.kept.set(key, made);
    return made.value;
  }
}

/** How long whether a farm has miners off shelf is taken as known (a safety net: the writes that change it say so). */
const SHELF_TTL_MS = 2000;
const shelves = new WeakMap<DB, Map<string, { any: boolean; at: number; generation: number }>>();
/** Bumped by every shelf change (rare): every farm's kept answer is asked again. */
let shelfGeneration = 0;

/**
 * Whether the farm has miners marked off shelf: the miner list (/device/miner, on-shelf miners) leaves them out, a
 * filter that costs a look-up per row and the counters' index-only scan; a farm with none (the usual case) needs
 * neither. Kept a moment per farm; the shelf writes (batch off shelf, back on shelf) forget it (noteShelfChange).
 */
export async function hasOffShelf(db: DB, agentKey: string): Promise<boolean> {
  let m = shelves.get(db);
  if (!m) shelves.set(db, (m = new Map()));
  const kept = m.get(agentKey);
  if (kept && kept.generation === shelfGeneration && Date.now() - kept.at < SHELF_TTL_MS) return kept.any;
  const at = Date.now();
  const generation = shelfGeneration;
  const { rows } = await sql<{ any: boolean }>`${sql.raw(PREPARED)}select exists (select 1 from miner_marks where agent_key = ${agentKey} and off_shelf) as any`.execute(db);
  const any = rows[0]?.any === true;
  m.set(agentKey, { any, at, generation });
  return any;
}

/** The IPs of the farm's miners marked off shelf (none without a look-up in the usual case: hasOffShelf is kept). */
export async function offShelfIps(db: DB, agentKey: string): Promise<string[]> {
  if (!(await hasOffShelf(db, agentKey))) return [];
  const { rows } = await sql<{ ip: string }>`select ip from miner_marks where agent_key = ${agentKey} and off_shelf`.execute(db);
  return rows.map((r) => r.ip);
}

/** A miner was taken off or put back on shelf (any farm, any database: they are rare). */
export function noteShelfChange(): void {
  shelfGeneration += 1;
}

/**
 * Per farm: how many times its zones (sub-areas and their IP segments) changed in this process. The dashboard keeps the
 * offline miners' zones under the data stamp, which a zone edit does not move: its key carries this, so the next
 * dashboard after an edit names the zones as they are now (it showed the old ones for up to a minute).
 */
const zoneGenerations = new Map<string, number>();

/** The farm's sub-areas or their IP segments were written. */
export function noteZoneChange(agentKey: string): void {
  zoneGenerations.set(agentKey, (zoneGenerations.get(agentKey) ?? 0) + 1);
}

/** How many zone changes of the farm this process noted (part of a kept result's key that names zones). */
export function zoneGeneration(agentKey: string): number {
  return zoneGenerations.get(agentKey) ?? 0;
}
