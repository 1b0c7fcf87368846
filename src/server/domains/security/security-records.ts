/**
 * Abnormal alarms: suspicious SSH behaviour (spec 3 §2 /alarm/security; shared/schemas/security.ts; migration
 * 202611230490). A scan is an agent task (op security-scan) over the farm's online miners the scan covers (Antminers
 * of the S19 model and newer, on stock firmware or VNish — not Braiins OS or LuxOS, whose logs cannot be read:
 * shared/security-scan.ts securityScanSupported on the stored make, model and family); each miner's result carries what the agent saw, and recordSecurityResults turns it into records:
 * - findings on a miner with a suspicious record: that record is brought up to date (kinds, report, last scan);
 * - findings on a miner without one: a new suspicious record — unless a processed record has the very same evidence
 *   (fingerprint): the log still holds the lines a user already dealt with, and that is not new;
 * - no findings: nothing changes; a suspicious record stays until a user marks it processed (spec 3 §4), since a
 *   reboot clears the log a hijacker left, not what the hijacker did.
 * Automatic scans (daily by default, weekly or off: farms.agent_settings.securityAutoScanHours) are queued by the
 * 10-minute maintenance (queueDueSecurityScans) once the last scan — or, before any, the farm's creation — is that
 * old and the farm's agent is online; they are listed in the history without a user.
 * Reboot by range is the miner list's batchReboot (batch log, progress, capability checks) on the farm's miners in
 * the range.
 */
import { sql } from 'kysely';
import type { Page } from '@shared/schemas/common';
import type { TaskMinerResult } from '@shared/schemas/agent-uplink';
import { type SecurityKind, type SecurityScanReport, securityFindings, securityScanSupported } from '@shared/security-scan';
import {
  DEFAULT_SECURITY_AUTO_SCAN_HOURS,
  SECURITY_RECORD_STATUSES,
  type SecurityListQuery,
  type SecurityPage,
  type SecurityProcessBody,
  type SecurityProcessResult,
  type SecurityRebootBody,
  type SecurityRebootResult,
  type SecurityRecordStatus,
  type SecurityScanBody,
  type SecuritySettings,
  type SecuritySettingsBody,
  type SecurityScanRow,
  type SecurityScanStarted,
  type SecurityScansQuery,
} from '@shared/schemas/security';
import { BATCH_MAX_TARGETS } from '@shared/schemas/batch-operations';
import type { DB } from '../../db/kysely';
import type {} from '../../db/miner-records-schema';
import type {} from '../../db/security-schema';
import { AppError } from '../../errors';
import { runMinerBatch } from '../batch/run-batch';
import { iso, likeEscape } from '../miners/miner-sql';

export const SECURITY_SCAN_OP = 'security-scan';

/** The farm's miners from ipBegin to ipEnd (numeric order), or all of them. */
function rangeWhere(begin: string | undefined, end: string | undefined) {
  return begin && end ? sql`and miner_ip_inet(ip) between ${begin}::inet and ${end}::inet` : sql``;
}

