/**
 * GET /api/miner/list: one page of a farm's miners, filtered, sorted and paged in the database. The page's
 * ids are chosen first (filter + order + limit on plain columns, or on a snapshot expression for the rarer
 * sorts), then only those rows are expanded from the snapshot.
 */
import { sql } from 'kysely';
import type { Page } from '@shared/schemas/common';
import type { MinerFilter, MinerListQuery, MinerRow } from '@shared/schemas/miner';
import type { DB } from '../../db/kysely';
import { ROW_COLUMNS, type RawMinerRow, minerOrder, minerWhere, toMinerRow } from './miner-sql';

export async function countMiners(db: DB, agentKey: string, filter: MinerFilter): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from miners m where ${minerWhere(agentKey, filter)}`.execute(db);
  return rows[0]?.n ?? 0;
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
  const total = await countMiners(db, agentKey, filter);
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
