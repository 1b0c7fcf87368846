/** GET /api/miner/detail: one miner of a farm by IP, its list row plus its latest reading in full (stored-reading.ts) and its off-shelf mark. */
import { sql } from 'kysely';
import type { MinerDetail } from '@shared/schemas/miner';
import type { DB } from '../../db/kysely';
import { ROW_COLUMNS, type RawMinerRow, toMinerRow } from './miner-sql';
import { type ReadingColumns, fullReading } from './stored-reading';

export async function findMinerId(db: DB, agentKey: string, ip: string): Promise<string | null> {
  const row = await db.selectFrom('miners').select('id').where('agent_key', '=', agentKey).where('ip', '=', ip).executeTakeFirst();
  return row?.id ?? null;
}

export async function getMiner(db: DB, agentKey: string, ip: string): Promise<MinerDetail | null> {
  const { rows } = await sql<RawMinerRow & { reading: ReadingColumns; off_shelf: { at: string | null; repairStatus: string | null } | null }>`
    select ${ROW_COLUMNS},
           (select json_build_object('at', k.off_shelf_at, 'repairStatus', k.repair_status) from miner_marks k
            where k.agent_key = m.agent_key and k.ip = m.ip and k.off_shelf) as off_shelf,
           json_build_object('ip', m.ip, 'mac', m.mac, 'make', m.make, 'model', m.model, 'family', m.family, 'firmware_version', m.firmware_version,
                             'rt5s', m.rt5s, 'rate30m', m.rate30m, 'avg', m.avg, 'ideal', m.ideal, 'work_mode', m.work_mode, 'online', m.online,
                             'missed_polls', m.missed_polls, 'state', m.state, 'fault_labels', m.fault_labels, 'snapshot', m.snapshot) as reading
    from miners m where m.agent_key = ${agentKey} and m.ip = ${ip}
  `.execute(db);
  const r = rows[0];
  if (!r) return null;
  const off = r.off_shelf;
  return { ...toMinerRow(r), snapshot: fullReading(r.reading), offShelf: off ? { at: off.at === null ? null : new Date(off.at).toISOString(), repairStatus: off.repairStatus } : null };
}
