/**
 * GET /api/miner/list on a 100,000-miner farm (issue 4): realistic queries — the default IP order (page 1 and
 * page 200), a status filter sorted by hashrate, a fault filter, a model filter sorted by chip temperature, a
 * keyword search by IP prefix and by SN — each answered 50 rows at a time to 20 concurrent clients (each its own
 * keep-alive connection and session, and its own page: client i asks page first + i, so no two clients send the same
 * URL) right after an agent cycle changed the farm's data, on PGlite and on a throw-away PostgreSQL. p50 / p95 per
 * query, and one client alone with the server's CPU time per request (the underlying cost, less noisy than wall time
 * on a shared machine). The clients ask plain JSON, as in earlier runs, except the "brotli" row: there they send
 * Chromium's Accept-Encoding and decode the answer as a browser does (the cost of compressed answers; "KB sent" is
 * the size of one answer on the wire).
 *
 * Seeding: the miners are written by one SQL statement (generate_series, see seedMiners) straight into the database the
 * server uses — for PGlite the server is stopped meanwhile and started again on the same DATA_DIR — with snapshots
 * of the shape the agent sends (3 boards, fans, 3 pools; kinds as tests/support/miner-snapshots.ts: 6 in 10 S21,
 * 2 M60S, 1 offline S21, 1 S19j Pro short of chips) and HOURS (24) hours of history per miner: the current one on the
 * miner's row (its bucket, migration 202611230410) and the 23 before it as history rows, with the sums the ingest
 * keeps of them on the miner's row (stat_day_sums, migration 202611230340).
 */
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { minerSnapshot } from '../support/miner-snapshots';
import { listFiguresText } from '../../src/server/domains/miners/miner-sql';
import { BenchClient, type BenchServer, cpuSince, postAgentBatch, mib, ms, postgresBackendsCpu, printTable, quantile, startBenchPostgres, startServer, tempDir, withPostgres } from './bench-support';

const MINERS = Number(process.env.HF_BENCH_LIST_MINERS ?? 100_000);
const CLIENTS = 20;
const PER_CLIENT = Number(process.env.HF_BENCH_LIST_REQUESTS ?? 20);
/** HF_BENCH_LIST_DB=pglite | postgres runs only one of the two. */
const ONLY = process.env.HF_BENCH_LIST_DB ?? '';
const AGENT_KEY = 'bench-farm';
/** Hours of history per miner (the current hour, on its row, and the ones before it): a farm that has run for a day by default. */
const HOURS = Number(process.env.HF_BENCH_LIST_HOURS ?? 24);
/** What Chromium sends as Accept-Encoding (the console's answers then come compressed: src/server/plugins/compression.ts). */
const BROWSER_ENCODING = 'gzip, deflate, br, zstd';
/** When the seeded readings were taken (the bench's agent cycles come after it). */
const SEED_TAKEN_AT = '2026-03-10T08:00:00.000Z';
const PASSWORD = 'bench-pass-1';

/**
 * The 1,000 distinct readings (k = 0…999) the seed shares round-robin: the figures of each (r.*) and its snapshot
 * (r.snap, of the shape the agent sends).
 */
