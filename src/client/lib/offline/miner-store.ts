/**
 * The farm's miners in the offline cache, kept in few IndexedDB records instead of one record per miner.
 *
 * Why: IndexedDB pays per record and per index entry, not per byte. In Chromium 150 (IndexedDB on SQLite),
 * 20,000 single-miner puts took 3.2 s without any index and 9–13 s with the two lookup indexes (SN, IP), against
 * ~0.1 s for the same 20,000 rows in 8 records (tests/bench offline-sync; the store layout of issue 5 took 12 s per
 * full sync). And every agent cycle gives every miner a new version, so each delta sync rewrites the whole farm.
 *
 * Layout (stores declared in collections.ts):
 * - `minerBuckets` [agentKey+bucket]: the rows, spread over MINER_BUCKETS records by a hash of the miner id
 *   (`rows` maps id → row). A miner is read with one small get; a page of the sync reads and writes each bucket it
 *   touches once.
 * - `minerIndex` [agentKey+part]: part 'keys' holds the lookup keys, sorted (SN and IP, each with the miner ids in
 *   the same order: binary search for exact and prefix lookups); part 'head' holds the miner count and a `gen`
 *   that changes with every rewrite of the keys, so readers keep the keys in memory until it changes. Both are
 *   rewritten only when a miner comes, goes, or changes SN or IP: a sync of changed readings leaves them alone.
 *
 * Every write goes through `writeMiners` / `updateMinerByIp` / `clearMiners` in one transaction with both stores,
 * so rows and keys always agree.
 */
import type { MinerSyncRow } from '@shared/schemas/sync';
import { type Cached, offlineDb } from './db';

export type CachedMiner = Cached<MinerSyncRow>;

/** Buckets per farm: 20,000 miners → ~310 rows (~100 KB) a bucket; a card reads one. */
export const MINER_BUCKETS = 64;

export interface MinerBucketRecord {
  agentKey: string;
  bucket: number;
  /** Miner id → row. */
  rows: Record<string, CachedMiner>;
}

export interface MinerKeysRecord {
  agentKey: string;
  part: 'keys';
  gen: string;
  /** Non-empty SNs, sorted (code-unit order, as IndexedDB keys), ties by id; `snId[i]` is the miner of `sn[i]`. */
  sn: string[];
  snId: string[];
  /** Every miner's IP, sorted the same way. */
  ip: string[];
  ipId: string[];
}

export interface MinerHeadRecord {
  agentKey: string;
  part: 'head';
  gen: string;
  count: number;
}

export type MinerIndexRecord = MinerKeysRecord | MinerHeadRecord;

/** FNV-1a of the id, modulo MINER_BUCKETS. */
export function bucketOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % MINER_BUCKETS;
}

const newGen = (): string => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

function minerTables() {
  const db = offlineDb();
  return { db, buckets: db.minerBuckets, index: db.minerIndex };
}

// ---- keys --------------------------------------------------------------------------------------------------------

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Sorted parallel arrays of (key, id) pairs. */
function sortedPairs(pairs: Map<string, string>): { keys: string[]; ids: string[] } {
  const ids = [...pairs.keys()];
  const keyOf = (id: string) => pairs.get(id)!;
  ids.sort((a, b) => cmp(keyOf(a), keyOf(b)) || cmp(a, b));
  return { keys: ids.map(keyOf), ids };
}

/** The first position whose key is ≥ `key`. */
export function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

let keysCache: MinerKeysRecord | null = null;

/** The farm's lookup keys (null when nothing is cached): from memory while the head's gen is unchanged. */
export async function readMinerKeys(agentKey: string): Promise<MinerKeysRecord | null> {
  const { index } = minerTables();
  const head = (await index.get([agentKey, 'head'])) as MinerHeadRecord | undefined;
  if (!head) return null;
  if (keysCache && keysCache.agentKey === agentKey && keysCache.gen === head.gen) return keysCache;
  const keys = (await index.get([agentKey, 'keys'])) as MinerKeysRecord | undefined;
  if (!keys) return null;
  keysCache = keys;
  return keys;
}

/** Miners held for the farm. */
export async function countMiners(agentKey: string): Promise<number> {
  const head = (await minerTables().index.get([agentKey, 'head'])) as MinerHeadRecord | undefined;
  return head?.count ?? 0;
}

// ---- reads -------------------------------------------------------------------------------------------------------

export async function getMiner(agentKey: string, id: string): Promise<CachedMiner | undefined> {
  const rec = await minerTables().buckets.get([agentKey, bucketOf(id)]);
  return rec?.rows[id];
}

/** The miners of `ids`, in that order (undefined where none is cached); each bucket read once. */
export async function getMiners(agentKey: string, ids: readonly string[]): Promise<(CachedMiner | undefined)[]> {
  const buckets = [...new Set(ids.map(bucketOf))];
  const recs = await minerTables().buckets.bulkGet(buckets.map((b) => [agentKey, b] as [string, number]));
  const byBucket = new Map(buckets.map((b, i) => [b, recs[i]]));
  return ids.map((id) => byBucket.get(bucketOf(id))?.rows[id]);
}

/** Every cached miner of the farm (tests and diagnostics: reads all its buckets). */
export async function allMiners(agentKey: string): Promise<CachedMiner[]> {
  const recs = await minerTables()
    .buckets.where('[agentKey+bucket]')
    .between([agentKey, 0], [agentKey, MINER_BUCKETS], true, false)
    .toArray();
  return recs.flatMap((r) => Object.values(r.rows));
}