export async function findSecurityRecords(db: DB, q: SecurityListQuery): Promise<SecurityPage> {
  const k = q.keyword ? likeEscape(q.keyword) : null;
  const base = sql`r.agent_key = ${q.agentKey} ${k ? sql`and (r.ip like ${`${k}%`} or r.sn ilike ${`%${k}%`})` : sql``}`;
  const { rows: countRows } = await sql<{ status: SecurityRecordStatus; n: number }>`
    select r.status, count(*)::int as n from miner_security_records r where ${base} group by 1
  `.execute(db);
  const counts = Object.fromEntries(SECURITY_RECORD_STATUSES.map((s) => [s, 0])) as Record<SecurityRecordStatus, number>;
  for (const r of countRows) counts[r.status] = r.n;
  const total = q.status ? counts[q.status] : counts.suspicious + counts.processed;
  const offset = (q.page - 1) * q.pageSize;
  if (offset >= total) return { list: [], total, curPage: q.page, pageSize: q.pageSize, counts };
  const { rows } = await sql<{
    id: string;
    ip: string;
    sn: string;
    model: string;
    status: SecurityRecordStatus;
    kinds: string[];
    report: SecurityScanReport | string;
    online: boolean | null;
    first_seen_at: Date | string;
    scan_time: Date | string;
    processed_at: Date | string | null;
    user_name: string | null;
    process_note: string | null;
  }>`
    select r.id, r.ip, r.sn, r.model, r.status, r.kinds, r.report, m.online, r.first_seen_at, r.scan_time, r.processed_at,
           u.user_name, r.process_note
    from miner_security_records r
      left join miners m on m.agent_key = r.agent_key and m.ip = r.ip
      left join users u on u.id = r.processed_by
    where ${base} ${q.status ? sql`and r.status = ${q.status}` : sql``}
    order by (r.status = 'suspicious') desc, r.scan_time desc, miner_ip_inet(r.ip) asc nulls last, r.ip
    limit ${q.pageSize} offset ${offset}
  `.execute(db);
  return {
    list: rows.map((r) => ({
      id: r.id,
      ip: r.ip,
      sn: r.sn,
      model: r.model,
      status: r.status,
      kinds: r.kinds as SecurityPage['list'][number]['kinds'],
      report: typeof r.report === 'string' ? (JSON.parse(r.report) as SecurityScanReport) : r.report,
      online: r.online,
      firstSeenAt: iso(r.first_seen_at) ?? '',
      scanTime: iso(r.scan_time) ?? '',
      processedAt: iso(r.processed_at),
      processedBy: r.user_name,
      processNote: r.process_note ?? '',
    })),
    total,
    curPage: q.page,
    pageSize: q.pageSize,
    counts,
  };
}

/**
 * Queues a scan of the farm's online miners the scan covers (or of those in the range). One scan at a time per farm:
 * a second one while the first is queued or running is refused (it would only repeat the same work).
 */
