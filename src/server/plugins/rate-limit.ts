/**
 * Fixed-window counters kept in the database, so several server instances share them (login, codes).
 */
import { sql } from 'kysely';
import type { DB } from '../db/kysely';
import { AppError } from '../errors';

export interface RateRule {
  max: number;
  windowSec: number;
}

/** Throws 429 when `bucket` already holds `max` hits in the window. */
export async function checkRateLimit(db: DB, bucket: string, rule: RateRule): Promise<void> {
  const since = new Date(Date.now() - rule.windowSec * 1000);
  const row = await db
    .selectFrom('rate_limit_hits')
    .select([sql<number>`count(*)::int`.as('n'), sql<Date | null>`min(hit_at)`.as('first')])
    .where('bucket', '=', bucket)
    .where('hit_at', '>', since)
    .executeTakeFirst();
  if (row && row.n >= rule.max) {
    const first = row.first ? new Date(row.first).getTime() : Date.now();
    const seconds = Math.max(1, Math.ceil((first + rule.windowSec * 1000 - Date.now()) / 1000));
    throw new AppError('tooManyRequests', { seconds });
  }
}

export async function recordRateHit(db: DB, bucket: string): Promise<void> {
  await db.insertInto('rate_limit_hits').values({ bucket }).execute();
}

/** Counts a hit in `bucket`; throws 429 when the window already holds `max` hits. */
export async function hitRateLimit(db: DB, bucket: string, rule: RateRule): Promise<void> {
  await checkRateLimit(db, bucket, rule);
  await recordRateHit(db, bucket);
}

export async function clearRateLimit(db: DB, bucket: string): Promise<void> {
  await db.deleteFrom('rate_limit_hits').where('bucket', '=', bucket).execute();
}

export async function pruneRateLimits(db: DB, olderThanSec = 86400): Promise<void> {
  await db.deleteFrom('rate_limit_hits').where('hit_at', '<', new Date(Date.now() - olderThanSec * 1000)).execute();
}
