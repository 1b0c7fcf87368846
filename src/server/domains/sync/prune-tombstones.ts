/**
 * Maintenance: tombstones older than SYNC_TOMBSTONE_RETENTION_DAYS are deleted, and per (collection, farm) the
 * highest version deleted is remembered in sync_prune_marks, so a client whose cursor is older resyncs from the
 * beginning (readSyncPage answers `reset: true`) instead of silently keeping rows deleted meanwhile.
 * Rows whose version is at or below a new mark get a fresh version in the same transaction: otherwise a client
 * syncing from scratch in several pages would hand back, after its first page, a cursor below the mark and be
 * reset on every page, for ever (rows untouched since before the pruned deletions, e.g. long-idle customers).
 * Clients with a current cursor receive those rows once more; nothing else changes.
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
    const pruned = rows[0]?.n ?? 0;
    if (pruned === 0) return 0;
    // miners: the feed's version (sync_version, migration 202611230450) is set by its writers; customers: the before-update trigger gives the new version.
    await sql`
      update miners m set sync_version = nextval('row_version_seq')
      from sync_prune_marks p where p.collection = 'miners' and p.agent_key = m.agent_key and m.sync_version <= p.pruned_through
    `.execute(trx);
    await sql`
      update customers c set version = c.version
      from sync_prune_marks p where p.collection = 'customers' and p.agent_key = c.agent_key and c.version <= p.pruned_through
    `.execute(trx);
    return pruned;
  });
}