export async function startSecurityScan(db: DB, userId: string | null, body: SecurityScanBody): Promise<SecurityScanStarted> {
  return db.transaction().execute(async (trx) => {
    // Serialises scan requests of one farm (the check below and the insert are then one step).
    await sql`select 1 from farms where agent_key = ${body.agentKey} for update`.execute(trx);
    const running = await trx
      .selectFrom('agent_tasks')
      .select('id')
      .where('agent_key', '=', body.agentKey)
      .where('op', '=', SECURITY_SCAN_OP)
      .where('status', '<>', 'done')
      .executeTakeFirst();
    if (running) throw new AppError('securityScanRunning', {}, { taskId: running.id });
    const { rows } = await sql<{ id: string; ip: string; sn: string; make: string; model: string; family: string | null; online: boolean }>`
      select id, ip, sn, make, model, family, online from miners
      where agent_key = ${body.agentKey} ${rangeWhere(body.ipBegin, body.ipEnd)}
      order by miner_ip_inet(ip) asc nulls last, ip
    `.execute(trx);
    const skipped = { offline: 0, unsupported: 0 };
    const targets: { minerId: string; ip: string; sn?: string }[] = [];
    for (const m of rows) {
      if (!securityScanSupported(m.make, m.model, m.family)) skipped.unsupported++;
      else if (!m.online) skipped.offline++;
      else targets.push({ minerId: m.id, ip: m.ip, ...(m.sn ? { sn: m.sn } : {}) });
    }
    if (targets.length === 0) throw new AppError('securityNothingToScan', {}, { skipped });
    const params = body.ipBegin && body.ipEnd ? { ipBegin: body.ipBegin, ipEnd: body.ipEnd } : {};
    const task = await trx
      .insertInto('agent_tasks')
      .values({
        agent_key: body.agentKey,
        op: SECURITY_SCAN_OP,
        params: JSON.stringify(params),
        targets: JSON.stringify(targets),
        target_count: targets.length,
        created_by: userId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { taskId: task.id, targets: targets.length, skipped };
  });
}

/** The farm's scans, newest first, with what each covered and found. */
export async function findSecurityScans(db: DB, q: SecurityScansQuery): Promise<Page<SecurityScanRow>> {
  const { rows: countRows } = await sql<{ n: number }>`
    select count(*)::int as n from agent_tasks where agent_key = ${q.agentKey} and op = ${SECURITY_SCAN_OP}
  `.execute(db);
  const total = countRows[0]?.n ?? 0;
  const { rows } = await sql<{
    id: string;
    status: SecurityScanRow['status'];
    created_at: Date | string;
    done_at: Date | string | null;
    user_name: string | null;
    params: Record<string, unknown> | string;
    target_count: number;
    done: number;
    failed: number;
    found: number;
  }>`
    select t.id, t.status, t.created_at, t.done_at, u.user_name, t.params, t.target_count,
           coalesce(r.done, 0)::int as done, coalesce(r.failed, 0)::int as failed, coalesce(r.found, 0)::int as found
    from agent_tasks t
      left join users u on u.id = t.created_by
      left join lateral (
        select count(*) as done, count(*) filter (where not ok) as failed,
               count(*) filter (where cardinality(security_kinds) > 0) as found
        from agent_task_results where task_id = t.id
      ) r on true
    where t.agent_key = ${q.agentKey} and t.op = ${SECURITY_SCAN_OP}
    order by t.created_at desc, t.id
    limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}
  `.execute(db);
  return {
    list: rows.map((r) => {
      const params = (typeof r.params === 'string' ? JSON.parse(r.params) : r.params) as { ipBegin?: string; ipEnd?: string };
      return {
        taskId: r.id,
        status: r.status,
        createdAt: iso(r.created_at) ?? '',
        doneAt: iso(r.done_at),
        createdBy: r.user_name,
        ipBegin: params.ipBegin ?? null,
        ipEnd: params.ipEnd ?? null,
        targets: r.target_count,
        done: r.done,
        failed: r.failed,
        found: r.found,
      };
    }),
    total,
    curPage: q.page,
    pageSize: q.pageSize,
  };
}

/** The evidence of a finding: equal for two scans that saw the same things (the same log lines, the same banner). */
function evidenceFingerprint(f: ScanFinding): string {
  const events = f.report.events.map((e) => `${e.kind} ${e.source} ${e.lastLine}`).sort();
  return JSON.stringify([f.kinds, f.report.sshOpen ? (f.report.banner ?? '') : null, events]);
}

/** What a scan found on one miner: the agent's report and the findings derived from it. */
export interface ScanFinding {
  ip: string;
  report: SecurityScanReport;
  kinds: SecurityKind[];
}

/** The findings of a scan's results: one per miner that answered with a report (kinds empty when nothing is suspicious). */
export function scanFindings(results: readonly TaskMinerResult[]): ScanFinding[] {
  return results.flatMap((r) => (r.ok && r.security ? [{ ip: r.ip, report: r.security, kinds: securityFindings(r.security) }] : []));
}

/**
 * A scan's findings as records (inside the transaction that stores its results): see the file's comment. A record
 * opened is noted in the miner's operation log (securityRaised, with its kinds). Repeating a result (the agent posts
 * again after a lost answer) changes nothing a user would see.
 */
export async function recordSecurityResults(trx: DB, agentKey: string, taskId: string, findings: readonly ScanFinding[]): Promise<void> {
  // Who started the scan (none for an automatic one): a record it opens is noted in the miner's operation log under them.
  const task = await trx.selectFrom('agent_tasks').select('created_by').where('id', '=', taskId).executeTakeFirst();
  for (const f of findings) {
    const { ip, kinds } = f;
    if (kinds.length === 0) continue;
    const report = JSON.stringify(f.report);
    const fingerprint = evidenceFingerprint(f);
    const updated = await trx
      .updateTable('miner_security_records')
      .set({ kinds, report, fingerprint, task_id: taskId, scan_time: new Date() })
      .where('agent_key', '=', agentKey)
      .where('ip', '=', ip)
      .where('status', '=', 'suspicious')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) continue;
    const { rows } = await sql<{ id: string }>`
      insert into miner_security_records (agent_key, ip, sn, model, kinds, report, fingerprint, task_id)
      select ${agentKey}, ${ip}, coalesce(m.sn, ''), coalesce(m.model, ''), ${sql.val(kinds)}::text[], ${report}::jsonb, ${fingerprint}, ${taskId}
      from (select 1) one left join miners m on m.agent_key = ${agentKey} and m.ip = ${ip}
      where not exists (
        select 1 from miner_security_records p
        where p.agent_key = ${agentKey} and p.ip = ${ip} and p.fingerprint = ${fingerprint} and p.status = 'processed'
      )
      on conflict (agent_key, ip) where status = 'suspicious' do nothing
      returning id
    `.execute(trx);
    const opened = rows[0];
    // The miner's operation log shows when an alarm was raised as well as when it was processed (securityProcessed).
    if (opened)
      await trx
        .insertInto('miner_record_log')
        .values({ agent_key: agentKey, ip, action: 'securityRaised', detail: JSON.stringify({ id: opened.id, kinds }), user_id: task?.created_by ?? null })
        .execute();
  }
}

/**
 * Marks suspicious records of the farm processed (spec 3 §4: the miner returns to normal); processed ones stay as they
 * were. Each miner's operation log notes it (miner_record_log, action securityProcessed, with the findings and note).
 */
export async function processSecurityRecords(db: DB, userId: string, body: SecurityProcessBody): Promise<SecurityProcessResult> {
  return db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable('miner_security_records')
      .set({ status: 'processed', processed_at: new Date(), processed_by: userId, process_note: body.note ?? null })
      .where('agent_key', '=', body.agentKey)
      .where('id', 'in', body.ids)
      .where('status', '=', 'suspicious')
      .returning(['id', 'ip', 'kinds'])
      .execute();
    if (done.length > 0)
      await trx
        .insertInto('miner_record_log')
        .values(
          done.map((r) => ({
            agent_key: body.agentKey,
            ip: r.ip,
            action: 'securityProcessed',
            detail: JSON.stringify({ id: r.id, kinds: r.kinds, ...(body.note ? { note: body.note } : {}) }),
            user_id: userId,
          })),
        )
        .execute();
    return { processed: done.length };
  });
}

