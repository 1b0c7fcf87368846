/**
 * Maintenance: tombstones older than SYNC_TOMBSTONE_RETENTION_DAYS are deleted, and per (collection, farm) the
 * highest version deleted is remembered in sync_prune_marks, so a client whose cursor is older resyncs from the
 * beginning (readSyncPage answers `reset: true`) instead of silently keeping rows deleted meanwhile.
 */
import { sql } from 'kysely';
import type { DB } from '../../db/kysely';

export const SYNC_TOMBSTONE_RETENTION_DAYS = 30;

/** Returns how many tombstones were pruned. */
export async function pruneSyncTombstones(db: DB, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - SYNC_TOMBSTONE_RETENTION_DAYS * 86_400_000);
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ n: number }>`
      with gone as (
        delete from sync_tombstones where deleted_at < ${before} returning collection, agent_key, version
      ), marks as (
        insert into sync_prune_marks (collection, agent_key, pruned_through)
        select collection, agent_key, max(version) from gone group by collection, agent_key
        on conflict (collection, agent_key) do update set pruned_through = greatest(sync_prune_marks.pruned_through, excluded.pruned_through)
      )
      select count(*)::int as n from gone
    `.execute(trx);
    return rows[0]?.n ?? 0;
  });
}