const READINGS_SQL = `
    select k, sn_prefix, make, model, family, fw, online, missed, rt, ideal, elapsed, t, faults, state,
           least(4320 + k % 50, 4380 + k % 40, 4290 + k % 30, 4350 + k % 20) as fan_min,
           greatest(4320 + k % 50, 4380 + k % 40, 4290 + k % 30, 4350 + k % 20) as fan_max,
           jsonb_build_object(
             'ip', '10.0.' || (k / 250) || '.' || (k % 250 + 1), 'mac', '', 'sn', sn_prefix || lpad(k::text, 10, '0'), 'make', make, 'model', model,
             'family', family, 'firmwareVersion', fw, 'compileTime', null, 'rt5s', rt, 'rate30m', round(rt * 0.99), 'avg', round(rt * 0.995), 'ideal', ideal,
             'boards', (select jsonb_agg(jsonb_build_object('index', b, 'chips', case when kind = 9 and b = 1 then chips / 2 else chips end,
                          'expectedChips', chips, 'tempPcb', jsonb_build_array(t, t + 15), 'tempChip', jsonb_build_array(t + 5, t + 20 - b),
                          'tempPic', jsonb_build_array(t - 5), 'rateGhs', round(rt / 3), 'hwErrors', (k + b) % 7, 'freqMhz', 490))
                        from generate_series(0, 2) b),
             'fans', jsonb_build_array(4320 + k % 50, 4380 + k % 40, 4290 + k % 30, 4350 + k % 20),
             'pools', jsonb_build_array(
               jsonb_build_object('url', 'stratum+tcp://btc.pool-one.example:3333', 'user', 'farm.w' || k, 'status', 'alive', 'active', true, 'accepted', 1200 + k % 97, 'rejected', k % 3),
               jsonb_build_object('url', 'stratum+tcp://btc.pool-two.example:443', 'user', 'farm.w' || k, 'status', 'alive', 'active', false, 'accepted', 0, 'rejected', 0),
               jsonb_build_object('url', 'stratum+tcp://btc.pool-three.example:25', 'user', 'farm.w' || k, 'status', 'dead', 'active', false, 'accepted', 0, 'rejected', 0)),
             'workMode', 'normal', 'elapsedSec', elapsed, 'powerW', 3510, 'errorCodes', '[]'::jsonb, 'online', online, 'missedPolls', missed,
             'state', state, 'faultLabels', to_jsonb(faults), 'takenAt', '${SEED_TAKEN_AT}') as snap
    from (
      select k, kind, 60 + k % 15 as t, 86400 + k as elapsed,
             case when kind = 9 then 'JYZZ' when kind in (6, 7) then 'HTM60S' else 'SMTTB' end as sn_prefix,
             case when kind in (6, 7) then 'MicroBT' else 'Bitmain' end as make,
             case when kind in (6, 7) then 'M60S VK40' when kind = 9 then 'S19j Pro' else 'S21' end as model,
             case when kind in (6, 7) then 'whatsminer' else 'antminer-stock' end as family,
             case when kind in (6, 7) then '20240305.22.REL' else 'Thu Jul 11 16:38:25 CST 2024' end as fw,
             case when kind in (6, 7) then 156 when kind = 9 then 126 else 108 end as chips,
             case when kind in (6, 7) then 186000 when kind = 9 then 104000 else 200000 end as ideal,
             case when kind = 8 then 0 when kind = 9 then 68640
                  else round((case when kind in (6, 7) then 186000 else 200000 end) * (0.95 + (k * 37 % 11) / 100.0)) end as rt,
             kind <> 8 as online, case when kind = 8 then 3 else 0 end as missed,
             case when kind = 9 then array['missing-chip', 'missing-hashboard'] else '{}'::text[] end as faults,
             jsonb_build_object('online', kind <> 8, 'qualified', kind < 8, 'unqualified', kind = 9, 'zeroHashrate', kind = 8, 'cannotStart', false,
                                'illegalPool', false, 'abnormalIdeal', false, 'sleeping', false, 'lowPower', false) as state
      from (select k, k % 10 as kind from generate_series(0, 999) k) kk
    ) base
`;

/** Runs one statement with parameters, or several without (PGlite and node-postgres both fit). */
interface SeedDb {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  exec(text: string): Promise<unknown>;
}

/**
 * MINERS miners with snapshots, plus HOURS hourly rows each, written as the ingest would. 1,000 distinct readings are
 * built and shared round-robin (miner i gets reading i % 1000, so its columns and its snapshot agree; only the ip /
 * sn / mac inside the snapshot are those of the first miner that had it): building a jsonb per miner made seeding
 * take minutes on PGlite. The figures the ingest stores beside each reading (sync_*, list_figures: listFigures of
 * miner-sql.ts, computed here for the 1,000 readings) and the miner's hourly bucket (stat_hour_*) are written too.
 */