/** Batch reboot (batchReboot, with its batch log and progress) of the farm's miners from ipBegin to ipEnd. */
export async function rebootRange(db: DB, userId: string, body: SecurityRebootBody): Promise<SecurityRebootResult> {
  const { rows } = await sql<{ ip: string }>`
    select ip from miners where agent_key = ${body.agentKey} ${rangeWhere(body.ipBegin, body.ipEnd)}
    order by miner_ip_inet(ip) asc nulls last, ip limit ${BATCH_MAX_TARGETS + 1}
  `.execute(db);
  if (rows.length === 0) throw new AppError('noMinersInRange');
  if (rows.length > BATCH_MAX_TARGETS) {
    const { rows: c } = await sql<{ n: number }>`
      select count(*)::int as n from miners where agent_key = ${body.agentKey} ${rangeWhere(body.ipBegin, body.ipEnd)}
    `.execute(db);
    throw new AppError('tooManyTargets', { count: c[0]?.n ?? rows.length, max: BATCH_MAX_TARGETS });
  }
  const run = await runMinerBatch(db, { op: 'batchReboot', agentKey: body.agentKey, userId, body: { agentKey: body.agentKey, ips: rows.map((r) => r.ip) } });
  return { taskId: run.taskId, accepted: run.accepted.length, refused: run.refused.length };
}

/** A farm's automatic scan setting; the hours between scans (0 = off). */
function autoScanHoursOf(settings: Record<string, unknown>): number {
  const v = settings.securityAutoScanHours;
  return typeof v === 'number' && v >= 0 ? v : DEFAULT_SECURITY_AUTO_SCAN_HOURS;
}

