import { type Kysely, sql } from 'kysely';

/**
 * Deleting a farm cascades to its miners and customers; their delete triggers (migration 202611230100) then tried
 * to leave a tombstone for a farm that no longer exists, so the farm delete failed on the foreign key. A farm that
 * is gone needs no tombstones (its caches go with it): skip them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function sync_tombstone() returns trigger language plpgsql as $$
    begin
      if not exists (select 1 from farms f where f.agent_key = old.agent_key) then
        return null;
      end if;
      insert into sync_tombstones (collection, agent_key, row_key) values (tg_argv[0], old.agent_key, old.id::text)
        on conflict (collection, agent_key, row_key) do update set version = nextval('row_version_seq'), deleted_at = now();
      return null;
    end $$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function sync_tombstone() returns trigger language plpgsql as $$
    begin
      insert into sync_tombstones (collection, agent_key, row_key) values (tg_argv[0], old.agent_key, old.id::text)
        on conflict (collection, agent_key, row_key) do update set version = nextval('row_version_seq'), deleted_at = now();
      return null;
    end $$;
  `.execute(db);
}
