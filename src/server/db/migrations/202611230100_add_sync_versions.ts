import { type Kysely, sql } from 'kysely';

/**
 * Delta sync (GET /api/sync/<collection>): every synced row carries a version from row_version_seq, bumped on
 * every change, and deletions leave a tombstone with a version of their own, so one cursor (a version) tells a
 * client everything that changed after it.
 * - miners.version is bumped by ingest (already) and by any change of the miner's marks (trigger below), so a
 *   customer or accident mark changed in the console reaches the phones.
 * - miner_marks.version: the version a client sends back with a change of customer (409 when stale).
 * - customers.version: bumped on update by trigger.
 * - sync_tombstones: (collection, agent_key, row_key) of deleted rows, kept 30 days (jobs prune them; a client
 *   whose cursor is older than the oldest kept tombstone resyncs from scratch).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table miner_marks add column version bigint not null default nextval('row_version_seq');
    alter table customers add column version bigint not null default nextval('row_version_seq');
    create index customers_version on customers (agent_key, version);
    create table sync_tombstones (
      collection text not null,
      agent_key text not null references farms(agent_key) on delete cascade,
      row_key text not null,
      version bigint not null default nextval('row_version_seq'),
      deleted_at timestamptz not null default now(),
      primary key (collection, agent_key, row_key)
    );
    create index sync_tombstones_version on sync_tombstones (collection, agent_key, version);

    create function sync_bump_version() returns trigger language plpgsql as $$
    begin
      new.version := nextval('row_version_seq');
      return new;
    end $$;
    create trigger customers_bump_version before update on customers
      for each row execute function sync_bump_version();
    create trigger miner_marks_bump_version before update on miner_marks
      for each row execute function sync_bump_version();

    create function sync_touch_miner() returns trigger language plpgsql as $$
    begin
      update miners set version = nextval('row_version_seq')
        where agent_key = coalesce(new.agent_key, old.agent_key) and ip = coalesce(new.ip, old.ip);
      return null;
    end $$;
    create trigger miner_marks_touch_miner after insert or update or delete on miner_marks
      for each row execute function sync_touch_miner();

    create function sync_tombstone() returns trigger language plpgsql as $$
    begin
      insert into sync_tombstones (collection, agent_key, row_key) values (tg_argv[0], old.agent_key, old.id::text)
        on conflict (collection, agent_key, row_key) do update set version = nextval('row_version_seq'), deleted_at = now();
      return null;
    end $$;
    create trigger miners_tombstone after delete on miners
      for each row execute function sync_tombstone('miners');
    create trigger customers_tombstone after delete on customers
      for each row execute function sync_tombstone('customers');
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger customers_tombstone on customers;
    drop trigger miners_tombstone on miners;
    drop function sync_tombstone();
    drop trigger miner_marks_touch_miner on miner_marks;
    drop function sync_touch_miner();
    drop trigger miner_marks_bump_version on miner_marks;
    drop trigger customers_bump_version on customers;
    drop function sync_bump_version();
    drop table sync_tombstones;
    drop index customers_version;
    alter table customers drop column version;
    alter table miner_marks drop column version;
  `.execute(db);
}