export async function seedMiners(db: SeedDb): Promise<void> {
  const { rows } = await db.query(`select k, snap::text as s from (${READINGS_SQL}) r order by k`);
  const readings = rows as { k: number; s: string }[];
  await db.exec('create temp table bench_list_figures (k int primary key, f text not null)');
  await db.query('insert into bench_list_figures (k, f) select unnest($1::int[]), unnest($2::text[])', [
    readings.map((r) => r.k),
    readings.map((r) => listFiguresText(JSON.parse(r.s) as Partial<MinerSnapshot>)),
  ]);
  await db.exec(`
  insert into miners (agent_key, ip, sn, mac, make, model, family, firmware_version, compile_time, online, missed_polls,
                      rt5s, rate30m, avg, ideal, work_mode, elapsed_sec, temp_max, fault_labels, state, snapshot, taken_at,
                      sync_temp_chip_max, sync_temp_pcb_max, sync_fan_min, sync_fan_max, list_figures,
                      stat_hour_at, stat_hour_samples, stat_hour_online, stat_hour_real_sum, stat_hour_ideal_sum,
                      stat_hour_temp_max, stat_day_sums)
  select '${AGENT_KEY}', m.ip, r.sn_prefix || lpad(m.i::text, 10, '0'), m.mac, r.make, r.model, r.family, r.fw, null, r.online, r.missed,
         r.rt, round(r.rt * 0.99), round(r.rt * 0.995), r.ideal, 'normal', r.elapsed, r.t + 20, r.faults, r.state, r.snap, '${SEED_TAKEN_AT}'
         , r.t + 20, r.t + 15, r.fan_min, r.fan_max, f.f,
         date_trunc('hour', now()), 60, case when r.online then 60 else 0 end, r.rt * 60, r.ideal * 60, r.t + 20,
         array[r.rt * 60 * ${HOURS - 1}, 60 * ${HOURS - 1}]
  from (
    select i, i % 1000 as k,
           '10.' || (i / 62500) || '.' || (i / 250 % 250) || '.' || (i % 250 + 1) as ip,
           '02:48:' || lpad(to_hex(i / 65536 % 256), 2, '0') || ':' || lpad(to_hex(i / 256 % 256), 2, '0') || ':' || lpad(to_hex(i % 256), 2, '0') || ':00' as mac
    from generate_series(0, ${MINERS - 1}) i
  ) m
  join (${READINGS_SQL}) r on r.k = m.k
  join bench_list_figures f on f.k = m.k;
  insert into miner_stats_hour (miner_id, at, samples, real_sum, ideal_sum, temp_max, online_samples)
    select id, date_trunc('hour', now()) - h * interval '1 hour', 60, rt5s * 60, ideal * 60, temp_max, case when online then 60 else 0 end
    from miners, generate_series(1, ${HOURS - 1}) h where agent_key = '${AGENT_KEY}'
    order by h desc; -- hour after hour, as the ingest writes them (a miner's rows on different pages)
  drop table bench_list_figures;
  update farms set miner_count = ${MINERS} where agent_key = '${AGENT_KEY}';
`);
  // Vacuumed as a running farm's tables are (each statement alone: VACUUM cannot run inside the seed's transaction):
  // left to autovacuum, the bulk load's first vacuum ran during the first measured queries.
  await db.exec('vacuum analyze miners');
  await db.exec('vacuum analyze miner_stats_hour');
}

/** Query string of each measured query, and the page client i asks: its own page `first + i`, so no two clients ask the same URL. */
/**
 * The queries; `compressed`: the clients accept compressed answers, as a browser does (the others ask plain bytes, as
 * before); `stat`: GET /api/miner/stat with the query's filter instead of a list page (the counter strip above the
 * list, which every console on the list page asks for with the list).
 */
