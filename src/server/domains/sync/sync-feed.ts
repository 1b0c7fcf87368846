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
 *
 * Rows leave the database as JSON text, one per row (json_build_object for `format=objects`, json_build_array in
 * the order of the source's fields for `format=columns`), and `syncAnswerJson` writes the envelope around them
 * without parsing them: at 20,000 miners that saves most of the server's work (decoding every field of every row,
 * then serialising it again) and, with columns, about half the bytes.
 */
import { type RawBuilder, sql } from 'kysely';
import type { SyncColumnsPage, SyncPage } from '@shared/schemas/sync';
import type { SyncCollection, SyncFormat } from '@shared/sync-collections';
import type { DB } from '../../db/kysely';
import { SYNC_WRITER_LOCK_CLASS } from '../../db/migrations/202611230105_add_sync_feed_support';

export interface SyncFeedQuery {
  agentKey: string;
  /** Absent = from the beginning. */
  since?: string | undefined;
  limit: number;
  /** Row shape of the answer; 'objects' when absent. */
  format?: SyncFormat | undefined;
}

/** A field of the row objects and the SQL expression of its value. */
export type SyncField<Name extends string = string> = readonly [name: Name, value: RawBuilder<unknown>];

export interface SyncRowsQuery {
  agentKey: string;
  /** Exclusive lower bound of the versions (decimal). */
  since: string;
  /** Inclusive upper bound of the versions (decimal). */
  upTo: string;
  take: number;
}

/** A collection of the feed: its row fields (in `columns` order) and its rows' source. */
export interface SyncSource {
  fields: readonly SyncField[];
  /** SQL of the row version (bigint). */
  version: RawBuilder<unknown>;
  /** `from … where` the farm's rows with since < version <= upTo `order by` version `limit` take. */
  from: (q: SyncRowsQuery) => RawBuilder<unknown>;
}

/** A page as readSyncPage reads it: `rows` holds each row's JSON text (object or array by the query's format). */
export type SyncJsonPage = SyncPage<string>;

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

/** The JSON text of a row: an object of the fields, or an array of their values in field order. */
export function rowJsonSql(fields: readonly SyncField[], format: SyncFormat): RawBuilder<unknown> {
  if (format === 'columns') return sql`json_build_array(${sql.join(fields.map(([, value]) => value))})`;
  return sql`json_build_object(${sql.join(fields.map(([name, value]) => sql`${sql.lit(name)}, ${value}`))})`;
}

/** Rows with since < version <= upTo in version order, at most `take`, each as its version and JSON text. */
export async function readSyncRows(db: DB, source: SyncSource, q: SyncRowsQuery, format: SyncFormat): Promise<{ version: string; json: string }[]> {
  const { rows } = await sql<{ version: string; json: string }>`
    select ${source.version}::text as version, ${rowJsonSql(source.fields, format)}::text as json ${source.from(q)}
  `.execute(db);
  return rows;
}

export async function readSyncPage(db: DB, collection: SyncCollection, q: SyncFeedQuery, source: SyncSource): Promise<SyncJsonPage> {
  let since = q.since ?? '0';
  let reset = false;
  if (q.since !== undefined && q.since !== '0' && (await cursorTooOld(db, collection, q.agentKey, q.since))) {
    since = '0';
    reset = true;
  }
  const take = q.limit + 1;
  const upTo = await settledVersion(db);
  const rows = await readSyncRows(db, source, { agentKey: q.agentKey, since, upTo, take }, q.format ?? 'objects');
  const { rows: tombs } = await sql<{ row_key: string; version: string }>`
    select row_key, version::text as version from sync_tombstones
    where collection = ${collection} and agent_key = ${q.agentKey} and version > ${since}::bigint and version <= ${upTo}::bigint
    order by version limit ${take}
  `.execute(db);

  // Merge two version-ordered lists, keep the first `limit` items.
  const outRows: string[] = [];
  const deleted: string[] = [];
  let i = 0;
  let j = 0;
  let cursor = since;
  while (outRows.length + deleted.length < q.limit && (i < rows.length || j < tombs.length)) {
    const r = rows[i];
    const t = tombs[j];
    if (r && (!t || BigInt(r.version) < BigInt(t.version))) {
      outRows.push(r.json);
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

/**
 * The answer's body: the envelope { code: 0, msg: 'success', data } of SyncPage (format 'objects') or
 * SyncColumnsPage (format 'columns', with `columns` = the source's field names), the rows' JSON texts written in
 * as they are.
 */
export function syncAnswerJson(page: SyncJsonPage, source: SyncSource, format: SyncFormat = 'objects'): string {
  const { rows, ...rest } = page;
  const data: Omit<SyncPage<never>, 'rows'> & Partial<Pick<SyncColumnsPage, 'columns'>> = format === 'columns' ? { columns: source.fields.map(([name]) => name), ...rest } : rest;
  // `data` always holds `deleted`, so its JSON is `{"…":…}`: the rows go in front of its first member.
  return `{"code":0,"msg":"success","data":{"rows":[${rows.join(',')}],${JSON.stringify(data).slice(1)}}`;
}
