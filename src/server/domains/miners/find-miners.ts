/**
 * GET /api/miner/list: one page of a farm's miners, filtered, sorted and paged in the database. The page's
 * ids are chosen first (filter + order + limit on plain columns, or on a snapshot expression for the rarer
 * sorts), then only those rows are expanded from the snapshot.
 *
 * The total: counting 100,000 rows under a filter costs more than the page itself (tests/bench/miner-list.bench.ts),
 * and every console on the list page asks the same counts again and again. So counts are kept per (farm, filter)
 * for COUNT_TTL_MS, and only while the farm's miners are unchanged: each request first reads the farm's data
 * stamp — the highest miners.version (every ingest, mark change or SN edit bumps it) and the highest miners
 * tombstone (every deletion leaves one) — two index probes. Any change makes the next request count again.
 */
import { sql } from 'kysely';
import type { Page } from '@shared/schemas/common';
import type { MinerFilter, MinerListQuery, MinerRow } from '@shared/schemas/miner';
import type { DB } from '../../db/kysely';
import { ROW_COLUMNS, type RawMinerRow, minerOrder, minerWhere, toMinerRow } from './miner-sql';

/** How long a count may be reused while the farm's data stamp is unchanged. */
const COUNT_TTL_MS = 10_000;
const COUNT_CACHE_MAX = 1000;
const countCache = new Map<string, { n: number; stamp: string; at: number }>();

/** Changes whenever a miner of the farm is written or deleted (see above). */
export async function minerDataStamp(db: DB, agentKey: string): Promise<string> {
  const { rows } = await sql<{ v: string | null; t: string | null }>`
    select (select max(version) from miners where agent_key = ${agentKey})::text as v,
           (select max(version) from sync_tombstones where collection = 'miners' and agent_key = ${agentKey})::text as t
  `.execute(db);
  return `${rows[0]?.v ?? ''}/${rows[0]?.t ?? ''}`;
}

export async function countMiners(db: DB, agentKey: string, filter: MinerFilter): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from miners m where ${minerWhere(agentKey, filter)}`.execute(db);
  return rows[0]?.n ?? 0;
}

/** countMiners, reused while the farm's data stamp is unchanged (at most COUNT_TTL_MS). */
async function countMinersCached(db: DB, agentKey: string, filter: MinerFilter): Promise<number> {
  const key = `${agentKey}\u0000${JSON.stringify(Object.entries(filter).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1)))}`;
  const stamp = await minerDataStamp(db, agentKey);
  const hit = countCache.get(key);
  const now = Date.now();
  if (hit && hit.stamp === stamp && now - hit.at < COUNT_TTL_MS) return hit.n;
  const n = await countMiners(db, agentKey, filter);
  countCache.delete(key);
  if (countCache.size >= COUNT_CACHE_MAX) countCache.delete(countCache.keys().next().value!);
  countCache.set(key, { n, stamp, at: now });
  return n;
}

/** Rows of the given miner ids, in the order given. */
export async function minerRowsByIds(db: DB, ids: readonly string[]): Promise<MinerRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<RawMinerRow>`select ${ROW_COLUMNS} from miners m where m.id = any(${ids as string[]}::uuid[])`.execute(db);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [toMinerRow(r)] : [];
  });
}

export async function findMiners(db: DB, q: MinerListQuery): Promise<Page<MinerRow>> {
  const { agentKey, page, pageSize, sort, order, ...filter } = q;
  const where = minerWhere(agentKey, filter);
  const total = await countMinersCached(db, agentKey, filter);
  const offset = (page - 1) * pageSize;
  if (offset >= total) return { list: [], total, curPage: page, pageSize };
  const { rows } = await sql<{ id: string }>`
    select m.id from miners m where ${where} order by ${minerOrder(sort, order)} limit ${pageSize} offset ${offset}
  `.execute(db);
  const list = await minerRowsByIds(
    db,
    rows.map((r) => r.id),
  );
  return { list, total, curPage: page, pageSize };
}
