/**
 * Off-shelf maintenance (spec 3 §2 /unshelve-miner/maintain; shared/schemas/off-shelf-maintenance.ts): the farm's miners marked
 * off shelf (miner_marks, partial index miner_marks_off_shelf) with their repair status (migration 202611230470; none
 * set = awaiting repair), counted per status and paged in the database; a status and note set on a selection, each
 * change logged in the miner's operation log; back on shelf through putOnShelf (off-shelf.ts), which ends the repair —
 * except for a scrapped miner, which must first be given another status.
 */
import { sql } from 'kysely';
import { REPAIR_STATUSES, type RepairStatus } from '@shared/miner-labels';
import type { MaintenanceChangeResult, MaintenancePage, MaintenanceQuery, MaintenanceRefusal } from '@shared/schemas/off-shelf-maintenance';
import type { DB } from '../../db/kysely';
import { iso } from '../miners/miner-sql';
import { offShelfWhere, putOnShelf } from './off-shelf';

const STATUS = sql`coalesce(mk.repair_status, 'awaiting')`;

export async function findMaintenance(db: DB, q: MaintenanceQuery): Promise<MaintenancePage> {
  const base = offShelfWhere(q.agentKey, q.keyword, true);
  const { rows: countRows } = await sql<{ status: RepairStatus; n: number }>`
    select ${STATUS} as status, count(*)::int as n
    from miner_marks mk left join miners m on m.agent_key = mk.agent_key and m.ip = mk.ip
    where ${base} group by 1
  `.execute(db);
  const counts = Object.fromEntries(REPAIR_STATUSES.map((s) => [s, 0])) as Record<RepairStatus, number>;
  for (const r of countRows) counts[r.status] = r.n;
  const total = q.status ? counts[q.status] : Object.values(counts).reduce((a, b) => a + b, 0);
  const offset = (q.page - 1) * q.pageSize;
  if (offset >= total) return { list: [], total, curPage: q.page, pageSize: q.pageSize, counts };
  const { rows } = await sql<{
    ip: string;
    sn: string | null;
    model: string | null;
    customer: string | null;
    off_shelf_at: Date | string | null;
    status: RepairStatus;
    repair_note: string | null;
    repair_at: Date | string | null;
    user_name: string | null;
    present: boolean;
    online: boolean | null;
  }>`
    select mk.ip, m.sn, m.model, mk.customer, mk.off_shelf_at, ${STATUS} as status, mk.repair_note, mk.repair_at, u.user_name,
           m.id is not null as present, m.online
    from miner_marks mk
      left join miners m on m.agent_key = mk.agent_key and m.ip = mk.ip
      left join users u on u.id = mk.repair_by
    where ${base} ${q.status ? sql`and ${STATUS} = ${q.status}` : sql``}
    order by mk.off_shelf_at asc nulls last, miner_ip_inet(mk.ip) asc nulls last, mk.ip
    limit ${q.pageSize} offset ${offset}
  `.execute(db);
  return {
    list: rows.map((r) => ({
      ip: r.ip,
      sn: r.sn ?? '',
      model: r.model ?? '',
      customer: r.customer ?? '',
      offShelfAt: iso(r.off_shelf_at),
      repairStatus: r.status,
      repairNote: r.repair_note ?? '',
      repairAt: iso(r.repair_at),
      repairBy: r.user_name,
      present: r.present,
      online: r.online ?? false,
    })),
    total,
    curPage: q.page,
    pageSize: q.pageSize,
    counts,
  };
}

/**
 * Sets the repair status (and the note, when given) of off-shelf miners. Idempotent: a miner already at that status
 * and note is not changed or logged again; one not off shelf is refused.
 */
export async function setRepairStatus(
  db: DB,
  input: { agentKey: string; userId: string; ips: string[]; status: RepairStatus; note?: string },
): Promise<MaintenanceChangeResult> {
  const unique = [...new Set(input.ips)];
  return db.transaction().execute(async (trx) => {
    const { rows: off } = await sql<{ ip: string }>`
      select ip from miner_marks where agent_key = ${input.agentKey} and off_shelf and ip = any(${unique}::text[]) for update
    `.execute(trx);
    const offSet = new Set(off.map((r) => r.ip));
    const refused: MaintenanceRefusal[] = unique.filter((ip) => !offSet.has(ip)).map((ip) => ({ ip, reason: 'notOffShelf' }));
    const note = input.note;
    const { rows: changed } = await sql<{ ip: string }>`
      update miner_marks set repair_status = ${input.status}, repair_at = now(), repair_by = ${input.userId},
        ${note === undefined ? sql`` : sql`repair_note = ${note === '' ? null : note},`} updated_by = ${input.userId}, updated_at = now()
      where agent_key = ${input.agentKey} and off_shelf and ip = any(${[...offSet]}::text[])
        and (coalesce(repair_status, 'awaiting') <> ${input.status}
             ${note === undefined ? sql`` : sql`or coalesce(repair_note, '') <> ${note}`})
      returning ip
    `.execute(trx);
    if (changed.length) {
      const detail = JSON.stringify(note === undefined ? { status: input.status } : { status: input.status, note });
      await trx
        .insertInto('miner_record_log')
        .values(changed.map((c) => ({ agent_key: input.agentKey, ip: c.ip, action: 'repairStatus', detail, user_id: input.userId })))
        .execute();
    }
    return { changed: changed.map((c) => c.ip).sort(), refused };
  });
}

/** Back on shelf from maintenance: every off-shelf miner asked for but the scrapped ones (putOnShelf clears the repair). */
export async function maintainOnShelf(db: DB, agentKey: string, userId: string, ips: string[]): Promise<MaintenanceChangeResult> {
  const unique = [...new Set(ips)];
  const { rows } = await sql<{ ip: string; status: RepairStatus }>`
    select mk.ip, ${STATUS} as status from miner_marks mk where mk.agent_key = ${agentKey} and mk.off_shelf and mk.ip = any(${unique}::text[])
  `.execute(db);
  const status = new Map(rows.map((r) => [r.ip, r.status]));
  const refused: MaintenanceRefusal[] = [];
  const allowed: string[] = [];
  for (const ip of unique) {
    const s = status.get(ip);
    if (s === undefined) refused.push({ ip, reason: 'notOffShelf' });
    else if (s === 'scrapped') refused.push({ ip, reason: 'scrapped' });
    else allowed.push(ip);
  }
  const { changed } = allowed.length ? await putOnShelf(db, agentKey, userId, allowed) : { changed: [] as string[] };
  return { changed: [...changed].sort(), refused };
}
