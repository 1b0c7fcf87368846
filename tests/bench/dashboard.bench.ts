/**
 * (e) dashboard — the dashboard's queries on a farm of 20,000 miners with 30 days of per-cycle history, on
 * PGlite and on a throw-away PostgreSQL. Seeded in bulk SQL (generate_series), not through the uplink:
 * 20,000 miners (one in ten offline with the agent's reason, a fault label on one in twelve, temperatures 45–95 °C)
 * in 80 zones (sub-areas of one /24 each), 43,200 farm_stats_minute rows (one per minute over 30 days; the trigger
 * rolls them up per hour), 8,040 older hourly roll-up rows (the rest of a year), and HF_BENCH_DASH_HOURS (default 8)
 * hourly miner_stats_hour rows per miner (160,000), from which the seed fills the per-miner figures the ingest keeps
 * (migration 202611230220) — no call measured here reads miner_stats_hour any more (the 8-hour qualified count reads
 * those figures), so their number does not change the figures; 30 days of them (14.4 M rows) is
 * HF_BENCH_DASH_HOURS=720, slow to seed.
 * The farm and the user are created through the API; on PGlite the server is stopped while the bench
 * seeds its data directory in-process, then started again. Each call: 3 warm-ups, then 30 sequential
 * requests, each right after an agent cycle (one new reading through the uplink: the farm's data stamp changes, so
 * figures the server keeps under it — the dashboard's counters, the list counters — are counted again; p50 / p95 /
 * max, client round trip; "p50 unchanged": 10 more with no cycle in between; "server CPU/req" = CPU time of the
 * server process per request, which on PGlite includes the database's own work and on PostgreSQL does not — a figure
 * that a busy machine does not inflate the way it inflates round trips); "page" = the summary and the default chart
 * range in parallel.
 * The miner-monitoring reads with related figures (indexStat, stat with its 8-hour qualified count — read from
 * the per-miner figures the ingest keeps, which the seed fills as the ingest would —, farmSeries) are measured
 * too, for comparison; the dashboard does not call them.
 */
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { minerSnapshot } from '../support/miner-snapshots';
import { BenchClient, type BenchServer, ms, postAgentBatch, printTable, quantile, startBenchPostgres, startServer, tempDir, withPostgres } from './bench-support';

const MINERS = 20_000;
const MINUTES = 30 * 24 * 60;
const HOURS = Number(process.env.HF_BENCH_DASH_HOURS ?? 8);
const RUNS = 30;
const AGENT_KEY = 'bench-dash';
const PASSWORD = 'bench-pass-1';

/** What the dashboard page calls (the page row: these in parallel) … */
const PAGE_CALLS: Array<[string, string]> = [
  ['dashboard/summary', `/api/dashboard/summary?agentKey=${AGENT_KEY}&tzOffsetMin=480`],
  ['dashboard/series hour', `/api/dashboard/series?agentKey=${AGENT_KEY}&range=hour`],
  ['dashboard/series 30d', `/api/dashboard/series?agentKey=${AGENT_KEY}&range=30d`],
  ['dashboard/series 1y', `/api/dashboard/series?agentKey=${AGENT_KEY}&range=1y`],
];
/** … and, for comparison, the miner-monitoring reads with the same figures (hashrate overview, list counters). */
const OTHER_CALLS: Array<[string, string]> = [
  ['miner/indexStat', `/api/miner/indexStat?agentKey=${AGENT_KEY}`],
  ['miner/stat (8-hour qualified)', `/api/miner/stat?agentKey=${AGENT_KEY}`],
  ['miner/farmSeries 30d', `/api/miner/farmSeries?agentKey=${AGENT_KEY}&range=30d`],
  ['miner/farmSeries 1y', `/api/miner/farmSeries?agentKey=${AGENT_KEY}&range=1y`],
];
const CALLS = [...PAGE_CALLS, ...OTHER_CALLS];