const QUERIES: Record<string, { qs: string; first: number; compressed?: boolean; stat?: boolean }> = {
  'IP order, page 1+i': { qs: '', first: 1 },
  'IP order, page 1+i, brotli': { qs: '', first: 1, compressed: true },
  'IP order, page 200+i': { qs: '', first: 200 },
  'qualified, by hashrate ↓': { qs: '&status=qualified&sort=gHS5s&order=desc', first: 1 },
  'fault missing-chip': { qs: '&faultType=missing-chip', first: 1 },
  'model S21, by chip temp ↓': { qs: '&model=S21&sort=tempChipMax&order=desc', first: 1 },
  'keyword IP 10.1.2.': { qs: '&keyword=10.1.2.', first: 1 },
  'keyword SN 0000012': { qs: '&keyword=0000012', first: 1 },
  'counters (/api/miner/stat)': { qs: '', first: 1, stat: true },
  'counters, qualified': { qs: '&status=qualified', first: 1, stat: true },
};

/** The list request of one page of a query. */
const listPath = (qs: string, page: number) => `/api/miner/list?agentKey=${AGENT_KEY}&pageSize=50&page=${page}${qs}`;
/** The request of a query's page (a counters query has no pages: every client asks the same). */
const queryPath = (q: { qs: string; stat?: boolean }, page: number) => (q.stat ? `/api/miner/stat?agentKey=${AGENT_KEY}${q.qs}` : listPath(q.qs, page));

/** Client i's page: `first + i`, wrapped inside the pages the answer has (a short result keeps every client on a real page). */
function pageOf(first: number, i: number, total: number): number {
  const pages = Math.max(1, Math.ceil(total / 50));
  return ((first - 1 + i) % pages) + 1;
}

/** Creates the farm; answers its agent secret. */
async function createFarm(server: BenchServer): Promise<string> {
  const admin = new BenchClient(server.url);
  await admin.must('POST', '/api/userv3/setup', { user: 'admin', password: PASSWORD });
  const { secret } = await admin.must<{ secret: string }>('POST', '/api/agent/createv2', { agentName: 'Bench farm', agentKey: AGENT_KEY });
  admin.close();
  return secret;
}

/**
 * An agent cycle as far as the list can tell: a new reading of one miner through the uplink, which changes the farm's
 * data stamp, so every count and kept id list the server holds under it must be made again by the requests that
 * follow (those of results that depend only on identities are kept under the identity stamp, which a reading leaves).
 */
async function agentCycle(server: BenchServer, secret: string, seq: number): Promise<void> {
  const takenAt = new Date(Date.parse(SEED_TAKEN_AT) + seq * 60_000).toISOString();
  // Miner 0 of the seed as its agent reads it: the same identity (IP, SN, MAC, model, firmware) as seedMiners gave it,
  // a new reading — an ordinary cycle, which changes the data stamp but not the identity stamp.
  const snapshot: MinerSnapshot = {
    ...minerSnapshot(0, { takenAt }),
    ip: '10.0.0.1', sn: 'SMTTB0000000000', mac: '02:48:00:00:00:00', make: 'Bitmain', model: 'S21', family: 'antminer-stock',
    firmwareVersion: 'Thu Jul 11 16:38:25 CST 2024', compileTime: null,
  };
  await postAgentBatch(server.url, AGENT_KEY, secret, { agentVersion: 'bench', batchSeq: seq, cycleStartedAt: takenAt, cycleDurationMs: 1000, snapshots: [snapshot] });
}

/**
 * After a warm-up of every query (not measured), per query: "1 client" = client 0 alone asking 5 distinct pages one after the other (the server's cost of one request);
 * "after a cycle" = client 0 alone again, each of its 5 requests right after an agent cycle (p50; what a console's refresh meets once a minute);
 * then an agent cycle changes the farm's data (agentCycle) and CLIENTS clients at once, client i asking its own page
 * PER_CLIENT times: the counts and id lists the server keeps per data stamp are made again inside the measured window. "CPU/req" is the CPU time per request
 * (alone / under the 20 clients; /proc ticks, so ±2 ms alone, finer under load) of the Node server process — on
 * PGlite that includes the database — and, on PostgreSQL, of its backends; "CPU/req bench" the same for this process
 * (the 20 clients run on the same two cores as the server: their share is not the server's).
 */
