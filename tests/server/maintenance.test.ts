import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMaintenance } from '@server/jobs/maintenance';
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
});