/** The seed, as statements run in order. */
export function seedSql(): string[] {
  const k = `'${AGENT_KEY}'`;
  return [
    `insert into miners (agent_key, ip, sn, mac, make, model, family, firmware_version, online, rt5s, rate30m, avg, ideal, work_mode, temp_max, fault_labels, state, snapshot, taken_at)
     select ${k}, '10.' || (i / 65536) || '.' || ((i / 256) % 256) || '.' || (i % 256),
       'HF' || lpad(i::text, 15, '0'), '', 'Bitmain', case when i % 3 = 0 then 'Antminer S19j Pro' else 'Antminer S21' end, 'antminer-stock', '1.0',
       i % 10 <> 0,
       case when i % 10 = 0 then 0 when i % 10 = 7 then 150000 else 195000 + (i % 7) * 1000 end,
       195000, 195000, 200000, 'normal',
       case when i % 10 = 0 then null else 45 + (i % 51) end,
       case i % 12 when 1 then '{high-temperature}'::text[] when 5 then '{fan-speed-abnormal}'::text[] when 9 then '{missing-chip}'::text[] else '{}'::text[] end,
       jsonb_build_object('online', i % 10 <> 0, 'qualified', i % 10 not in (0, 7), 'unqualified', i % 10 = 7, 'zeroHashrate', i % 10 = 0),
       jsonb_build_object('ip', '10.' || (i / 65536) || '.' || ((i / 256) % 256) || '.' || (i % 256), 'sn', 'HF' || lpad(i::text, 15, '0'),
         'pools', jsonb_build_array(jsonb_build_object('url', 'stratum+tcp://pool.example:3333', 'user', 'acc.' || i, 'status', 'alive')),
         'errorCodes', case when i % 10 <> 0 then '[]'::jsonb when i % 20 = 0 then '[{"code": -110, "message": "no answer"}]'::jsonb else '[{"code": -111, "message": "refused"}]'::jsonb end),
       case when i % 10 = 0 then now() - interval '2 days' else now() end
     from generate_series(0, ${MINERS - 1}) i`,
    // Bulk load: the per-row roll-up trigger is off while the minute rows go in; the roll-up is then built in one
    // statement (what the migration does for existing rows) and the trigger is on again for the server.
    `alter table farm_stats_minute disable trigger farm_stats_minute_rollup`,
    `insert into farm_stats_minute (agent_key, at, real_ghs, ideal_ghs, total, online, qualified, temp_max, temp_avg)
     select ${k}, g, 3.5e9 + 1e8 * sin(extract(epoch from g) / 3600), 4e9, ${MINERS}, 18000, 16000, 95, 68
     from generate_series(date_trunc('minute', now()) - interval '${MINUTES - 1} minutes', date_trunc('minute', now()), interval '1 minute') g`,
    `insert into farm_stats_hour
     select agent_key, date_trunc('hour', at, 'UTC'), count(*), sum(real_ghs), sum(ideal_ghs), sum(total), sum(online), sum(qualified), max(temp_max), coalesce(sum(temp_avg), 0), count(temp_avg)
     from farm_stats_minute where agent_key = ${k} group by 1, 2`,
    `alter table farm_stats_minute enable trigger farm_stats_minute_rollup`,
    // A year-old farm: the hourly roll-up also holds the 335 days before the minute rows.
    `insert into farm_stats_hour (agent_key, at, samples, real_sum, ideal_sum, total_sum, online_sum, qualified_sum, temp_max, temp_avg_sum, temp_avg_n)
     select ${k}, h, 60, 60 * 3.5e9, 60 * 4e9, 60 * ${MINERS}, 60 * 18000, 60 * 16000, 95, 60 * 68, 60
     from generate_series(date_trunc('hour', now(), 'UTC') - interval '365 days', date_trunc('hour', now(), 'UTC') - interval '30 days 1 hour', interval '1 hour') h`,
    `insert into miner_stats_hour (miner_id, at, samples, real_sum, ideal_sum, temp_max, online_samples)
     select m.id, h, 60, 60 * m.rt5s, 60 * m.ideal, m.temp_max, case when m.online then 60 else 0 end
     from miners m, generate_series(date_trunc('hour', now()) - interval '${HOURS - 1} hours', date_trunc('hour', now()), interval '1 hour') h
     where m.agent_key = ${k}`,
    // What the ingest keeps on each miner from the same readings (its latest hourly bucket, the latest earlier
    // unqualified hour; migration 202611230220 fills existing farms the same way).
    `update miners m set stat_hour_at = h.at, stat_hour_samples = h.samples, stat_hour_online = h.online_samples,
       stat_hour_real_sum = h.real_sum, stat_hour_ideal_sum = h.ideal_sum, stat_hour_temp_max = h.temp_max,
       stat_unqualified_hour_at = (select max(b.at) from miner_stats_hour b where b.miner_id = h.miner_id and b.at < h.at
         and b.at >= date_trunc('hour', now()) - interval '7 hours'
         and not (b.online_samples = b.samples and b.ideal_sum > 0 and b.real_sum >= 0.8 * b.ideal_sum))
     from (select distinct on (miner_id) * from miner_stats_hour where at >= date_trunc('hour', now()) - interval '7 hours' order by miner_id, at desc) h
     where h.miner_id = m.id and m.agent_key = ${k}`,
    // The current hour is on the miner's row only (migration 202611230410): its history row comes when the hour closes.
    `delete from miner_stats_hour h using miners m where h.miner_id = m.id and m.agent_key = ${k} and h.at = m.stat_hour_at`,
    // The farm's zones: a hall of 80 rows, one /24 each (10.0.0.* … 10.0.79.*: miners 0–20,223), so the dashboard's
    // "where miners are offline" looks up a zone for each offline miner.
    `insert into sub_areas (agent_key, parent_id, name, level) values (${k}, null, 'Hall', 1)`,
    `insert into sub_areas (agent_key, parent_id, name, level)
     select ${k}, (select id from sub_areas where agent_key = ${k} and name = 'Hall'), 'Row ' || r, 2 from generate_series(0, 79) r`,
    `insert into sub_area_segments (agent_key, area_id, segment, begin_num, end_num, remark)
     select ${k}, a.id, '10.0.' || r || '.0-10.0.' || r || '.255', (10::bigint << 24) + r * 256, (10::bigint << 24) + r * 256 + 255, ''
     from generate_series(0, 79) r join sub_areas a on a.agent_key = ${k} and a.name = 'Row ' || r`,
    `analyze`,
  ];
}

