/**
 * Batch on/off shelf from a file (spec 3 §2 /setting/agent/online; shared/schemas/shelf-import.ts says what each
 * outcome means). The file is parsed and kept as the miner list's IP-list uploads are (batch/ip-lists.ts: one hour,
 * per user and farm); its rows are then checked against the farm's miners and their shelf marks in the database —
 * counted per outcome and paged there (a list holds up to 10,000 rows) — and applied: taking miners off shelf is the
 * records-only batch "off shelf" (batchOffline: the batch log and the off-shelf records name it), putting them back
 * on shelf is the off-shelf records' "back on shelf". Applying again changes nothing (every row is then "already").
 */
import { type RawBuilder, sql } from 'kysely';
import {
  SHELF_OUTCOMES,
  type ShelfAction,
  type ShelfImportApplyResult,
  type ShelfImportRow,
  type ShelfImportRowsPage,
  type ShelfImportRowsQuery,
  type ShelfImportSummary,
  type ShelfOutcome,
} from '@shared/schemas/shelf-import';
import type { DB } from '../../db/kysely';
import { AppError } from '../../errors';
import { runMinerBatch } from '../batch/run-batch';
import { putOnShelf } from './off-shelf';

interface ListRef {
  agentKey: string;
  userId: string;
  fileId: string;
}

/**
 * The list's rows with their miner and outcome for `action`, as a subquery (alias-free columns n, ip, file_sn,
 * file_customer, sn, model, off_shelf, online, outcome). A row already in the target state is "already" whatever its
 * SN: there is nothing to do for it either way.
 */
function classified(ref: ListRef, action: ShelfAction): RawBuilder<unknown> {
  const target = action === 'off';
  return sql`(
    select e.n, e.ip, e.file_sn, e.file_customer, m.sn, m.model, coalesce(mk.off_shelf, false) as off_shelf, m.online,
      case
        when m.id is null then 'unknown'
        when coalesce(mk.off_shelf, false) = ${target} then 'already'
        when e.file_sn <> '' and upper(e.file_sn) <> upper(coalesce(m.sn, '')) then 'snMismatch'
        else 'change'
      end as outcome
    from (
      select x.n::int as n, x.e ->> 'ip' as ip, trim(coalesce(x.e ->> 'sn', '')) as file_sn, coalesce(x.e ->> 'customer', '') as file_customer
      from ip_lists l, jsonb_array_elements(l.entries::jsonb) with ordinality x(e, n)
      where l.id = ${ref.fileId} and l.agent_key = ${ref.agentKey} and l.user_id = ${ref.userId} and l.expires_at > now()
    ) e
      left join miners m on m.agent_key = ${ref.agentKey} and m.ip = e.ip
      left join miner_marks mk on mk.agent_key = ${ref.agentKey} and mk.ip = e.ip
  )`;
}

/** The list must still be there (kept one hour, for the user who uploaded it). */
async function assertList(db: DB, ref: ListRef): Promise<void> {
  const row = await db
    .selectFrom('ip_lists')
    .select('id')
    .where('id', '=', ref.fileId)
    .where('agent_key', '=', ref.agentKey)
    .where('user_id', '=', ref.userId)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  if (!row) throw new AppError('ipListExpired');
}

const emptySummary = (): ShelfImportSummary => Object.fromEntries(SHELF_OUTCOMES.map((o) => [o, 0])) as ShelfImportSummary;

async function summaryOf(db: DB, ref: ListRef, action: ShelfAction): Promise<ShelfImportSummary> {
  const { rows } = await sql<{ outcome: ShelfOutcome; n: number }>`
    select c.outcome, count(*)::int as n from ${classified(ref, action)} c group by c.outcome
  `.execute(db);
  const summary = emptySummary();
  for (const r of rows) summary[r.outcome] = r.n;
  return summary;
}

export async function shelfImportRows(db: DB, userId: string, q: ShelfImportRowsQuery): Promise<ShelfImportRowsPage> {
  const ref = { agentKey: q.agentKey, userId, fileId: q.fileId };
  await assertList(db, ref);
  const summary = await summaryOf(db, ref, q.action);
  const total = q.outcome ? summary[q.outcome] : Object.values(summary).reduce((a, b) => a + b, 0);
  const { rows } = await sql<{
    n: number;
    ip: string;
    file_sn: string;
    file_customer: string;
    sn: string | null;
    model: string | null;
    off_shelf: boolean;
    online: boolean | null;
    outcome: ShelfOutcome;
  }>`
    select c.* from ${classified(ref, q.action)} c
    ${q.outcome ? sql`where c.outcome = ${q.outcome}` : sql``}
    order by c.n
    limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}
  `.execute(db);
  const list: ShelfImportRow[] = rows.map((r) => {
    const known = r.outcome !== 'unknown';
    return {
      n: r.n,
      ip: r.ip,
      fileSn: r.file_sn,
      fileCustomer: r.file_customer,
      sn: known ? (r.sn ?? '') : null,
      model: known ? (r.model ?? '') : null,
      offShelf: known ? r.off_shelf : null,
      online: known ? (r.online ?? false) : null,
      outcome: r.outcome,
    };
  });
  return { summary, list, total, curPage: q.page, pageSize: q.pageSize };
}

/** Applies the action to the rows that would change (and the SN mismatches when asked): see the file comment. */
export async function applyShelfImport(
  db: DB,
  userId: string,
  input: { agentKey: string; fileId: string; action: ShelfAction; includeSnMismatch: boolean },
): Promise<ShelfImportApplyResult> {
  const ref = { agentKey: input.agentKey, userId, fileId: input.fileId };
  await assertList(db, ref);
  // One pass over the list: every row's outcome gives both the counts and the IPs to apply to.
  const { rows } = await sql<{ ip: string; outcome: ShelfOutcome }>`
    select c.ip, c.outcome from ${classified(ref, input.action)} c order by c.n
  `.execute(db);
  const summary = emptySummary();
  for (const r of rows) summary[r.outcome] += 1;
  const ips = rows.filter((r) => r.outcome === 'change' || (input.includeSnMismatch && r.outcome === 'snMismatch')).map((r) => r.ip);
  const skipped = input.includeSnMismatch ? 0 : summary.snMismatch;
  if (ips.length === 0) return { action: input.action, changed: 0, taskId: null, summary, skipped };
  if (input.action === 'off') {
    const r = await runMinerBatch(db, { op: 'batchOffline', agentKey: input.agentKey, userId, body: { agentKey: input.agentKey, ips } });
    return { action: 'off', changed: r.accepted.length, taskId: r.taskId, summary, skipped };
  }
  const r = await putOnShelf(db, input.agentKey, userId, ips);
  return { action: 'on', changed: r.changed.length, taskId: null, summary, skipped };
}
