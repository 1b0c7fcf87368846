import { type Kysely, sql } from 'kysely';

/**
 * Dashboard speed (issue 4; tests/bench/dashboard.bench.ts): /api/miner/stat's "8-hour qualified" counter read
 * every online miner's last 8 rows of miner_stats_hour (two index probes per miner: ~1 s at 20,000 miners on
 * PGlite). The ingest now keeps, on the miner's own row and in the same upsert that stores its reading:
 * - stat_hour_at: the hour (date_trunc('hour', taken_at), like miner_stats_hour.at) of its latest reading;
 * - stat_hour_samples, stat_hour_online, stat_hour_real_sum, stat_hour_ideal_sum: that hour's bucket so far (the
 *   same sums as its miner_stats_hour row);
 * - stat_unqualified_hour_at: the latest earlier hour whose bucket was not qualified (null: none).
 * so the counter is plain column arithmetic on the scan of miners the other counters already make. Filled here
 * from the existing miner_stats_hour rows of the last 8 hours: an older hour can never count again (the window only
 * moves forward), so leaving it out (null) gives the same counts and keeps this update to ~8 rows per miner.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table miners
      add column stat_hour_at timestamptz,
      add column stat_hour_samples integer not null default 0,
      add column stat_hour_online integer not null default 0,
      add column stat_hour_real_sum double precision not null default 0,
      add column stat_hour_ideal_sum double precision not null default 0,
      add column stat_unqualified_hour_at timestamptz;
    update miners m set stat_hour_at = h.at, stat_hour_samples = h.samples, stat_hour_online = h.online_samples,
      stat_hour_real_sum = h.real_sum, stat_hour_ideal_sum = h.ideal_sum,
      stat_unqualified_hour_at = (
        select max(b.at) from miner_stats_hour b
        where b.miner_id = h.miner_id and b.at < h.at and b.at >= date_trunc('hour', now()) - interval '7 hours'
          and not (b.online_samples = b.samples and b.ideal_sum > 0 and b.real_sum >= 0.8 * b.ideal_sum))
    from (select distinct on (miner_id) * from miner_stats_hour where at >= date_trunc('hour', now()) - interval '7 hours' order by miner_id, at desc) h
    where h.miner_id = m.id;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table miners drop column stat_hour_at, drop column stat_hour_samples, drop column stat_hour_online,
      drop column stat_hour_real_sum, drop column stat_hour_ideal_sum, drop column stat_unqualified_hour_at;
  `.execute(db);
}
