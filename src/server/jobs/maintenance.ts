/**
 * Housekeeping a minute after start, then every 10 minutes: expired sessions, old rate-limit hits, idempotency answers
 * older than 7 days, expired IP lists and verification codes, sync tombstones older than 30 days, history past its
 * retention (prune-history.ts; at most every 6 hours), and planner statistics (`analyze`): PGlite has no autovacuum,
 * so without it every query is planned on guessed row counts (measured: a full 20,000-miner sync paging 5.2 s → 3.4 s
 * of database time once analysed). Cheap on PostgreSQL too. It also prunes old security scans and processed records and
 * queues the farms' automatic security scans when due (domains/security/security-records.ts).
 * For the same reason the tables every agent upload rewrites are vacuumed here: without it each 20,000-miner batch
 * left ~40 MB of dead rows that PGlite never reused (229 MiB after 6 batches vs 87 MiB vacuumed; ingest CPU
 * 6.1 s → 5.0 s). On PostgreSQL autovacuum does this too; an extra plain vacuum is cheap and takes no heavy lock.
 *
 * `analyze` goes table by table (analyzeTables), so on PGlite (one connection) the console's requests run between the
 * tables instead of waiting for the whole database: one `analyze` of a 100,000-miner farm (miners 261 MB, their hourly
 * history 333 MB) held it 1.1 s, 0.87 s of them for miners (it reads ~30,000 sampled rows: nearly every page). The two
 * big tables (SLOW_ANALYZE) are analysed at most hourly: their statistics (models, states, hours) move slowly, and
 * their row counts stay current anyway, since every vacuum updates them. A 10-minute run now holds the connection at
 * most ~1 ms at a time (12 ms in all; once an hour 0.87 s and 0.22 s, apart). On PGlite every statement of the job also
 * waits while a console's query waits (inBackground: its turns on the connection come after theirs).
 */
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { type DB, inBackground } from '../db/kysely';
import { pruneExpiredSessions } from '../domains/auth/sessions';
import { pruneBatchLeftovers } from '../domains/batch/prune';
import { pruneAnalyses } from '../domains/miners/fault-analysis';
import { pruneSecurity, queueDueSecurityScans } from '../domains/security/security-records';
import { pruneSyncTombstones } from '../domains/sync/prune-tombstones';
import { IDEMPOTENCY_RETENTION_DAYS } from '../plugins/idempotency';
import { pruneRateLimits } from '../plugins/rate-limit';
import { DEFAULT_HISTORY_RETENTION, type HistoryRetention, pruneHistory } from './prune-history';

export async function runMaintenance(main: DB, retention: HistoryRetention = DEFAULT_HISTORY_RETENTION): Promise<void> {
  // behind the console's queries on PGlite's one connection (pglite-dialect.ts, Gate), as an agent upload is
  const db = inBackground(main);
  await pruneExpiredSessions(db);
  await pruneRateLimits(db);
  await db.deleteFrom('idempotency_keys').where('created_at', '<', new Date(Date.now() - IDEMPOTENCY_RETENTION_DAYS * 86400_000)).execute();
  await pruneBatchLeftovers(db);
  await pruneAnalyses(db);
  await pruneSyncTombstones(db);
  await pruneHistory(db, retention);
  await pruneSecurity(db);
  await queueDueSecurityScans(db);
  await sql`vacuum miners, miner_stats_hour, farm_stats_minute`.execute(db);
  await analyzeTables(db);
}

/** Tables analysed at most every ANALYZE_SLOW_EVERY_MS (see the file comment); every other table, with every run. */
export const SLOW_ANALYZE: readonly string[] = ['miners', 'miner_stats_hour'];
const ANALYZE_SLOW_EVERY_MS = 3_600_000;
const lastSlowAnalyze = new WeakMap<DB, number>();

/** Analyses the schema's tables one statement each; the slow ones only when due (or `force`). Answers the tables analysed. */
export async function analyzeTables(db: DB, now = Date.now(), force = false): Promise<string[]> {
  const last = lastSlowAnalyze.get(db);
  const slowDue = force || last === undefined || now - last >= ANALYZE_SLOW_EVERY_MS;
  if (slowDue) lastSlowAnalyze.set(db, now);
  const { rows } = await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema() order by tablename`.execute(db);
  const done: string[] = [];
  for (const { name } of rows) {
    if (!slowDue && SLOW_ANALYZE.includes(name)) continue;
    await sql`analyze ${sql.table(name)}`.execute(db);
    done.push(name);
  }
  return done;
}

export function startMaintenance(db: DB, log: FastifyBaseLogger, retention: HistoryRetention, everyMs = 600_000): () => void {
  const run = () => {
    runMaintenance(db, retention).catch((err: unknown) => log.error({ err }, 'maintenance failed'));
  };
  const first = setTimeout(run, Math.min(60_000, everyMs));
  const timer = setInterval(run, everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
