import { type Kysely, sql } from 'kysely';

/**
 * Miner list at 100,000 miners (issue 4, tests/bench/miner-list.bench.ts). The list orders by a column and then by
 * IP (miner_ip_inet(ip), ip) so pages are stable; the indexes ended at the first key, so PostgreSQL re-sorted each
 * group of equal values (Incremental Sort) and computed miner_ip_inet (a regular expression) for every row it
 * passed — 40 µs a row on PGlite, 390 ms to reach page 200. Each index now carries the whole ORDER BY, and the
 * miner id, so the page's ids come from the index alone (Index Only Scan; no expression per row):
 * - miners_farm_ip_order replaces miners_farm_ip_inet: the default IP order, both directions.
 * - miners_farm_rt5s_order replaces miners_farm_rt5s: hashrate, highest first (gHS5s desc, then IP); ascending walks
 *   it backwards and re-sorts only ties.
 * - miners_farm_temp_chip_order replaces miners_farm_temp_chip_max: hottest first (tempChipMax desc nulls last).
 * - miners_farm_faulty_ip: the fault filter (only miners with a fault label, usually a few percent, are in it), in
 *   IP order; minerWhere adds `fault_labels <> '{}'` so the planner can use it.
 * The number of indexes an ingest update maintains grows by the partial one only (and only for faulty miners).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index miners_farm_ip_inet, miners_farm_rt5s, miners_farm_temp_chip_max;
    create index miners_farm_ip_order on miners (agent_key, miner_ip_inet(ip), ip) include (id);
    create index miners_farm_rt5s_order on miners (agent_key, rt5s desc, miner_ip_inet(ip), ip) include (id);
    create index miners_farm_temp_chip_order on miners (agent_key, sync_temp_chip_max desc nulls last, miner_ip_inet(ip), ip) include (id);
    create index miners_farm_faulty_ip on miners (agent_key, miner_ip_inet(ip), ip) include (id) where fault_labels <> '{}';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index miners_farm_faulty_ip, miners_farm_temp_chip_order, miners_farm_rt5s_order, miners_farm_ip_order;
    create index miners_farm_ip_inet on miners (agent_key, miner_ip_inet(ip));
    create index miners_farm_rt5s on miners (agent_key, rt5s);
    create index miners_farm_temp_chip_max on miners (agent_key, sync_temp_chip_max desc nulls last);
  `.execute(db);
}