async function measure(server: BenchServer, secret: string, pgUrl: string | null): Promise<Record<string, Record<string, unknown>>> {
  const clients: BenchClient[] = [];
  try {
    for (let i = 0; i < CLIENTS; i++) {
      const c = new BenchClient(server.url);
      await c.must('POST', '/api/userv3/login', { user: 'admin', password: PASSWORD });
      clients.push(c);
    }
    const rows: Record<string, Record<string, unknown>> = {};
    let seq = 0;
    // Warm-up, not measured: every query from every client a few times, so the figures are those of a server that has
    // been running (its code compiled, the database's pages cached) — not of whichever query happens to come first.
    for (const query of Object.values(QUERIES)) {
      const { first, compressed } = query;
      const path = (page: number) => queryPath(query, page);
      const h: Record<string, string> = compressed ? { 'accept-encoding': BROWSER_ENCODING } : {};
      const total = (JSON.parse((await clients[0]!.request('GET', path(first), undefined, h)).body) as { data: { total: number } }).data.total;
      await Promise.all(clients.map(async (c, ci) => {
        for (let i = 0; i < 3; i++) await c.request('GET', path(pageOf(first, ci, total)), undefined, h);
      }));
    }
    for (const [label, query] of Object.entries(QUERIES)) {
      const { first, compressed, stat } = query;
      const path = (page: number) => queryPath(query, page);
      const h: Record<string, string> = compressed ? { 'accept-encoding': BROWSER_ENCODING } : {};
      const warm = await clients[0]!.request('GET', path(first), undefined, h); // warm-up, and what the answer holds
      const env = JSON.parse(warm.body) as { code: number; data?: { total: number; list?: unknown[] } };
      if (env.code !== 0 || !env.data) throw new Error(`${label}: ${warm.body.slice(0, 300)}`);
      const total = env.data.total;
      const alone: number[] = [];
      const cpu0 = server.cpuMs();
      const pgCpu0 = pgUrl ? await postgresBackendsCpu(pgUrl) : null;
      for (let i = 0; i < 5; i++) alone.push((await clients[0]!.request('GET', path(pageOf(first, i + 1, total)), undefined, h)).ms);
      const cpuAlone = (server.cpuMs() - cpu0) / 5;
      const pgCpuAlone = pgUrl && pgCpu0 ? cpuSince(pgCpu0, await postgresBackendsCpu(pgUrl)) / 5 : null;
      // The same client right after each of 5 agent cycles: what a console's refresh meets once a minute (a count or a
      // kept list under the data stamp is made again; one under the identity stamp survives).
      const afterChange: number[] = [];
      for (let i = 0; i < 5; i++) {
        await agentCycle(server, secret, ++seq);
        afterChange.push((await clients[0]!.request('GET', path(pageOf(first, i + 1, total)), undefined, h)).ms);
      }
      const latencies: number[] = [];
      let errors = 0;
      let short = 0;
      await agentCycle(server, secret, ++seq); // the clients arrive just after the data changed: nothing kept is valid
      const cpu1 = server.cpuMs();
      const pgCpu1 = pgUrl ? await postgresBackendsCpu(pgUrl) : null;
      const t0 = performance.now();
      const me0 = process.cpuUsage();
      await Promise.all(
        clients.map(async (c, ci) => {
          const p = path(pageOf(first, ci, total));
          for (let i = 0; i < PER_CLIENT; i++) {
            const t = performance.now();
            try {
              const res = await c.request('GET', p, undefined, h);
              latencies.push(res.ms);
              if (res.status !== 200 || !res.body.startsWith('{"code":0')) errors++;
              else if (!res.body.includes(stat ? '"qualified8h":' : '"id":')) short++; // an empty page would flatter the figure
            } catch {
              latencies.push(performance.now() - t); // a dropped connection counts as an error, with its time
              errors++;
            }
          }
        }),
      );
      const wall = performance.now() - t0;
      const n = CLIENTS * PER_CLIENT;
      const me = process.cpuUsage(me0);
      const cpuLoaded = (server.cpuMs() - cpu1) / n;
      const pgCpuLoaded = pgUrl && pgCpu1 ? cpuSince(pgCpu1, await postgresBackendsCpu(pgUrl)) / n : null;
      latencies.sort((a, b) => a - b);
      alone.sort((a, b) => a - b);
      afterChange.sort((a, b) => a - b);
      rows[label] = {
        total,
        rows: env.data.list?.length ?? '–',
        'KB sent': (warm.sentBytes / 1000).toFixed(1),
        '1 client p50': ms(quantile(alone, 0.5)),
        'after a cycle': ms(quantile(afterChange, 0.5)),
        'CPU/req node': `${ms(cpuAlone)} / ${ms(cpuLoaded)}`,
        ...(pgUrl ? { 'CPU/req pg': `${ms(pgCpuAlone)} / ${ms(pgCpuLoaded)}` } : {}),
        [`${CLIENTS} clients p50`]: ms(quantile(latencies, 0.5)),
        p95: ms(quantile(latencies, 0.95)),
        'req/s': Math.round((latencies.length / wall) * 1000),
        errors: errors + short,
        'CPU/req bench': ms((me.user + me.system) / 1000 / n),
      };
    }
    return rows;
  } finally {
    for (const c of clients) c.close();
  }
}

