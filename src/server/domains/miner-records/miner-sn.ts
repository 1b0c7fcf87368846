/**
 * POST /api/miner/updateSn: our record of a miner's SN (spec 3 §7). Stored as miners.sn_override; a trigger
 * (migration 202611230120) keeps miners.sn equal to it whatever the agent reports later, so the list, detail,
 * search and sync show it; the reported SN stays in snapshot.sn. Idempotent: the same SN again changes and
 * logs nothing.
 */
import { sql } from 'kysely';
import type { UpdateSnResult } from '@shared/schemas/miner-records';
import type { DB } from '../../db/kysely';
import { AppError } from '../../errors';

export async function updateMinerSn(db: DB, agentKey: string, userId: string, ip: string, sn: string): Promise<UpdateSnResult> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ id: string; sn_override: string | null; reported: string | null }>`
      select id, sn_override, snapshot ->> 'sn' as reported from miners where agent_key = ${agentKey} and ip = ${ip} for update
    `.execute(trx);
    const m = rows[0];
    if (!m) throw new AppError('notFound');
    const reportedSn = m.reported ?? '';
    if (m.sn_override === sn) return { ip, sn, reportedSn, changed: false };
    await sql`update miners set sn_override = ${sn}, version = nextval('row_version_seq'), sync_version = nextval('row_version_seq') where id = ${m.id}`.execute(trx);
    await trx
      .insertInto('miner_record_log')
      .values({ agent_key: agentKey, ip, action: 'updateSn', detail: JSON.stringify({ from: m.sn_override ?? reportedSn, to: sn }), user_id: userId })
      .execute();
    return { ip, sn, reportedSn, changed: true };
  });
}