/** When a farm's next automatic scan is due: its last scan (or, before any, its creation) + the hours between scans. */
async function nextScanAt(db: DB, agentKey: string, createdAt: Date | string, hours: number): Promise<Date | null> {
  if (hours <= 0) return null;
  const last = await db
    .selectFrom('agent_tasks')
    .select((eb) => eb.fn.max('created_at').as('at'))
    .where('agent_key', '=', agentKey)
    .where('op', '=', SECURITY_SCAN_OP)
    .executeTakeFirst();
  const base = last?.at ? new Date(last.at) : new Date(createdAt);
  return new Date(base.getTime() + hours * 3_600_000);
}

export async function getSecuritySettings(db: DB, agentKey: string): Promise<SecuritySettings> {
  const farm = await db.selectFrom('farms').select(['agent_settings', 'created_at']).where('agent_key', '=', agentKey).executeTakeFirst();
  if (!farm) throw new AppError('notFound');
  const hours = autoScanHoursOf(farm.agent_settings);
  return { autoScanHours: hours, nextScanAt: iso(await nextScanAt(db, agentKey, farm.created_at, hours)) };
}

/** Saves the automatic scan setting with the farm's other agent settings (which it leaves as they are). */
export async function saveSecuritySettings(db: DB, body: SecuritySettingsBody): Promise<SecuritySettings> {
  await db
    .updateTable('farms')
    .set({ agent_settings: sql`agent_settings || ${JSON.stringify({ securityAutoScanHours: body.autoScanHours })}::jsonb`, updated_at: new Date() })
    .where('agent_key', '=', body.agentKey)
    .execute();
  return getSecuritySettings(db, body.agentKey);
}

/** How recently a farm's agent must have called in for an automatic scan to be queued for it. */
const AGENT_ONLINE_MS = 15 * 60_000;

/**
 * The 10-minute maintenance: queues the automatic scan of every farm that is due and whose agent is online. A farm
 * with a scan still queued or running, or without a miner the scan covers, is left for the next run. Answers the farms
 * scanned.
 */
export async function queueDueSecurityScans(db: DB, now = new Date()): Promise<string[]> {
  const farms = await db
    .selectFrom('farms')
    .select(['agent_key', 'agent_settings', 'created_at'])
    .where('last_online_at', '>=', new Date(now.getTime() - AGENT_ONLINE_MS))
    .execute();
  const queued: string[] = [];
  for (const f of farms) {
    const due = await nextScanAt(db, f.agent_key, f.created_at, autoScanHoursOf(f.agent_settings));
    if (!due || due > now) continue;
    try {
      await startSecurityScan(db, null, { agentKey: f.agent_key });
      queued.push(f.agent_key);
    } catch (e) {
      if (!(e instanceof AppError) || (e.errorName !== 'securityScanRunning' && e.errorName !== 'securityNothingToScan')) throw e;
    }
  }
  return queued;
}

/** Scans kept in the history (with their per-miner results), and processed records kept after their processing. */
export const SECURITY_SCAN_RETENTION_DAYS = 90;
export const SECURITY_RECORD_RETENTION_DAYS = 365;

/**
 * The 10-minute maintenance: a daily scan of a 20,000-miner farm leaves 20,000 result rows a day, so scans older than
 * SECURITY_SCAN_RETENTION_DAYS go (their results with them); processed records go a year after their processing.
 * Suspicious records stay until processed, however old.
 */
export async function pruneSecurity(db: DB, now = new Date()): Promise<void> {
  await db
    .deleteFrom('agent_tasks')
    .where('op', '=', SECURITY_SCAN_OP)
    .where('status', '=', 'done')
    .where('created_at', '<', new Date(now.getTime() - SECURITY_SCAN_RETENTION_DAYS * 86_400_000))
    .execute();
  await db
    .deleteFrom('miner_security_records')
    .where('status', '=', 'processed')
    .where('processed_at', '<', new Date(now.getTime() - SECURITY_RECORD_RETENTION_DAYS * 86_400_000))
    .execute();
}