// ---- writes ------------------------------------------------------------------------------------------------------

/** Whether the object has an own enumerable key (without building the key list of a 300-row bucket). */
function hasAny(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

interface KeyChange {
  id: string;
  /** undefined = the miner left the cache. */
  row: CachedMiner | undefined;
}

async function applyKeyChanges(agentKey: string, changes: KeyChange[]): Promise<void> {
  const { index } = minerTables();
  const prev = (await index.get([agentKey, 'keys'])) as MinerKeysRecord | undefined;
  const sn = new Map<string, string>();
  const ip = new Map<string, string>();
  if (prev) {
    prev.snId.forEach((id, i) => sn.set(id, prev.sn[i]!));
    prev.ipId.forEach((id, i) => ip.set(id, prev.ip[i]!));
  }
  for (const { id, row } of changes) {
    sn.delete(id);
    ip.delete(id);
    if (!row) continue;
    if (row.sn) sn.set(id, row.sn);
    ip.set(id, row.ip);
  }
  const s = sortedPairs(sn);
  const p = sortedPairs(ip);
  const gen = newGen();
  const keys: MinerKeysRecord = { agentKey, part: 'keys', gen, sn: s.keys, snId: s.ids, ip: p.keys, ipId: p.ids };
  const head: MinerHeadRecord = { agentKey, part: 'head', gen, count: p.ids.length };
  await index.bulkPut([keys, head]);
}

/**
 * Stores rows (new or newer) and removes miners by id, for one farm, in one transaction (nested in the caller's
 * when it includes minerBuckets and minerIndex). The keys are rewritten only when identities changed.
 */
export async function writeMiners(agentKey: string, rows: readonly CachedMiner[], deletedIds: readonly string[] = []): Promise<void> {
  if (rows.length === 0 && deletedIds.length === 0) return;
  const { db, buckets, index } = minerTables();
  await db.transaction('rw', buckets, index, async () => {
    const work = new Map<number, { put: CachedMiner[]; del: string[] }>();
    const slot = (id: string) => {
      const b = bucketOf(id);
      let w = work.get(b);
      if (!w) work.set(b, (w = { put: [], del: [] }));
      return w;
    };
    for (const id of deletedIds) slot(id).del.push(id);
    for (const row of rows) slot(row.id).put.push(row);
    const numbers = [...work.keys()];
    const recs = await buckets.bulkGet(numbers.map((b) => [agentKey, b] as [string, number]));
    const changes: KeyChange[] = [];
    const puts: MinerBucketRecord[] = [];
    const empties: [string, number][] = [];
    numbers.forEach((bucket, i) => {
      const rec: MinerBucketRecord = recs[i] ?? { agentKey, bucket, rows: {} };
      const w = work.get(bucket)!;
      for (const id of w.del) {
        if (!(id in rec.rows)) continue;
        delete rec.rows[id];
        changes.push({ id, row: undefined });
      }
      for (const row of w.put) {
        const old = rec.rows[row.id];
        rec.rows[row.id] = row;
        if (!old || old.sn !== row.sn || old.ip !== row.ip) changes.push({ id: row.id, row });
      }
      if (hasAny(rec.rows)) puts.push(rec);
      else if (recs[i]) empties.push([agentKey, bucket]);
    });
    if (puts.length) await buckets.bulkPut(puts);
    if (empties.length) await buckets.bulkDelete(empties);
    if (changes.length) await applyKeyChanges(agentKey, changes);
  });
}

/** Drops every cached miner of the farm (the feed's reset). */
export async function clearMiners(agentKey: string): Promise<void> {
  const { db, buckets, index } = minerTables();
  await db.transaction('rw', buckets, index, async () => {
    await buckets.where('[agentKey+bucket]').between([agentKey, 0], [agentKey, MINER_BUCKETS], true, false).delete();
    await index.bulkDelete([
      [agentKey, 'keys'],
      [agentKey, 'head'],
    ]);
  });
}

/** The id of the cached miner whose SN or IP is exactly `key` (the lowest id when several are), or undefined. */
export async function idOfKey(agentKey: string, field: 'sn' | 'ip', key: string): Promise<string | undefined> {
  const keys = await readMinerKeys(agentKey);
  if (!keys) return undefined;
  const sorted = keys[field];
  const i = lowerBound(sorted, key);
  return sorted[i] === key ? keys[field === 'sn' ? 'snId' : 'ipId'][i] : undefined;
}

/**
 * Changes the cached miner with this IP (an applied offline write): `patch` gets the row and returns the fields to
 * change. Resolves to the row before the change (undefined when no miner has the IP).
 */
export async function updateMinerByIp(agentKey: string, ip: string, patch: (row: CachedMiner) => Partial<CachedMiner>): Promise<CachedMiner | undefined> {
  const { db, buckets, index } = minerTables();
  return db.transaction('rw', buckets, index, async () => {
    const id = await idOfKey(agentKey, 'ip', ip);
    if (id === undefined) return undefined;
    const rec = await buckets.get([agentKey, bucketOf(id)]);
    const row = rec?.rows[id];
    if (!rec || !row) return undefined;
    const next = { ...row, ...patch(row), agentKey, id } as CachedMiner;
    rec.rows[id] = next;
    await buckets.put(rec);
    if (next.sn !== row.sn || next.ip !== row.ip) await applyKeyChanges(agentKey, [{ id, row: next }]);
    return row;
  });
}