/** Creates the administrator and the farm; answers the farm's agent secret. */
async function prepareFarm(url: string): Promise<string> {
  const admin = new BenchClient(url);
  await admin.must('POST', '/api/userv3/setup', { user: 'admin', password: PASSWORD });
  const farm = await admin.must<{ secret: string }>('POST', '/api/agent/createv2', { agentName: 'Bench dashboard farm', agentKey: AGENT_KEY });
  admin.close();
  return farm.secret;
}

/**
 * An agent cycle as far as the kept figures can tell: a new reading of seeded miner 1 (10.0.0.1, its seeded SN and
 * model), so the farm's data stamp changes and the next request counts the farm again (miner-stamps.ts).
 */
async function agentCycle(url: string, secret: string, seq: number): Promise<void> {
  const takenAt = new Date(Date.now() + seq * 1000).toISOString();
  const snapshot = { ...minerSnapshot(0, { takenAt }), ip: '10.0.0.1', sn: 'HF000000000000001', make: 'Bitmain', model: 'Antminer S21', family: 'antminer-stock' as const, firmwareVersion: '1.0' };
  await postAgentBatch(url, AGENT_KEY, secret, { agentVersion: 'bench', batchSeq: seq, cycleStartedAt: takenAt, cycleDurationMs: 1000, snapshots: [snapshot] });
}

