/**
 * POST /api/miner/updateSn: our record of a miner's SN (spec 3 §7). Stored as miners.sn_override; a trigger
 * (migration 202611230120) keeps miners.sn equal to it whatever the agent reports later, so the list, detail,
 * search and sync show it; the reported SN stays in snapshot.sn. "Duplicate SN" then follows the recorded SNs
 * (migration 202611230540), on this miner and on the ones that shared its old SN. Idempotent: the same SN again
 * changes and logs nothing.
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
    // The miners that were duplicates of its old SN only because of it are not any more (migration 202611230540 checks
    // each row when it is written; these are not written until their next reading).
    const before = m.sn_override ?? reportedSn;
    await sql`
      update miners d set fault_labels = array_remove(d.fault_labels, 'duplicate-sn'), version = nextval('row_version_seq'), sync_version = nextval('row_version_seq')
      where d.agent_key = ${agentKey} and d.sn = ${before} and ${before} <> '' and d.ip <> ${ip} and 'duplicate-sn' = any(d.fault_labels)
        and not exists (select 1 from miners o where o.agent_key = d.agent_key and o.sn = d.sn and o.ip <> d.ip)
    `.execute(trx);
    await trx
      .insertInto('miner_record_log')
      .values({ agent_key: agentKey, ip, action: 'updateSn', detail: JSON.stringify({ from: before, to: sn }), user_id: userId })
      .execute();
    return { ip, sn, reportedSn, changed: true };
  });
}
