/** GET /api/log/batchList and GET /api/minerv2/batchProgress: batches from agent_tasks and their results. */
import { sql } from 'kysely';
import type { BatchLogRow, BatchProgress, BatchStatus } from '@shared/schemas/batch-operations';
import type { Page } from '@shared/schemas/common';
import type { DB } from '../../db/kysely';

const iso = (v: Date | string | null): string | null => (v === null ? null : (v instanceof Date ? v : new Date(v)).toISOString());

interface RawLogRow {
  id: string;
  batch_op: string;
  user_name: string | null;
  created_at: Date | string;
  done_at: Date | string | null;
  total: number;
  done: number;
  ok: number;
  status: BatchStatus;
}

export async function findBatchLog(db: DB, agentKey: string, page: number, pageSize: number): Promise<Page<BatchLogRow>> {
  const { rows: countRows } = await sql<{ n: number }>`select count(*)::int as n from agent_tasks where agent_key = ${agentKey} and batch_op is not null`.execute(db);
  const total = countRows[0]?.n ?? 0;
  const { rows } = await sql<RawLogRow>`
    select t.id, t.batch_op, u.user_name, t.created_at, t.done_at, t.status,
      coalesce(t.total_count, t.target_count)::int as total,
      (select count(*)::int from agent_task_results r where r.task_id = t.id) as done,
      (select count(*)::int from agent_task_results r where r.task_id = t.id and r.ok) as ok
    from agent_tasks t left join users u on u.id = t.created_by
    where t.agent_key = ${agentKey} and t.batch_op is not null
    order by t.created_at desc, t.id
    limit ${pageSize} offset ${(page - 1) * pageSize}
  `.execute(db);
  return {
    list: rows.map((r) => ({
      taskId: r.id,
      op: r.batch_op,
      user: r.user_name,
      createdAt: iso(r.created_at) ?? '',
      doneAt: iso(r.done_at),
      total: r.total,
      done: r.done,
      ok: r.ok,
      failed: r.done - r.ok,
      status: r.status,
    })),
    total,
    curPage: page,
    pageSize,
  };
}

export async function getBatchProgress(db: DB, agentKey: string, taskId: string): Promise<BatchProgress | null> {
  const task = await db
    .selectFrom('agent_tasks')
    .select(['id', 'op', 'batch_op', 'status', 'target_count', 'total_count', 'created_at', 'done_at'])
    .where('id', '=', taskId)
    .where('agent_key', '=', agentKey)
    .executeTakeFirst();
  if (!task) return null;
  const results = await db
    .selectFrom('agent_task_results')
    .select(['ip', 'ok', 'reason'])
    .where('task_id', '=', taskId)
    .orderBy(sql`miner_ip_inet(ip) asc nulls last`)
    .orderBy('ip')
    .execute();
  return {
    taskId: task.id,
    op: task.batch_op ?? task.op,
    status: task.status,
    total: task.total_count ?? task.target_count,
    done: results.length,
    successes: results.filter((r) => r.ok).map((r) => r.ip),
    failures: results.filter((r) => !r.ok).map((r) => ({ ip: r.ip, reason: r.reason ?? 'failed' })),
    createdAt: iso(task.created_at) ?? '',
    doneAt: iso(task.done_at),
  };
}