export async function run(): Promise<void> {
  if (ONLY !== 'postgres') await onPglite();
  if (ONLY !== 'pglite') await onPostgres();
}

async function onPglite(): Promise<void> {
  // PGlite: create the farm through the API, seed with the server stopped, start it again on the same data.
  const data = tempDir('hf-bench-list-');
  let lite = await startServer({ dataDir: data.dir });
  try {
    const secret = await createFarm(lite);
    await lite.stop();
    const t0 = performance.now();
    const db = await PGlite.create(join(data.dir, 'pglite'));
    await seedMiners(db);
    await db.close();
    const seedMs = performance.now() - t0;
    lite = await startServer({ dataDir: data.dir });
    const rows = await measure(lite, secret, null);
    const mem = lite.memory();
    printTable(`(g) GET /api/miner/list, ${MINERS.toLocaleString('en-US')} miners, pageSize 50, PGlite — ${CLIENTS} clients × ${PER_CLIENT} requests per query (seeded in ${ms(seedMs)})`, rows);
    console.log(`server RSS after: ${mib(mem.rssMiB)} (peak ${mib(mem.peakMiB)})`);
  } finally {
    await lite.stop();
    await data.remove();
  }
}

async function onPostgres(): Promise<void> {
  const pgServer = await startBenchPostgres();
  const pgData = tempDir('hf-bench-list-pg-');
  const onPg = await startServer({ dataDir: pgData.dir, env: { DATABASE_URL: pgServer.url } });
  try {
    const secret = await createFarm(onPg);
    const t0 = performance.now();
    await withPostgres(pgServer.url, (c) => seedMiners({ query: (text, params) => c.query(text, params), exec: (text) => c.query(text) }));
    const seedMs = performance.now() - t0;
    const rows = await measure(onPg, secret, pgServer.url);
    printTable(`(g) GET /api/miner/list, ${MINERS.toLocaleString('en-US')} miners, pageSize 50, PostgreSQL — ${CLIENTS} clients × ${PER_CLIENT} requests per query (seeded in ${ms(seedMs)})`, rows);
  } finally {
    await onPg.stop();
    await pgServer.stop();
    await pgData.remove();
  }
}
