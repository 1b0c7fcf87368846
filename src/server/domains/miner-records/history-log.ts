/**
 * History logs (spec 3 §7 POST /api/miner/historyLog, GET /api/miner/historyLog/status): a request queues one
 * agent task (op 'history-log') for the miner; the agent reads the miner's log over its web interface and
 * uploads the text (POST /api/agent-uplink/history-logs/:taskId), then reports the task result as for any task.
 * The status is pending (queued) → running (agent picked it) → done (text stored) or failed (reason). A task
 * the agent finished without an upload (an agent that cannot do it) reads as failed with the agent's reason.
 */
import { sql } from 'kysely';
import type { HistoryLogInfo, HistoryLogStatus, HistoryLogUpload } from '@shared/schemas/miner-records';
import type { DB } from '../../db/kysely';
import { AppError } from '../../errors';
import type {} from '../../db/miner-records-schema';

const iso = (v: Date | string | null) => (v === null ? null : (v instanceof Date ? v : new Date(v)).toISOString());

export async function createHistoryLog(db: DB, agentKey: string, userId: string, ip: string): Promise<{ id: string; status: HistoryLogStatus }> {
  return db.transaction().execute(async (trx) => {
    const miner = await trx.selectFrom('miners').select(['id', 'sn']).where('agent_key', '=', agentKey).where('ip', '=', ip).executeTakeFirst();
    if (!miner) throw new AppError('notFound');
    const task = await trx
      .insertInto('agent_tasks')
      .values({
        agent_key: agentKey,
        op: 'history-log',
        params: '{}',
        targets: JSON.stringify([{ minerId: miner.id, ip }]),
        target_count: 1,
        created_by: userId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const log = await trx
      .insertInto('miner_history_logs')
      .values({ agent_key: agentKey, ip, task_id: task.id, created_by: userId })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('miner_record_log').values({ agent_key: agentKey, ip, action: 'historyLog', detail: JSON.stringify({ id: log.id }), user_id: userId }).execute();
    return { id: log.id, status: 'pending' as const };
  });
}

export async function getHistoryLog(db: DB, agentKey: string, id: string): Promise<HistoryLogInfo | null> {
  const { rows } = await sql<{
    id: string;
    ip: string;
    status: HistoryLogStatus;
    created_at: Date | string;
    done_at: Date | string | null;
    reason: string | null;
    source: string | null;
    content: string | null;
    task_status: string | null;
    task_done_at: Date | string | null;
    task_reason: string | null;
  }>`
    select l.id, l.ip, l.status, l.created_at, l.done_at, l.reason, l.source, l.content,
      t.status as task_status, t.done_at as task_done_at,
      (select r.reason from agent_task_results r where r.task_id = l.task_id and not r.ok limit 1) as task_reason
    from miner_history_logs l left join agent_tasks t on t.id = l.task_id
    where l.id = ${id} and l.agent_key = ${agentKey}
  `.execute(db);
  const r = rows[0];
  if (!r) return null;
  let status: HistoryLogStatus = r.status;
  let reason = r.reason;
  let doneAt = iso(r.done_at);
  if (status === 'pending' && r.task_status === 'running') status = 'running';
  if ((status === 'pending' || status === 'running') && (r.task_status === 'done' || r.task_status === null)) {
    status = 'failed';
    reason = r.task_reason ?? 'no-log-received';
    doneAt = iso(r.task_done_at);
  }
  return {
    id: r.id,
    ip: r.ip,
    status,
    createdAt: iso(r.created_at) ?? '',
    doneAt,
    reason,
    source: r.source,
    size: status === 'done' && r.content !== null ? Buffer.byteLength(r.content) : null,
    content: status === 'done' ? r.content : null,
  };
}

/** The agent's upload for its task; only the farm's own task, only once (a repeat changes nothing). */
export async function storeHistoryLog(db: DB, agentKey: string, taskId: string, u: HistoryLogUpload): Promise<{ stored: boolean }> {
  const log = await db.selectFrom('miner_history_logs').select(['id', 'status', 'ip']).where('task_id', '=', taskId).where('agent_key', '=', agentKey).executeTakeFirst();
  if (!log || log.ip !== u.ip) throw new AppError('notFound');
  if (log.status === 'done' || log.status === 'failed') return { stored: false };
  await db
    .updateTable('miner_history_logs')
    .set({
      status: u.ok ? 'done' : 'failed',
      content: u.ok ? (u.content ?? '') : null,
      source: u.source ?? null,
      reason: u.ok ? null : (u.reason ?? 'failed'),
      done_at: new Date(),
    })
    .where('id', '=', log.id)
    .execute();
  return { stored: true };
}
