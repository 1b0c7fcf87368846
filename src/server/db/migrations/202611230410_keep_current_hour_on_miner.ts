import { type Kysely, sql } from 'kysely';

/**
 * A miner's current hour lives on its row only (issue 3, ingest): the ingest wrote every reading twice, into the
 * miner's hourly bucket on its row (stat_hour_*, migration 202611230220) and into its miner_stats_hour row of that
 * hour (an upsert of 20,000 rows per 20,000-miner upload: ~0.44 s of PostgreSQL's 1.9 s CPU per upload,
 * tests/bench/snapshot-ingest.bench.ts). Now a miner_stats_hour row is written when the hour closes: the upsert that
 * moves the bucket to a new hour hands the closed bucket back (stat_hour_closed) and the same statement adds it to
 * the history. A reading older than the stored one (a late batch) still goes to the history directly, as before.
 *
 * - stat_hour_temp_max: the bucket's highest temperature (the history row's temp_max).
 * - stat_hour_closed: {hour as epoch seconds, samples, online samples, real sum, ideal sum, temp max} of the bucket
 *   the last update closed, null when it did not close one (read only through the upsert's RETURNING).
 * - miner_hours: the hourly history as readers see it, the history rows plus every miner's current bucket.
 *
 * Existing data: the current hour's history row held the bucket's sums too; they are taken out of it here (what is
 * left is the late readings, usually nothing: the row is then deleted), and put back by down(). miner_stats_hour's
 * fillfactor 50 (room for HOT updates every minute, migration 202611230200) goes back to the default: its rows are
 * now written once, so half-empty pages would only double the history's size.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table miners add column stat_hour_temp_max double precision, add column stat_hour_closed double precision[];
    update miners m set stat_hour_temp_max = h.temp_max from miner_stats_hour h where h.miner_id = m.id and h.at = m.stat_hour_at;
    update miner_stats_hour h set samples = h.samples - m.stat_hour_samples, online_samples = h.online_samples - m.stat_hour_online,
      real_sum = h.real_sum - m.stat_hour_real_sum, ideal_sum = h.ideal_sum - m.stat_hour_ideal_sum
    from miners m where h.miner_id = m.id and h.at = m.stat_hour_at;
    delete from miner_stats_hour where samples <= 0;
    alter table miner_stats_hour reset (fillfactor);
    create view miner_hours as
      select miner_id, at, sum(samples)::int as samples, sum(real_sum) as real_sum, sum(ideal_sum) as ideal_sum,
             max(temp_max) as temp_max, sum(online_samples)::int as online_samples
      from (
        select miner_id, at, samples, real_sum, ideal_sum, temp_max, online_samples from miner_stats_hour
        union all
        select id, stat_hour_at, stat_hour_samples, stat_hour_real_sum, stat_hour_ideal_sum, stat_hour_temp_max, stat_hour_online
        from miners where stat_hour_at is not null and stat_hour_samples > 0
      ) u
      group by miner_id, at;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop view miner_hours;
    insert into miner_stats_hour (miner_id, at, samples, real_sum, ideal_sum, temp_max, online_samples)
      select id, stat_hour_at, stat_hour_samples, stat_hour_real_sum, stat_hour_ideal_sum, stat_hour_temp_max, stat_hour_online
      from miners where stat_hour_at is not null and stat_hour_samples > 0
    on conflict (miner_id, at) do update set
      samples = miner_stats_hour.samples + excluded.samples, online_samples = miner_stats_hour.online_samples + excluded.online_samples,
      real_sum = miner_stats_hour.real_sum + excluded.real_sum, ideal_sum = miner_stats_hour.ideal_sum + excluded.ideal_sum,
      temp_max = greatest(miner_stats_hour.temp_max, excluded.temp_max);
    alter table miners drop column stat_hour_temp_max, drop column stat_hour_closed;
    alter table miner_stats_hour set (fillfactor = 50);
  `.execute(db);
}
