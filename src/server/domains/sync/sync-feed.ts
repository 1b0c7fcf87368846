/**
 * One page of a delta-sync feed (GET /api/sync/<collection>): the collection's rows and its tombstones with a
 * version above the client's cursor, merged in version order and cut at `limit`. Both lists are read up to
 * limit + 1 with SQL paging (index (agent_key, version) on the table, (collection, agent_key, version) on the
 * tombstones), so a page never holds more than 2 × (limit + 1) rows in memory whatever the farm's size.
 *
 * Cursor: the version of the last item included. Versions come from one sequence, so a row and a tombstone
 * never share one, and everything not included has a higher version than the cursor: nothing is skipped.
 * Versions still held by uncommitted writers are not skipped either: the page stops below the lowest version a
 * writer in flight may still commit (its advisory lock, migration 202611230105_add_sync_feed_support), and below
 * the sequence's value read before that check for writers starting later.
 * A cursor older than tombstones already pruned (sync_prune_marks) restarts the feed with `reset: true`.
 */
import { sql } from 'kysely';
import type { SyncPage } from '@shared/schemas/sync';
import type { SyncCollection } from '@shared/sync-collections';
import type { DB } from '../../db/kysely';
import { SYNC_WRITER_LOCK_CLASS } from '../../db/migrations/202611230105_add_sync_feed_support';

export interface SyncFeedQuery {
  agentKey: string;
  /** Absent = from the beginning. */
  since?: string | undefined;
  limit: number;
}

/** Reads rows of the collection with since < version <= upTo, ordered by version, at most `take` (each with a decimal `version`). */
export type ReadRows<Row extends { version: string }> = (db: DB, agentKey: string, since: string, upTo: string, take: number) => Promise<Row[]>;

/**
 * The highest version every item at or below which is committed or will never exist: the sequence's last value
 * (read first: later writers take higher versions), lowered to the first version any writer in flight may hold.
 */
export async function settledVersion(db: DB): Promise<string> {
  const seq = await sql<{ v: string }>`select last_value::text as v from row_version_seq`.execute(db);
  const { rows } = await sql<{ v: string | null }>`
    select (min(((l.classid::bigint & 65535) << 32) | l.objid::bigint))::text as v
    from pg_locks l
    where l.locktype = 'advisory' and l.objsubid = 1 and (l.classid::bigint >> 16) = ${SYNC_WRITER_LOCK_CLASS}
  `.execute(db);
  const last = seq.rows[0]?.v ?? '0';
  const inFlight = rows[0]?.v ?? null;
  return inFlight !== null && BigInt(inFlight) < BigInt(last) ? inFlight : last;
}

/** True when tombstones newer than `since` may have been pruned for this farm. */
async function cursorTooOld(db: DB, collection: SyncCollection, agentKey: string, since: string): Promise<boolean> {
  const { rows } = await sql<{ stale: boolean }>`
    select pruned_through > ${since}::bigint as stale from sync_prune_marks where collection = ${collection} and agent_key = ${agentKey}
  `.execute(db);
  return rows[0]?.stale ?? false;
}

export async function readSyncPage<Row extends { id: string; version: string }>(
  db: DB,
  collection: SyncCollection,
  q: SyncFeedQuery,
  readRows: ReadRows<Row>,
): Promise<SyncPage<Row>> {
  let since = q.since ?? '0';
  let reset = false;
  if (q.since !== undefined && q.since !== '0' && (await cursorTooOld(db, collection, q.agentKey, q.since))) {
    since = '0';
    reset = true;
  }
  const take = q.limit + 1;
  const upTo = await settledVersion(db);
  const rows = await readRows(db, q.agentKey, since, upTo, take);
  const { rows: tombs } = await sql<{ row_key: string; version: string }>`
    select row_key, version::text as version from sync_tombstones
    where collection = ${collection} and agent_key = ${q.agentKey} and version > ${since}::bigint and version <= ${upTo}::bigint
    order by version limit ${take}
  `.execute(db);

  // Merge two version-ordered lists, keep the first `limit` items.
  const outRows: Row[] = [];
  const deleted: string[] = [];
  let i = 0;
  let j = 0;
  let cursor = since;
  while (outRows.length + deleted.length < q.limit && (i < rows.length || j < tombs.length)) {
    const r = rows[i];
    const t = tombs[j];
    if (r && (!t || BigInt(r.version) < BigInt(t.version))) {
      outRows.push(r);
      cursor = r.version;
      i++;
    } else if (t) {
      deleted.push(t.row_key);
      cursor = t.version;
      j++;
    }
  }
  const more = i < rows.length || j < tombs.length;
  return reset ? { rows: outRows, deleted, cursor, more, reset } : { rows: outRows, deleted, cursor, more };
}
