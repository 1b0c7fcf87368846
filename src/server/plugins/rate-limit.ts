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

/**
 * Takes one attempt from `bucket` before the work it guards (a password check): the attempt is recorded first and
 * then counted with the others in the window, so attempts sent in parallel cannot all pass a check made before any
 * of them was recorded (the last of any `max + 1` to count would see them all). Throws 429 when the window then
 * holds more than `max`; a refused attempt is given back (waiting out a limit does not extend it). Answers the
 * attempt's id, to give it back with `releaseAttempt` when it should not count (a login that succeeded).
 */
export async function takeAttempt(db: DB, bucket: string, rule: RateRule): Promise<string> {
  const { id } = await db.insertInto('rate_limit_hits').values({ bucket }).returning('id').executeTakeFirstOrThrow();
  try {
    await checkRateLimit(db, bucket, { ...rule, max: rule.max + 1 });
  } catch (err) {
    await releaseAttempt(db, String(id));
    throw err;
  }
  return String(id);
}

export async function releaseAttempt(db: DB, id: string): Promise<void> {
  await db.deleteFrom('rate_limit_hits').where('id', '=', id).execute();
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
