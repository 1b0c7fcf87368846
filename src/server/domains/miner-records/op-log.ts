/**
 * A miner's operation log (spec 3 §3 "Operation log": date, user, operation, IP, result, reason): the batch
 * operations that reached it (agent_task_results by IP, index agent_task_results_ip), the batches still
 * queued for it, and the record changes touching it (miner_record_log) — newest first, paged in SQL.
 */
import { sql } from 'kysely';
import type { Page } from '@shared/schemas/common';
import type { MinerOpLogRow } from '@shared/schemas/miner-records';
import type { DB } from '../../db/kysely';

/** Batch params safe to show (never pool passwords or new miner passwords). */
const SAFE_PARAMS = ['percent', 'freqMhz', 'mode', 'customer', 'accident', 'note', 'powerLimitKw', 'fileName'] as const;

function safeDetail(params: Record<string, unknown> | null, agentOp: string | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // The locate light's on or off is in the agent op's name (blink-on / blink-off), not in its parameters.
  if (agentOp === 'blink-on' || agentOp === 'blink-off') out.light = agentOp === 'blink-on' ? 'on' : 'off';
  for (const k of SAFE_PARAMS) if (params && params[k] !== undefined && params[k] !== null) out[k] = params[k];
  if (params && Array.isArray(params.pools)) out.pools = (params.pools as { url?: unknown }[]).map((p) => String(p.url ?? ''));
  return out;
}

export async function findMinerOpLog(db: DB, agentKey: string, ip: string, page: number, pageSize: number): Promise<Page<MinerOpLogRow>> {
  const target = JSON.stringify([{ ip }]);
  const entries = sql`
    select r.at, t.batch_op as action, 'batch' as kind, t.created_by as user_id, r.ok, r.reason, t.params as detail, t.op as agent_op
      from agent_task_results r join agent_tasks t on t.id = r.task_id
      where r.ip = ${ip} and t.agent_key = ${agentKey} and t.batch_op is not null
    union all
    select t.created_at, t.batch_op, 'batch', t.created_by, null, null, t.params, t.op
      from agent_tasks t
      where t.agent_key = ${agentKey} and t.status <> 'done' and t.batch_op is not null and t.targets @> ${target}::jsonb
        and not exists (select 1 from agent_task_results r where r.task_id = t.id and r.ip = ${ip})
    union all
    select l.at, l.action, 'record', l.user_id, true, null, l.detail, null
      from miner_record_log l where l.agent_key = ${agentKey} and l.ip = ${ip}
  `;
  const { rows: c } = await sql<{ n: number }>`select count(*)::int as n from (${entries}) e`.execute(db);
  const total = c[0]?.n ?? 0;
  const offset = (page - 1) * pageSize;
  if (offset >= total) return { list: [], total, curPage: page, pageSize };
  const { rows } = await sql<{
    at: Date | string;
    action: string;
    kind: 'batch' | 'record';
    user_name: string | null;
    ok: boolean | null;
    reason: string | null;
    detail: Record<string, unknown> | null;
    agent_op: string | null;
  }>`
    select e.at, e.action, e.kind, u.user_name, e.ok, e.reason, e.detail, e.agent_op
    from (${entries}) e left join users u on u.id = e.user_id
    order by e.at desc, e.action limit ${pageSize} offset ${offset}
  `.execute(db);
  return {
    list: rows.map((r) => ({
      at: (r.at instanceof Date ? r.at : new Date(r.at)).toISOString(),
      action: r.action,
      kind: r.kind,
      user: r.user_name,
      ok: r.ok,
      reason: r.reason,
      detail: r.kind === 'batch' ? safeDetail(r.detail, r.agent_op) : (r.detail ?? {}),
    })),
    total,
    curPage: page,
    pageSize,
  };
}
