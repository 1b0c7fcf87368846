import { type Kysely, sql } from 'kysely';

/**
 * The miner list's identity stamp (src/server/domains/miners/find-miners.ts): per farm, a version that changes only
 * when the farm gains or loses a miner or when a miner's identity changes (ip, sn, mac, make, model, family,
 * firmware). Readings change every agent cycle, identities seldom; a count or an ordered id list that depends only on
 * identities (the default IP order, a search by IP or SN, a model filter) is kept under this stamp and so survives
 * agent cycles, where the farm's data stamp (highest miners.version) would throw it away after every upload.
 *
 * - Inserts and deletes: statement triggers with transition tables, one bump per farm per statement (an upload that
 *   inserts nothing bumps nothing).
 * - Updates: a row trigger whose WHEN clause compares the identity columns, so an ordinary reading (identity
 *   unchanged) queues nothing; a farm is bumped once per transaction however many of its miners change
 *   (miner_identity_stamps.xact), so the first upload of 20,000 new SNs writes one stamp row, not 20,000.
 * - Truncate bumps every farm.
 * No foreign key to farms: a farm's delete cascades to its miners, whose delete trigger must not fail; a deleted
 * farm's miners bump nothing (the farm is gone first) and its stamp row is removed with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table miner_identity_stamps (
      agent_key text primary key,
      stamp bigint not null default nextval('row_version_seq'),
      xact xid8
    );
    insert into miner_identity_stamps (agent_key) select agent_key from farms;

    create function miner_identity_bump(farm text) returns void language sql as $$
      insert into miner_identity_stamps as s (agent_key, stamp, xact)
        select farm, nextval('row_version_seq'), pg_current_xact_id() where exists (select 1 from farms f where f.agent_key = farm)
      on conflict (agent_key) do update set stamp = excluded.stamp, xact = excluded.xact
        where s.xact is distinct from excluded.xact
    $$;
    create function miner_identity_rows_changed() returns trigger language plpgsql as $$
    declare
      farm text;
    begin
      for farm in select distinct agent_key from changed_rows loop
        perform miner_identity_bump(farm);
      end loop;
      return null;
    end $$;
    create function miner_identity_row_updated() returns trigger language plpgsql as $$
    begin
      perform miner_identity_bump(new.agent_key);
      if old.agent_key <> new.agent_key then
        perform miner_identity_bump(old.agent_key);
      end if;
      return null;
    end $$;
    create function miner_identity_truncated() returns trigger language plpgsql as $$
    begin
      update miner_identity_stamps set stamp = nextval('row_version_seq'), xact = pg_current_xact_id();
      return null;
    end $$;
    create function miner_identity_farm_deleted() returns trigger language plpgsql as $$
    begin
      delete from miner_identity_stamps where agent_key = old.agent_key;
      return null;
    end $$;

    create trigger miners_identity_inserted after insert on miners
      referencing new table as changed_rows for each statement execute function miner_identity_rows_changed();
    create trigger miners_identity_deleted after delete on miners
      referencing old table as changed_rows for each statement execute function miner_identity_rows_changed();
    create trigger miners_identity_updated after update on miners for each row
      when (old.agent_key is distinct from new.agent_key or old.ip is distinct from new.ip or old.sn is distinct from new.sn
            or old.mac is distinct from new.mac or old.make is distinct from new.make or old.model is distinct from new.model
            or old.family is distinct from new.family or old.firmware_version is distinct from new.firmware_version
            or old.compile_time is distinct from new.compile_time)
      execute function miner_identity_row_updated();
    create trigger miners_identity_truncated after truncate on miners
      for each statement execute function miner_identity_truncated();
    create trigger farms_identity_deleted after delete on farms for each row execute function miner_identity_farm_deleted();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger farms_identity_deleted on farms;
    drop trigger miners_identity_truncated on miners;
    drop trigger miners_identity_updated on miners;
    drop trigger miners_identity_deleted on miners;
    drop trigger miners_identity_inserted on miners;
    drop function miner_identity_farm_deleted();
    drop function miner_identity_truncated();
    drop function miner_identity_row_updated();
    drop function miner_identity_rows_changed();
    drop function miner_identity_bump(text);
    drop table miner_identity_stamps;
  `.execute(db);
}
