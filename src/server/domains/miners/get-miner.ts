/** GET /api/miner/detail: one miner of a farm by IP, its list row plus the full latest snapshot. */
import { sql } from 'kysely';
import type { MinerDetail } from '@shared/schemas/miner';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import type { DB } from '../../db/kysely';
import { ROW_COLUMNS, type RawMinerRow, toMinerRow } from './miner-sql';

export async function findMinerId(db: DB, agentKey: string, ip: string): Promise<string | null> {
  const row = await db.selectFrom('miners').select('id').where('agent_key', '=', agentKey).where('ip', '=', ip).executeTakeFirst();
  return row?.id ?? null;
}

export async function getMiner(db: DB, agentKey: string, ip: string): Promise<MinerDetail | null> {
  const { rows } = await sql<RawMinerRow & { full_snapshot: MinerSnapshot }>`
    select ${ROW_COLUMNS}, m.snapshot as full_snapshot from miners m where m.agent_key = ${agentKey} and m.ip = ${ip}
  `.execute(db);
  const r = rows[0];
  if (!r) return null;
  return { ...toMinerRow(r), snapshot: r.full_snapshot };
}
