/**
 * History retention (issue 3: "history rollups … with a retention setting"): the farm's per-minute rows, the farm's
 * hourly roll-up and each miner's hourly rows are kept so many days (HISTORY_MINUTE_DAYS, HISTORY_HOUR_DAYS,
 * HISTORY_MINER_HOUR_DAYS; README "Configuration"), older rows are deleted; so are the records of uploads received
 * more than UPLOAD_RECORD_DAYS ago. What the screens read: the farm's "hour" series the last 24 hours of minute rows;
 * the 30-day and 1-year series the hourly roll-up (which outlives its minute rows: the roll-up trigger does not follow
 * deletions); a miner's day and month history its hourly rows. A miner's current hour is on its row (migration
 * 202611230410) and never pruned.
 *
 * miner_stats_hour has no index that starts with `at`: `delete … where at < $1` read the whole table (on PostgreSQL
 * 15 a sequential scan; 20,000 miners keep ~192 million rows over 400 days, ~17 GB read every run). It is pruned per
 * PRUNE_LIMITS.minersPerStatement miners through its primary key (miner_id, at) instead, reading only the rows it
 * deletes: the cost follows the rows pruned and the miners, not the history's length, and on PGlite the console's
 * requests run between the statements. Scratch, 5,000 miners × 30 days (3.6 million rows): nothing to prune
 * PostgreSQL 230 → 66 ms, PGlite 97 → 75 ms; one day (120,000 rows) PostgreSQL 263 → 140 ms, PGlite 160 → 301 ms
 * (five statements instead of one). It runs at most once per PRUNE_EVERY_MS per database, not with every 10-minute
 * maintenance run, which vacuums miner_stats_hour and farm_stats_minute right after it.
 */
import { sql } from 'kysely';
import type { DB } from '../db/kysely';

export interface HistoryRetention {
  /** farm_stats_minute: days kept (at least 1: the "hour" series reads the last 24 hours). */
  farmMinuteDays: number;
  /** farm_stats_hour: days kept. */
  farmHourDays: number;
  /** miner_stats_hour: days kept. */
  minerHourDays: number;
}

export const DEFAULT_HISTORY_RETENTION: HistoryRetention = { farmMinuteDays: 7, farmHourDays: 400, minerHourDays: 400 };

const DAY_MS = 86_400_000;
/** Miners per delete of their hourly history (tests lower it to reach several statements with a few miners). */
export const PRUNE_LIMITS = { minersPerStatement: 1000 };
const PRUNE_EVERY_MS = 6 * 3_600_000;
const lastPrune = new WeakMap<DB, number>();

export interface PrunedHistory {
  farmMinutes: number;
  farmHours: number;
  minerHours: number;
  /** snapshot_batches rows (the record of each upload received, which makes a repeated upload a duplicate). */
  uploads: number;
}

/**
 * Days an upload's record (snapshot_batches: farm, batchSeq) is kept. It only tells a repeated upload from a new one;
 * the agent repeats an upload until it gets the answer and then drops it, so a repeat comes within minutes (hours
 * after an outage). Without a prune the table grew by 1,440 rows a day per farm, for good.
 */
export const UPLOAD_RECORD_DAYS = 90;

/** Deletes the history rows older than the retention; null when the last prune of this database is too recent. */
export async function pruneHistory(db: DB, retention: HistoryRetention, now = Date.now(), force = false): Promise<PrunedHistory | null> {
  const last = lastPrune.get(db);
  if (!force && last !== undefined && now - last < PRUNE_EVERY_MS) return null;
  lastPrune.set(db, now);
  /** The start of the days kept (at least one). */
  const keptFrom = (days: number) => new Date(now - Math.max(1, days) * DAY_MS);
  const prune = async (table: 'farm_stats_minute' | 'farm_stats_hour', days: number): Promise<number> => {
    const res = await sql`delete from ${sql.table(table)} where at < ${keptFrom(days)}`.execute(db);
    return Number(res.numAffectedRows ?? 0);
  };
  const farmMinutes = await prune('farm_stats_minute', retention.farmMinuteDays);
  const farmHours = await prune('farm_stats_hour', retention.farmHourDays);
  const minerHours = await pruneMinerHours(db, keptFrom(retention.minerHourDays));
  // Only complete ones: an upload cut short keeps its record (and its chunk marks) for the retry that finishes it.
  const uploads = await db
    .deleteFrom('snapshot_batches')
    .where('received_at', '<', keptFrom(UPLOAD_RECORD_DAYS))
    .where('complete', '=', true)
    .executeTakeFirst();
  return { farmMinutes, farmHours, minerHours, uploads: Number(uploads.numDeletedRows) };
}

/** Deletes the hourly rows before `before`, the miners taken in id order, PRUNE_LIMITS.minersPerStatement at a time. */
async function pruneMinerHours(db: DB, before: Date): Promise<number> {
  let deleted = 0;
  let after: string | null = null;
  for (;;) {
    let q = db.selectFrom('miners').select('id').orderBy('id').limit(PRUNE_LIMITS.minersPerStatement);
    if (after !== null) q = q.where('id', '>', after);
    const ids = (await q.execute()).map((r) => r.id);
    if (ids.length === 0) return deleted;
    const res = await sql`delete from miner_stats_hour where miner_id = any(${ids}::uuid[]) and at < ${before}`.execute(db);
    deleted += Number(res.numAffectedRows ?? 0);
    after = ids[ids.length - 1]!;
  }
}