async function measure(server: BenchServer, secret: string): Promise<Record<string, Record<string, unknown>>> {
  const c = new BenchClient(server.url);
  await c.must('POST', '/api/userv3/login', { user: 'admin', password: PASSWORD });
  const rows: Record<string, Record<string, unknown>> = {};
  let seq = 0;
  try {
    for (const [name, url] of CALLS) {
      for (let i = 0; i < 3; i += 1) await c.must('GET', url);
      // Each measured request right after an agent cycle: what a request costs when nothing kept is valid.
      const times: number[] = [];
      let cpuMs = 0;
      for (let i = 0; i < RUNS; i += 1) {
        await agentCycle(server.url, secret, ++seq);
        const cpu0 = server.cpuMs();
        const res = await c.request('GET', url);
        cpuMs += server.cpuMs() - cpu0;
        if (res.status !== 200) throw new Error(`${name}: ${res.status} ${res.body.slice(0, 300)}`);
        times.push(res.ms);
      }
      // The same request again and again with no change in between (kept results answer, where the call keeps any).
      const kept: number[] = [];
      for (let i = 0; i < 10; i += 1) kept.push((await c.request('GET', url)).ms);
      times.sort((a, b) => a - b);
      kept.sort((a, b) => a - b);
      rows[name] = {
        p50: ms(quantile(times, 0.5)),
        p95: ms(quantile(times, 0.95)),
        max: ms(times[times.length - 1]!),
        'server CPU/req': ms(cpuMs / RUNS),
        'p50 unchanged': ms(quantile(kept, 0.5)),
        bytes: (await c.request('GET', url)).body.length,
      };
    }
    // The page: summary + the default chart range at once, each on its own connection (as a browser does).
    const page2 = PAGE_CALLS.slice(0, 2);
    const clients = await Promise.all(
      page2.map(async () => {
        const x = new BenchClient(server.url);
        await x.must('POST', '/api/userv3/login', { user: 'admin', password: PASSWORD });
        return x;
      }),
    );
    const page: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const t0 = performance.now();
      await Promise.all(page2.map(([, url], j) => clients[j]!.must('GET', url)));
      page.push(performance.now() - t0);
    }
    for (const x of clients) x.close();
    page.sort((a, b) => a - b);
    rows['page (summary + chart), unchanged'] = { p50: ms(quantile(page, 0.5)), p95: ms(quantile(page, 0.95)), max: ms(page[page.length - 1]!), 'server CPU/req': '', bytes: '' };
  } finally {
    c.close();
  }
  return rows;
}

export async function run(): Promise<void> {
  const out: Record<string, Record<string, unknown>> = {};
  const seed = seedSql();

  const data = tempDir('hf-bench-dash-');
  try {
    const first = await startServer({ dataDir: data.dir });
    let secret = '';
    try {
      secret = await prepareFarm(first.url);
    } finally {
      await first.stop();
    }
    const t0 = performance.now();
    const lite = await PGlite.create(path.join(data.dir, 'pglite'));
    for (const s of seed) await lite.exec(s);
    await lite.close();
    const seedMs = performance.now() - t0;
    const server = await startServer({ dataDir: data.dir, timeoutMs: 120_000 });
    try {
      for (const [name, row] of Object.entries(await measure(server, secret))) out[`PGlite ${name}`] = row;
      out['PGlite seed'] = { p50: '', p95: '', max: '', 'server CPU/req': '', bytes: `${ms(seedMs)} to seed` };
    } finally {
      await server.stop();
    }
  } finally {
    await data.remove();
  }

  const pgs = await startBenchPostgres();
  const pgData = tempDir('hf-bench-dash-pg-');
  try {
    const server = await startServer({ dataDir: pgData.dir, env: { DATABASE_URL: pgs.url } });
    try {
      const secret = await prepareFarm(server.url);
      const t0 = performance.now();
      await withPostgres(pgs.url, async (client) => {
        for (const s of seed) await client.query(s);
      });
      const seedMs = performance.now() - t0;
      for (const [name, row] of Object.entries(await measure(server, secret))) out[`PostgreSQL ${name}`] = row;
      out['PostgreSQL seed'] = { p50: '', p95: '', max: '', 'server CPU/req': '', bytes: `${ms(seedMs)} to seed` };
    } finally {
      await server.stop();
    }
  } finally {
    await pgs.stop();
    await pgData.remove();
  }

  printTable(
    `(e) dashboard calls, ${MINERS.toLocaleString('en-US')} miners, ${MINUTES.toLocaleString('en-US')} per-minute farm rows (30 days), ${HOURS} hourly rows per miner; ${RUNS} sequential requests each (target ≤ 200 ms)`,
    out,
  );
}
