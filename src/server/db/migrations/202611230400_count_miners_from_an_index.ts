import { type Kysely, sql } from 'kysely';

/**
 * Counting a farm's miners without reading its rows (issue 4). The counters above the miner list (/api/miner/stat),
 * a status filter's total, the hashrate overview and the dashboard count every miner of the farm after each agent
 * cycle. They read the whole miners table (~2 KB a row with its reading: 195 MB at 100,000 miners) and took each
 * state flag out of the `state` JSON and each fault out of `fault_labels` per row: on the embedded PGlite ~0.4 s
 * for the counters alone, during which no other request of any console is answered.
 *
 * - state_bits, fault_bits: the state flags and the fault labels as bits, computed by the database from `state` and
 *   `fault_labels` on every write (generated, so no writer can leave them out of step). The bits are
 *   miner-sql.ts STATE_BITS / FAULT_BITS (a test checks each against a stored row).
 * - miners_farm_counts: per farm, every column those counts read, so they are an index-only scan (~11 MB at
 *   100,000 miners; the ingest vacuums after each upload, so the rows are all-visible).
 */
const STATE_FLAGS = ['qualified', 'unqualified', 'zeroHashrate', 'cannotStart', 'illegalPool', 'abnormalIdeal', 'sleeping', 'lowPower'];
const FAULT_LABELS = ['high-temperature', 'missing-chip', 'fan-speed-abnormal', 'missing-hashboard', 'hashboard-failure', 'empty-sn', 'duplicate-sn'];

export async function up(db: Kysely<unknown>): Promise<void> {
  // `state -> flag = 'true'`: a flag that is missing or not a JSON true is 0, and never an error that would fail a write.
  const stateBits = STATE_FLAGS.map((f, i) => `(case when state -> '${f}' = 'true'::jsonb then ${1 << i} else 0 end)`).join(' | ');
  const faultBits = FAULT_LABELS.map((f, i) => `(case when '${f}' = any(fault_labels) then ${1 << i} else 0 end)`).join(' | ');
  await sql`
    alter table miners
      add column state_bits integer generated always as (${sql.raw(stateBits)}) stored,
      add column fault_bits integer generated always as (${sql.raw(faultBits)}) stored;
    create index miners_farm_counts on miners (agent_key)
      include (online, state_bits, fault_bits, taken_at, rt5s, ideal, temp_max,
               stat_hour_at, stat_hour_samples, stat_hour_online, stat_hour_real_sum, stat_hour_ideal_sum, stat_unqualified_hour_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index miners_farm_counts;
    alter table miners drop column state_bits, drop column fault_bits;
  `.execute(db);
}
