import { type Kysely, sql } from 'kysely';

/**
 * The phone's miner feed (GET /api/sync/miners) follows miners.sync_version instead of miners.version.
 *
 * miners.version moves with every agent cycle (every reading is new), so a technician's phone with the app open
 * downloaded the whole farm every minute: ~0.8 MiB compressed and ~1.5 s of phone CPU a minute at 20,000 miners, on
 * the farm's Wi-Fi. sync_version (from the same sequence, so cursors stay comparable with versions and tombstones)
 * moves only when what the technician acts on changes: identity (IP, SN, MAC, make, model, firmware), online, the
 * state flags, fault labels, work mode or ideal hashrate, the marks (trigger below), an SN edit; and the readings
 * (hashrate, temperatures, fans) at most every SYNC_READINGS_REFRESH (ingest-snapshots.ts), counted from sync_at.
 * sync_at starts spread over those ten minutes by the miner's IP, so about a tenth of a steady farm refreshes each
 * minute instead of all of it every tenth minute.
 *
 * miners.version is left as it was: the farm's data stamp (miner-stamps.ts) needs a value that every reading moves.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table miners add column sync_version bigint, add column sync_at timestamptz;
    update miners set sync_version = version, sync_at = taken_at - (abs(hashtext(ip)) % 600) * interval '1 second';
    alter table miners alter column sync_version set not null, alter column sync_version set default nextval('row_version_seq');
    create index miners_farm_sync_version on miners (agent_key, sync_version);

    create or replace function sync_touch_miner() returns trigger language plpgsql as $$
    begin
      update miners set version = nextval('row_version_seq'), sync_version = nextval('row_version_seq')
        where agent_key = coalesce(new.agent_key, old.agent_key) and ip = coalesce(new.ip, old.ip);
      return null;
    end $$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function sync_touch_miner() returns trigger language plpgsql as $$
    begin
      update miners set version = nextval('row_version_seq')
        where agent_key = coalesce(new.agent_key, old.agent_key) and ip = coalesce(new.ip, old.ip);
      return null;
    end $$;
    drop index miners_farm_sync_version;
    alter table miners drop column sync_version, drop column sync_at;
  `.execute(db);
}
