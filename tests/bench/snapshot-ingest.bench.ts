/**
 * One 20,000-miner poll cycle through POST /api/agent-uplink/snapshots, gzip, as the agent sends it —
 * on PGlite and on a throw-away PostgreSQL. Batch 1 creates the miners (inserts); batches 2–4 are
 * the steady state (every miner updated, hourly rows summed) and give the median; one more is uploaded
 * while a console reads the list, and the last one starts the next hour (each miner's row then takes the
 * sums of its 23 hours before from its history, once an hour). Time = client round trip: upload, gunzip,
 * JSON parse, zod validation of every snapshot, the ingest transaction.
 */
import { gzipBatch, snapshotBatch } from '../support/miner-snapshots';
import { BenchClient, type BenchServer, cpuSince, median, mib, ms, postgresBackendsCpu, printTable, quantile, startBenchPostgres, startServer, tempDir, withPostgres } from './bench-support';

const MINERS = 20_000;
const STEADY = 3;

interface Prepared {
  gz: Buffer;
  jsonBytes: number;
}

/** The server's WAL position (bytes), to report what one batch writes to the log. */
function walBytes(url: string): Promise<number> {
  return withPostgres(url, async (c) => Number((await c.query<{ b: string }>(`select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text as b`)).rows[0]!.b));
}

const CYCLE0 = Date.parse('2026-03-10T08:00:00.000Z');
const HOUR_MS = 3_600_000;

function prepared(batchSeq: number, takenAtMs: number, rateFactor: number): Prepared {
  const batch = snapshotBatch({ batchSeq, count: MINERS, takenAt: new Date(takenAtMs).toISOString(), rateFactor });
  return { gz: gzipBatch(batch), jsonBytes: Buffer.byteLength(JSON.stringify(batch)) };
}

/**
 * The first batch, STEADY timed ones and one more uploaded while a console reads the list (probe), a minute apart in
 * the hour 08:00; then the first batch of the next hour (09:00), where every miner's row takes the sums of the 23
 * hours before it from its history (STAT_HOUR_UPSERT: once an hour per miner).
 */
function prepare(): { batches: Prepared[]; newHour: Prepared } {
  const batches = Array.from({ length: STEADY + 2 }, (_, i) => prepared(i + 1, CYCLE0 + i * 60_000, 1 + i / 100));
  return { batches, newHour: prepared(STEADY + 3, CYCLE0 + HOUR_MS, 1.05) };
}

/**
 * On PostgreSQL, before the new hour's batch: the 22 hours before 08:00 in every miner's history (the farm has run for
 * a day), so the new hour reads 23 rows per miner as it would on a running farm. (PGlite holds its database in the
 * server's process: there the new hour reads the one hour the batches wrote.)
 */
function seedDay(url: string): Promise<void> {
  return withPostgres(url, async (c) => {
    await c.query(`
      insert into miner_stats_hour (miner_id, at, samples, real_sum, ideal_sum, temp_max, online_samples)
      select m.id, $1::timestamptz - h * interval '1 hour', 60, m.rt5s * 60, m.ideal * 60, m.temp_max, case when m.online then 60 else 0 end
      from generate_series(22, 1, -1) h, miners m order by h desc`, [new Date(CYCLE0).toISOString()]);
    await c.query('analyze miner_stats_hour');
  });
}

