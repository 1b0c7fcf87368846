/**
 * Fault analysis of one miner (spec 3 §7 POST /api/ai/analysis, GET /api/ai/status, GET /api/ai/result;
 * shared/schemas/fault-analysis.ts). A run reads the miner's latest reading and its last 24 hours (hourly history and
 * the current hour on its row), applies the rules of fault-analysis-rules.ts and keeps the findings (codes and
 * figures; migration 202611230480). The call shape is the spec's — start, then ask the status and the result — and
 * the reading's findings are made within the start call. When the miner is a stock Antminer that answers and the
 * farm's agent is online, the run also asks the agent for the miner's log (a history-log request, history-log.ts) and
 * stays running — its reading's findings shown meanwhile — until the log is read (its error lines become findings too:
 * fault-analysis-log.ts) or cannot be, at most ANALYSIS_LOG_WAIT_MS (spec 3 §4: "waiting (20-60 s)"); the run is settled
 * when its status or result is asked. The texts (reason and suggestion of each finding) are made when the result is
 * read, in the reader's language (errors.json "analysis").
 */
import { sql } from 'kysely';
import type { AnalysisLogStatus, AnalysisResult, AnalysisStarted, FaultFinding, FindingCode, FindingSeverity } from '@shared/schemas/fault-analysis';
import type { Locale } from '@shared/validation';
import type { DB } from '../../db/kysely';
import type {} from '../../db/miner-records-schema';
import { AppError } from '../../errors';
import { translate } from '../../i18n';
import { isFarmOnline } from '../farms/farms.repository';
import { createHistoryLog, getHistoryLog } from '../miner-records/history-log';
import { getMiner } from './get-miner';
import { analyseLog, mergeLogFindings } from './fault-analysis-log';
import { type RawFinding, analyseMiner } from './fault-analysis-rules';

/** Runs older than this are removed by the maintenance (pruneAnalyses). */
export const ANALYSIS_RETENTION_DAYS = 30;
/** A run waits at most this long for the miner's log (the agent asks for tasks every 5 s; reading a log takes seconds). */
export const ANALYSIS_LOG_WAIT_MS = 90_000;

export async function startAnalysis(db: DB, agentKey: string, ip: string, userId: string): Promise<AnalysisStarted> {
  const miner = await getMiner(db, agentKey, ip);
  if (!miner) throw new AppError('notFound');
  // Poll samples of the last 24 hours: the closed hours' rows and the current hour kept on the miner's row.
  const { rows } = await sql<{ samples: number; online: number }>`
    select coalesce(sum(h.samples), 0)::int + coalesce(max(m.stat_hour_samples), 0)::int as samples,
           coalesce(sum(h.online_samples), 0)::int + coalesce(max(m.stat_hour_online), 0)::int as online
    from miners m left join miner_stats_hour h on h.miner_id = m.id and h.at >= now() - interval '24 hours' and h.at < coalesce(m.stat_hour_at, now())
    where m.agent_key = ${agentKey} and m.ip = ${ip}
  `.execute(db);
  const day = rows[0] && rows[0].samples > 0 ? rows[0] : null;
  const findings = analyseMiner({ reading: miner.snapshot, day });
  const farm = await db.selectFrom('farms').select('last_online_at').where('agent_key', '=', agentKey).executeTakeFirst();
  const askLog = miner.family === 'antminer-stock' && miner.snapshot.online && !!farm && isFarmOnline(farm);
  const log = askLog ? await createHistoryLog(db, agentKey, userId, ip) : null;
  const row = await db
    .insertInto('miner_analyses')
    .values({
      agent_key: agentKey,
      ip,
      sn: miner.sn,
      model: miner.model,
      status: log ? 'running' : 'done',
      findings: JSON.stringify(findings),
      reading_at: miner.takenAt || null,
      created_by: userId,
      history_log_id: log?.id ?? null,
      log_status: log ? 'waiting' : null,
    })
    .returning(['id', 'status'])
    .executeTakeFirstOrThrow();
  return { id: row.id, status: row.status };
}

async function loadRun(db: DB, agentKey: string, id: string, now = Date.now()) {
  const row = await db.selectFrom('miner_analyses').selectAll().where('id', '=', id).where('agent_key', '=', agentKey).executeTakeFirst();
  if (!row) throw new AppError('notFound');
  if (row.status !== 'running' || row.log_status !== 'waiting') return row;
  // Settle a run waiting for the miner's log: read → its findings join the reading's; failed or too late → without.
  const log = row.history_log_id ? await getHistoryLog(db, agentKey, row.history_log_id) : null;
  const late = now - new Date(row.created_at).getTime() > ANALYSIS_LOG_WAIT_MS;
  let findings = row.findings as RawFinding[];
  let logStatus: 'read' | 'unavailable';
  if (log?.status === 'done') {
    findings = mergeLogFindings(findings, analyseLog(log.content ?? ''));
    logStatus = 'read';
  } else if (!log || log.status === 'failed' || late) logStatus = 'unavailable';
  else return row;
  const settled = await db
    .updateTable('miner_analyses')
    .set({ status: 'done', log_status: logStatus, findings: JSON.stringify(findings) })
    .where('id', '=', row.id)
    .where('status', '=', 'running')
    .returningAll()
    .executeTakeFirst();
  // another request settled it first
  return settled ?? (await db.selectFrom('miner_analyses').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
}

export async function analysisStatus(db: DB, agentKey: string, id: string): Promise<AnalysisStarted> {
  const row = await loadRun(db, agentKey, id);
  return { id: row.id, status: row.status };
}

/** A finding's texts in a language: errors.json "analysis.<code>.reason" / ".suggestion" with its figures. */
export function findingTexts(locale: Locale, f: RawFinding): FaultFinding {
  return {
    code: f.code,
    severity: f.severity,
    params: f.params,
    reason: translate(locale, `analysis.${f.code}.reason`, f.params),
    suggestion: translate(locale, `analysis.${f.code}.suggestion`, f.params),
  };
}

export async function analysisResult(db: DB, agentKey: string, id: string, locale: Locale): Promise<AnalysisResult> {
  const row = await loadRun(db, agentKey, id);
  const findings = row.findings.map((f) => findingTexts(locale, { code: f.code as FindingCode, severity: f.severity as FindingSeverity, params: f.params }));
  const first = findings[0];
  return {
    id: row.id,
    status: row.status,
    ip: row.ip,
    sn: row.sn,
    model: row.model,
    reason: first?.reason ?? '',
    suggestion: first?.suggestion ?? '',
    findings,
    readingAt: row.reading_at ? new Date(row.reading_at).toISOString() : null,
    analysedAt: new Date(row.created_at).toISOString(),
    logStatus: (row.log_status ?? 'none') satisfies AnalysisLogStatus,
  };
}

export async function pruneAnalyses(db: DB, now = new Date()): Promise<void> {
  await db.deleteFrom('miner_analyses').where('created_at', '<', new Date(now.getTime() - ANALYSIS_RETENTION_DAYS * 86400_000)).execute();
}
