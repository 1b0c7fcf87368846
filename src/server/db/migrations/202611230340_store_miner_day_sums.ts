import { type Kysely, sql } from 'kysely';

/**
 * The list's "24-hour average hashrate" (rate24Hour) without reading history per row (issue 4): a list page read up to
 * 24 miner_stats_hour rows for each of its 50 miners (the 23 hours before the current one and the current one), and a
 * sort by it did so for every miner of the farm. The ingest now keeps, on the miner's row, the sums of the 23 whole
 * hours before its current hourly bucket (stat_hour_at):
 * - stat_day_sums: {sum of real_sum, sum of samples} of its miner_stats_hour rows with at in
 *   [stat_hour_at - 23 hours, stat_hour_at) (one array: the ingest reads both in one pass over the history); null =
 *   not kept yet (the list then reads the history as before).
 * They change only when the miner's reading starts a new hour (once an hour per miner: STAT_HOUR_UPSERT), so the 24-hour
 * figure is those sums plus the current bucket (stat_hour_*). Filled here for the miners with a current bucket.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table miners add column stat_day_sums double precision[];
    update miners m set stat_day_sums = (
      select array[coalesce(sum(h.real_sum), 0), coalesce(sum(h.samples), 0)] from miner_stats_hour h
      where h.miner_id = m.id and h.at >= m.stat_hour_at - interval '23 hours' and h.at < m.stat_hour_at)
    where m.stat_hour_at is not null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table miners drop column stat_day_sums`.execute(db);
}
