/** Housekeeping every 10 minutes: expired sessions, old rate-limit hits, idempotency answers older than 7 days, expired IP lists and verification codes. */
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db/kysely';
import { pruneExpiredSessions } from '../domains/auth/sessions';
import { pruneBatchLeftovers } from '../domains/batch/prune';
import { IDEMPOTENCY_RETENTION_DAYS } from '../plugins/idempotency';
import { pruneRateLimits } from '../plugins/rate-limit';

export async function runMaintenance(db: DB): Promise<void> {
  await pruneExpiredSessions(db);
  await pruneRateLimits(db);
  await db.deleteFrom('idempotency_keys').where('created_at', '<', new Date(Date.now() - IDEMPOTENCY_RETENTION_DAYS * 86400_000)).execute();
  await pruneBatchLeftovers(db);
}

export function startMaintenance(db: DB, log: FastifyBaseLogger, everyMs = 600_000): () => void {
  const timer = setInterval(() => {
    runMaintenance(db).catch((err: unknown) => log.error({ err }, 'maintenance failed'));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
