/**
 * /device/miners off-shelf records (spec 3 §2): the farm's miners marked off shelf (miner_marks.off_shelf,
 * set by batchOffline / batchOfflineRecoverDHCP) with when, by whom, the marking batch, IP, SN, model,
 * customer — searched and paged in the database (partial index miner_marks_off_shelf) — and "back on
 * shelf" (spec 3 §4 "go on shelf or leave shelf"), a records-only change logged per miner.
 */
import { type RawBuilder, sql } from 'kysely';
import type { Page } from '@shared/schemas/common';
import type { RepairStatus } from '@shared/miner-labels';
import type { OffShelfQuery, OffShelfRow } from '@shared/schemas/miner-records';
import type { DB } from '../../db/kysely';
import { iso, likeEscape } from '../miners/miner-sql';
import { noteShelfChange } from '../miners/miner-stamps';


/**
 * The farm's off-shelf miners (miner_marks mk, joined to miners m) matching a search: IP prefix, part of the SN or
 * of the customer, and of the repair note with `withNote`.
 */
export function offShelfWhere(agentKey: string, keyword: string | undefined, withNote = false): RawBuilder<unknown> {
  const k = keyword ? likeEscape(keyword) : null;
  return sql`mk.agent_key = ${agentKey} and mk.off_shelf
    ${k ? sql`and (mk.ip like ${`${k}%`} or m.sn ilike ${`%${k}%`} or mk.customer ilike ${`%${k}%`} ${withNote ? sql`or mk.repair_note ilike ${`%${k}%`}` : sql``})` : sql``}`;
}

export async function findOffShelf(db: DB, q: OffShelfQuery): Promise<Page<OffShelfRow>> {
  const where = offShelfWhere(q.agentKey, q.keyword);
  const { rows: c } = await sql<{ n: number }>`
    select count(*)::int as n from miner_marks mk left join miners m on m.agent_key = mk.agent_key and m.ip = mk.ip where ${where}
  `.execute(db);
  const total = c[0]?.n ?? 0;
  const offset = (q.page - 1) * q.pageSize;
  if (offset >= total) return { list: [], total, curPage: q.page, pageSize: q.pageSize };
  const { rows } = await sql<{
    ip: string;
    sn: string | null;
    model: string | null;
    customer: string | null;
    off_shelf_at: Date | string | null;
    user_name: string | null;
    present: boolean;
    online: boolean | null;
    op: string | null;
    repair_status: RepairStatus;
  }>`
    select mk.ip, m.sn, m.model, mk.customer, mk.off_shelf_at, u.user_name, m.id is not null as present, m.online,
      coalesce(mk.repair_status, 'awaiting') as repair_status,
      (select t.batch_op from agent_task_results r join agent_tasks t on t.id = r.task_id
        where r.ip = mk.ip and t.agent_key = mk.agent_key and t.batch_op in ('batchOffline', 'batchOfflineRecoverDHCP')
        order by t.created_at desc limit 1) as op
    from miner_marks mk
      left join miners m on m.agent_key = mk.agent_key and m.ip = mk.ip
      left join users u on u.id = mk.updated_by
    where ${where}
    order by mk.off_shelf_at desc nulls last, miner_ip_inet(mk.ip) asc nulls last, mk.ip
    limit ${q.pageSize} offset ${offset}
  `.execute(db);
  return {
    list: rows.map((r) => ({
      ip: r.ip,
      sn: r.sn ?? '',
      model: r.model ?? '',
      customer: r.customer ?? '',
      offShelfAt: iso(r.off_shelf_at),
      by: r.user_name,
      op: r.op,
      present: r.present,
      online: r.online ?? false,
      repairStatus: r.repair_status,
    })),
    total,
    curPage: q.page,
    pageSize: q.pageSize,
  };
}

/** Puts miners back on shelf; idempotent: only miners still off shelf change (and are logged). */
export async function putOnShelf(db: DB, agentKey: string, userId: string, ips: string[]): Promise<{ changed: string[] }> {
  const unique = [...new Set(ips)];
  const done = await db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable('miner_marks')
      // back on shelf ends a repair (off-shelf-maintenance.ts)
      .set({ off_shelf: false, off_shelf_at: null, repair_status: null, repair_note: null, repair_at: null, repair_by: null, updated_by: userId, updated_at: new Date() })
      .where('agent_key', '=', agentKey)
      .where('ip', 'in', unique)
      .where('off_shelf', '=', true)
      .returning('ip')
      .execute();
    if (changed.length) {
      await trx
        .insertInto('miner_record_log')
        .values(changed.map((c) => ({ agent_key: agentKey, ip: c.ip, action: 'onShelf', detail: '{}', user_id: userId })))
        .execute();
    }
    return { changed: changed.map((c) => c.ip) };
  });
  if (done.changed.length) noteShelfChange(); // the miner list shows them again
  return done;
}