async function ingest(server: BenchServer, { batches, newHour }: { batches: Prepared[]; newHour: Prepared }, label: string, pgUrl?: string) {
  const admin = new BenchClient(server.url);
  await admin.must('POST', '/api/userv3/setup', { user: 'admin', password: 'bench-pass-1' });
  const { agentKey, secret } = await admin.must<{ agentKey: string; secret: string }>('POST', '/api/agent/createv2', { agentName: 'Bench farm', agentKey: 'bench-farm' });
  const agent = new BenchClient(server.url);
  const headers = { authorization: `Bearer ${agentKey}.${secret}`, 'content-type': 'application/json', 'content-encoding': 'gzip' };
  const times: number[] = [];
  let listWaits: string;
  let newHourTimes: string;
  const serverCpu: number[] = [];
  const dbCpu: number[] = [];
  const wal: number[] = [];
  try {
    for (const b of batches.slice(0, -1)) {
      const cpu0 = server.cpuMs();
      const db0 = pgUrl ? await postgresBackendsCpu(pgUrl) : null;
      const wal0 = pgUrl ? await walBytes(pgUrl) : 0;
      const res = await agent.request('POST', '/api/agent-uplink/snapshots', b.gz, headers);
      if (res.status !== 200 || !res.body.includes(`"accepted":${MINERS}`)) throw new Error(`${label}: ingest answered ${res.status} ${res.body.slice(0, 300)}`);
      times.push(res.ms);
      serverCpu.push(server.cpuMs() - cpu0);
      if (pgUrl && db0) {
        dbCpu.push(cpuSince(db0, await postgresBackendsCpu(pgUrl)));
        wal.push((await walBytes(pgUrl)) - wal0);
      }
    }
    // A console reading the list (one page after another) while the last batch is applied: how long its requests wait.
    let uploading = true;
    const waits: number[] = [];
    const reader = (async () => {
      while (uploading) waits.push((await admin.request('GET', `/api/miner/list?agentKey=${agentKey}&pageSize=50&page=${(waits.length % 20) + 1}`)).ms);
    })();
    const probe = await agent.request('POST', '/api/agent-uplink/snapshots', batches.at(-1)!.gz, headers);
    uploading = false;
    await reader;
    if (probe.status !== 200) throw new Error(`${label}: probe ingest answered ${probe.status}`);
    listWaits = `${waits.length} / ${ms(quantile(waits, 0.5))} / ${ms(Math.max(...waits))} (upload ${ms(probe.ms)})`;
    if (process.env.HF_BENCH_VERBOSE) console.log(label, 'list waits', waits.map((w) => Math.round(w)).join(' '));
    if (pgUrl) await seedDay(pgUrl);
    const hourCpu0 = server.cpuMs();
    const hourDb0 = pgUrl ? await postgresBackendsCpu(pgUrl) : null;
    const hour = await agent.request('POST', '/api/agent-uplink/snapshots', newHour.gz, headers);
    if (hour.status !== 200 || !hour.body.includes(`"accepted":${MINERS}`)) throw new Error(`${label}: new-hour ingest answered ${hour.status} ${hour.body.slice(0, 300)}`);
    newHourTimes = `${ms(hour.ms)} (server ${ms(server.cpuMs() - hourCpu0)}${pgUrl && hourDb0 ? `, PostgreSQL ${ms(cpuSince(hourDb0, await postgresBackendsCpu(pgUrl)))}` : ''}; history ${pgUrl ? '23 h' : '1 h'})`;
  } finally {
    agent.close();
    admin.close();
  }
  const mem = server.memory();
  const steady = times.slice(1);
  return {
    'first (20k inserts)': ms(times[0]!),
    'steady median': ms(median(steady)),
    'steady runs': steady.map((t) => Math.round(t)).join(' / '),
    'miners/s': Math.round(MINERS / (median(steady) / 1000)),
    'server CPU': ms(median(serverCpu.slice(1))),
    'PostgreSQL CPU': dbCpu.length ? ms(median(dbCpu.slice(1))) : '(in server)',
    'WAL per batch': wal.length ? mib(median(wal.slice(1)) / 1048576) : '–',
    'list during ingest: n / p50 / max': listWaits,
    'first of a new hour (CPU)': newHourTimes,
    'RSS after': mib(mem.rssMiB),
    'RSS peak': mib(mem.peakMiB),
  };
}

export async function run(): Promise<void> {
  const uploads = prepare();
  const rows: Record<string, Record<string, unknown>> = {};

  const data = tempDir('hf-bench-ingest-');
  const lite = await startServer({ dataDir: data.dir });
  try {
    rows.PGlite = await ingest(lite, uploads, 'PGlite');
  } finally {
    await lite.stop();
    await data.remove();
  }

  const pg = await startBenchPostgres();
  const pgData = tempDir('hf-bench-ingest-pg-');
  const onPg = await startServer({ dataDir: pgData.dir, env: { DATABASE_URL: pg.url } });
  try {
    rows.PostgreSQL = await ingest(onPg, uploads, 'PostgreSQL', pg.url);
  } finally {
    await onPg.stop();
    await pg.stop();
    await pgData.remove();
  }

  const b = uploads.batches[0]!;
  printTable(
    `(c) POST /api/agent-uplink/snapshots, ${MINERS.toLocaleString('en-US')} miners per batch (${(b.jsonBytes / 1048576).toFixed(1)} MiB JSON, ${(b.gz.length / 1048576).toFixed(1)} MiB gzip); median of ${STEADY} steady batches`,
    rows,
  );
  console.log('CPU and WAL columns: median per steady batch. RSS: the Node server process (on PostgreSQL the database runs in its own processes).');
  console.log('First of a new hour: the batch that starts the next hour, where every miner takes the sums of the hours before it from its history (PostgreSQL: a day of history seeded before it).');
  console.log('List during ingest: a console asking list pages one after another while one more batch is applied (requests answered, median and longest wait; that upload\'s own time). HF_BENCH_VERBOSE=1 prints every wait.');
}
