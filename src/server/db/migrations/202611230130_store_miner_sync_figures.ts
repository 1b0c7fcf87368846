import { type Kysely, sql } from 'kysely';

/**
 * Ingest speed (tests/bench/snapshot-ingest.bench.ts): the four sync figures of migration
 * 202611230105_add_sync_feed_support (sync_temp_chip_max, sync_temp_pcb_max, sync_fan_min, sync_fan_max) were
 * generated columns, i.e. four jsonpath walks of the snapshot per miner per cycle inside PostgreSQL. They become
 * plain columns that the ingest writes (src/server/domains/miners/ingest-snapshots.ts computes them from the
 * reading it already holds); existing values stay. The miner list uses them too, for its chip / PCB temperature
 * and fan columns and sorts; miners_farm_temp_chip_max serves "hottest first" (tempChipMax desc, the list's
 * nulls-last order) without reading every row of the farm.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table miners
      alter column sync_temp_chip_max drop expression,
      alter column sync_temp_pcb_max drop expression,
      alter column sync_fan_min drop expression,
      alter column sync_fan_max drop expression;
    create index miners_farm_temp_chip_max on miners (agent_key, sync_temp_chip_max desc nulls last);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index miners_farm_temp_chip_max;
    alter table miners drop column sync_temp_chip_max, drop column sync_temp_pcb_max, drop column sync_fan_min, drop column sync_fan_max;
    alter table miners
      add column sync_temp_chip_max double precision generated always as (hf_jsonb_max(snapshot, '$.boards[*].tempChip[*]')) stored,
      add column sync_temp_pcb_max double precision generated always as (hf_jsonb_max(snapshot, '$.boards[*].tempPcb[*]')) stored,
      add column sync_fan_min double precision generated always as (hf_jsonb_min(snapshot, '$.fans[*]')) stored,
      add column sync_fan_max double precision generated always as (hf_jsonb_max(snapshot, '$.fans[*]')) stored;
  `.execute(db);
}
