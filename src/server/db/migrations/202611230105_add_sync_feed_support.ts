import { type Kysely, sql } from 'kysely';

/** High 15 bits of the advisory lock key of in-flight sync writers ('HF'); sync-feed.ts reads the same value. */
export const SYNC_WRITER_LOCK_CLASS = 0x4846;

/**
 * Delta sync support (GET /api/sync/<collection>):
 * - sync_prune_marks: tombstones of synced collections are pruned after 30 days (jobs/maintenance). Per
 *   (collection, farm) this keeps the highest version pruned so far: a client whose cursor is below it may have
 *   missed a deletion, so the feed answers it from the beginning with `reset: true`.
 * - miners.sync_temp_chip_max / sync_temp_pcb_max / sync_fan_min / sync_fan_max: the figures the phone's miner
 *   card needs from the snapshot, stored when the snapshot is written. Reading them from the (compressed) jsonb
 *   snapshot at sync time costs ~0.5 ms per row on PGlite, i.e. seconds for a 20,000-miner farm every minute.
 *   Same values as the list's COLUMN_SQL expressions (non-numeric entries are skipped, so a generated value
 *   can never fail an ingest).
 * - Commit order vs version order: a writer takes its versions when it writes but others see them when it
 *   commits, so a reader could see version 120 (committed) while 110 is still in flight and move its cursor past
 *   110 for good. Every transaction writing a synced table therefore holds, until it ends, a shared advisory
 *   lock whose key carries the sequence value read before its first write (key = SYNC_WRITER_LOCK_CLASS << 48 |
 *   value; visible to every session in pg_locks). The feed never hands out versions above the lowest such value
 *   (domains/sync/sync-feed.ts). Shared locks never wait for each other: writers are not serialised.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sync_prune_marks (
      collection text not null,
      agent_key text not null references farms(agent_key) on delete cascade,
      pruned_through bigint not null,
      primary key (collection, agent_key)
    );
    create index sync_tombstones_deleted_at on sync_tombstones (deleted_at);

    create function hf_jsonb_max(j jsonb, p jsonpath) returns double precision language sql immutable parallel safe as $$
      select max(v::float8) from jsonb_path_query(j, p) v where jsonb_typeof(v) = 'number'
    $$;
    create function hf_jsonb_min(j jsonb, p jsonpath) returns double precision language sql immutable parallel safe as $$
      select min(v::float8) from jsonb_path_query(j, p) v where jsonb_typeof(v) = 'number'
    $$;
    alter table miners
      add column sync_temp_chip_max double precision generated always as (hf_jsonb_max(snapshot, '$.boards[*].tempChip[*]')) stored,
      add column sync_temp_pcb_max double precision generated always as (hf_jsonb_max(snapshot, '$.boards[*].tempPcb[*]')) stored,
      add column sync_fan_min double precision generated always as (hf_jsonb_min(snapshot, '$.fans[*]')) stored,
      add column sync_fan_max double precision generated always as (hf_jsonb_max(snapshot, '$.fans[*]')) stored;

    create function sync_writer_mark() returns trigger language plpgsql as $$
    declare
      low bigint;
    begin
      if current_setting('hf.sync_writer', true) is distinct from 'on' then
        select last_value into low from row_version_seq;
        perform pg_advisory_xact_lock_shared((${sql.lit(SYNC_WRITER_LOCK_CLASS)}::bigint << 48) | low);
        perform set_config('hf.sync_writer', 'on', true);
      end if;
      return null;
    end $$;
    create trigger miners_sync_writer before insert or update or delete on miners
      for each statement execute function sync_writer_mark();
    create trigger miner_marks_sync_writer before insert or update or delete on miner_marks
      for each statement execute function sync_writer_mark();
    create trigger customers_sync_writer before insert or update or delete on customers
      for each statement execute function sync_writer_mark();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger customers_sync_writer on customers;
    drop trigger miner_marks_sync_writer on miner_marks;
    drop trigger miners_sync_writer on miners;
    drop function sync_writer_mark();
    alter table miners drop column sync_temp_chip_max, drop column sync_temp_pcb_max, drop column sync_fan_min, drop column sync_fan_max;
    drop function hf_jsonb_min(jsonb, jsonpath);
    drop function hf_jsonb_max(jsonb, jsonpath);
    drop index sync_tombstones_deleted_at;
    drop table sync_prune_marks;
  `.execute(db);
}
