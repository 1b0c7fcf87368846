/**
 * Maintenance of the batch tables: expired IP lists and pool-config plans, expired or used verification codes (the
 * outbox log stays 90 days), and finished agent tasks after a year with their per-miner results (a batch on 10,000
 * miners leaves 10,000 rows; the batch log and the miners' operation logs go back a year).
 */
import type { DB } from '../../db/kysely';
import type {} from '../../db/pool-config-schema';

const OUTBOX_RETENTION_DAYS = 90;
export const TASK_RETENTION_DAYS = 365;

export async function pruneBatchLeftovers(db: DB, now = new Date()): Promise<void> {
  await db.deleteFrom('ip_lists').where('expires_at', '<', now).execute();
  await db.deleteFrom('pool_config_plans').where('expires_at', '<', now).execute();
  await db
    .deleteFrom('verification_codes')
    .where((eb) => eb.or([eb('expires_at', '<', now), eb('used_at', 'is not', null)]))
    .execute();
  await db.deleteFrom('message_outbox').where('created_at', '<', new Date(now.getTime() - OUTBOX_RETENTION_DAYS * 86400_000)).execute();
  await db
    .deleteFrom('agent_tasks')
    .where('status', '=', 'done')
    .where('created_at', '<', new Date(now.getTime() - TASK_RETENTION_DAYS * 86400_000))
    .execute();
}
