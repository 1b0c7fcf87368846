import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@server/config';
import { SLOW_ANALYZE, analyzeTables, runMaintenance } from '@server/jobs/maintenance';
import { PRUNE_LIMITS, UPLOAD_RECORD_DAYS, pruneHistory } from '@server/jobs/prune-history';
import type { OpenedDatabase } from '@server/db/kysely';
import { openTestDatabase } from './harness';

/** The housekeeping job: it prunes, vacuums the upload tables and analyses — on PGlite and on PostgreSQL. */
describe('maintenance', () => {
  let opened: OpenedDatabase;
  beforeAll(async () => {
    opened = await openTestDatabase();
  });
  afterAll(async () => {
    await opened.close();
  });

  it('vacuums and analyses the upload tables; the planner knows the rows afterwards', async () => {
    const db = opened.db;
    await sql`insert into farms (agent_key, agent_name, secret_hash) values ('m-farm', 'Maintenance farm', 'x')`.execute(db);
    await sql`
      insert into miners (agent_key, ip, sn, mac, make, model, family, online, missed_polls, rt5s, rate30m, avg, ideal, work_mode, elapsed_sec, state, snapshot, taken_at)
      select 'm-farm', '10.9.' || (i / 250) || '.' || (i % 250 + 1), 'SN' || i, '', 'Bitmain', 'S21', 'antminer-stock', true, 0, 1, 1, 1, 1, 'normal', 1, '{}'::jsonb, '{}'::jsonb, now()
      from generate_series(0, 499) i`.execute(db);
    await sql`update miners set rt5s = rt5s + 1 where agent_key = 'm-farm'`.execute(db);
    await runMaintenance(db);
    const stats = await sql<{ n: number }>`select reltuples::int as n from pg_class where relname = 'miners'`.execute(db);
    expect(stats.rows[0]!.n).toBe(500);
  });

  it('analyses table by table: the big upload tables at most hourly, every other table with every run', async () => {
    const db = opened.db;
    const t0 = Date.now() + 86_400_000; // after the run of the test before (a day later: the slow tables are due)
    const first = await analyzeTables(db, t0);
    expect(first).toEqual(expect.arrayContaining(['miners', 'miner_stats_hour', 'farms', 'sessions']));
    const minerStats = async () => (await sql<{ n: number }>`select count(*)::int as n from pg_stats where tablename = 'miners'`.execute(db)).rows[0]!.n;
    expect(await minerStats()).toBeGreaterThan(10); // the planner's column statistics of miners
    // Ten minutes later: the same tables but the slow ones.
    const later = await analyzeTables(db, t0 + 600_000);
    expect(later).toEqual(first.filter((t) => !SLOW_ANALYZE.includes(t)));
    expect(later).toContain('farms');
    // An hour after the first: all of them again; forced: all of them at once.
    expect(await analyzeTables(db, t0 + 3_600_000)).toEqual(first);
    expect(await analyzeTables(db, t0 + 3_600_001, true)).toEqual(first);
  });

  it('deletes history past its retention and keeps the rest (farm minutes, farm hours, miner hours); at most every 6 hours', async () => {
    const db = opened.db;
    await sql`insert into farms (agent_key, agent_name, secret_hash) values ('h-farm', 'History farm', 'x')`.execute(db);
    await sql`
      insert into miners (agent_key, ip, sn, mac, make, model, family, online, missed_polls, rt5s, rate30m, avg, ideal, work_mode, elapsed_sec, state, snapshot, taken_at,
                          stat_hour_at, stat_hour_samples, stat_hour_real_sum, stat_hour_ideal_sum, stat_hour_online)
      values ('h-farm', '10.8.0.1', 'SNH', '', 'Bitmain', 'S21', 'antminer-stock', true, 0, 1, 1, 1, 1, 'normal', 1, '{}'::jsonb, '{}'::jsonb, now(),
              now() - interval '500 days', 1, 1, 1, 1)`.execute(db);
    const now = Date.now();
    const daysAgo = (d: number) => new Date(now - d * 86_400_000 + 60_000); // a minute inside day d
    // Minute rows 1, 6 and 8 days old (the roll-up trigger makes their hourly rows), hourly rows 390 and 410 days old.
    for (const d of [1, 6, 8]) {
      await sql`insert into farm_stats_minute (agent_key, at, real_ghs, ideal_ghs, total, online, qualified, temp_max, temp_avg) values ('h-farm', ${daysAgo(d)}, 1, 1, 1, 1, 1, 60, 60)`.execute(db);
    }
    for (const d of [390, 410]) {
      await sql`insert into farm_stats_hour (agent_key, at, samples, real_sum, ideal_sum, total_sum, online_sum, qualified_sum) values ('h-farm', ${daysAgo(d)}, 1, 1, 1, 1, 1, 1)`.execute(db);
    }
    const minerId = (await sql<{ id: string }>`select id from miners where agent_key = 'h-farm'`.execute(db)).rows[0]!.id;
    for (const d of [2, 399, 401]) {
      await sql`insert into miner_stats_hour (miner_id, at, samples, real_sum, ideal_sum, temp_max, online_samples) values (${minerId}, ${daysAgo(d)}, 1, 1, 1, 60, 1)`.execute(db);
    }
    const days = async (table: string) =>
      (await sql<{ d: number }>`select round(extract(epoch from (${new Date(now)}::timestamptz - at)) / 86400)::int as d from ${sql.table(table)} t
        where ${table === 'miner_stats_hour' ? sql`miner_id = ${minerId}` : sql`agent_key = 'h-farm'`} order by at desc`.execute(db)).rows.map((r) => r.d);

    // The defaults (7 / 400 / 400 days), as the server reads them with no variable set.
    const retention = loadConfig({}).historyRetention;
    expect(retention).toEqual({ farmMinuteDays: 7, farmHourDays: 400, minerHourDays: 400 });
    expect(await pruneHistory(db, retention, now, true)).toEqual({ farmMinutes: 1, farmHours: 1, minerHours: 1, uploads: 0 });
    expect(await days('farm_stats_minute')).toEqual([1, 6]);
    expect(await days('farm_stats_hour')).toEqual([1, 6, 8, 390]); // the roll-up outlives its minute rows
    expect(await days('miner_stats_hour')).toEqual([2, 399]);
    // The miner's current bucket (on its row) is no history row: never pruned.
    expect((await sql<{ n: number }>`select count(*)::int as n from miner_hours where miner_id = ${minerId}`.execute(db)).rows[0]!.n).toBe(3);

    // Shorter settings from the environment; a second run within 6 hours does nothing, a forced one prunes.
    const short = loadConfig({ HISTORY_MINUTE_DAYS: '2', HISTORY_HOUR_DAYS: '7', HISTORY_MINER_HOUR_DAYS: '0' }).historyRetention;
    expect(short).toEqual({ farmMinuteDays: 2, farmHourDays: 7, minerHourDays: 1 });
    expect(await pruneHistory(db, short, now + 3_600_000)).toBeNull();
    expect(await pruneHistory(db, short, now, true)).toEqual({ farmMinutes: 1, farmHours: 2, minerHours: 2, uploads: 0 });
    expect(await days('farm_stats_minute')).toEqual([1]);
    expect(await days('farm_stats_hour')).toEqual([1, 6]);
    expect(await days('miner_stats_hour')).toEqual([]);
  });

  it('prunes the miners\' hourly history miner by miner, a batch of miners per statement, every miner reached', async () => {
    const db = opened.db;
    const now = Date.now();
    // Every miner of the 500 of the first test: one row 500 days old, one 10 days old.
    await sql`
      insert into miner_stats_hour (miner_id, at, samples, real_sum, ideal_sum, temp_max, online_samples)
      select m.id, ${new Date(now)}::timestamptz - d * interval '1 day', 1, 1, 1, 60, 1
      from miners m, (values (500), (10)) v(d) where m.agent_key = 'm-farm'`.execute(db);
    const miners = (await sql<{ n: number }>`select count(*)::int as n from miners`.execute(db)).rows[0]!.n;
    const saved = PRUNE_LIMITS.minersPerStatement;
    PRUNE_LIMITS.minersPerStatement = 120; // several statements over the miners of every farm
    try {
      expect(miners).toBeGreaterThan(3 * PRUNE_LIMITS.minersPerStatement);
      const pruned = await pruneHistory(db, { farmMinuteDays: 7, farmHourDays: 400, minerHourDays: 400 }, now, true);
      expect(pruned?.minerHours).toBe(500);
    } finally {
      PRUNE_LIMITS.minersPerStatement = saved;
    }
    const left = await sql<{ n: number; oldest: number }>`
      select count(*)::int as n, max(round(extract(epoch from (${new Date(now)}::timestamptz - h.at)) / 86400))::int as oldest
      from miner_stats_hour h join miners m on m.id = h.miner_id where m.agent_key = 'm-farm'`.execute(db);
    expect(left.rows[0]).toEqual({ n: 500, oldest: 10 });
  });

  it('forgets the records of uploads received more than 90 days ago, except one cut short (its retry still needs it)', async () => {
    const db = opened.db;
    const now = Date.now();
    const ago = (d: number) => new Date(now - d * 86_400_000);
    expect(UPLOAD_RECORD_DAYS).toBe(90);
    for (const [seq, days, complete] of [[1, 100, true], [2, 100, false], [3, 89, true]] as const) {
      await db
        .insertInto('snapshot_batches')
        .values({ agent_key: 'h-farm', batch_seq: seq, cycle_started_at: ago(days), received_at: ago(days), miner_count: 1, rolled_up: false, complete })
        .execute();
    }
    const pruned = await pruneHistory(db, { farmMinuteDays: 7, farmHourDays: 400, minerHourDays: 400 }, now, true);
    expect(pruned?.uploads).toBe(1);
    const left = await db.selectFrom('snapshot_batches').select(['batch_seq', 'complete']).where('agent_key', '=', 'h-farm').orderBy('batch_seq').execute();
    expect(left.map((r) => [Number(r.batch_seq), r.complete])).toEqual([
      [2, false],
      [3, true],
    ]);
  });
});
