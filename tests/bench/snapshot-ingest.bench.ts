/**
 * One 20,000-miner poll cycle through POST /api/agent-uplink/snapshots, gzip, as the agent sends it —
 * on PGlite and on a throw-away PostgreSQL. Batch 1 creates the miners (inserts); batches 2–4 are
 * the steady state (every miner updated, hourly rows summed) and give the median. Time = client
 * round trip: upload, gunzip, JSON parse, zod validation of every snapshot, the ingest transaction.
 */
import pg from 'pg';
import { gzipBatch, snapshotBatch } from '../support/miner-snapshots';
import { BenchClient, type BenchServer, cpuSince, median, mib, ms, postgresBackendsCpu, printTable, quantile, startBenchPostgres, startServer, tempDir } from './bench-support';

const MINERS = 20_000;
const STEADY = 3;

interface Prepared {
  gz: Buffer;
  jsonBytes: number;
}

/** The server's WAL position (bytes), to report what one batch writes to the log. */
async function walBytes(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ b: string }>(`select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text as b`);
    return Number(r.rows[0]!.b);
  } finally {
    await c.end();
  }
}

function prepare(): Prepared[] {
  const cycle0 = Date.parse('2026-03-10T08:00:00.000Z');
  // The first batch, STEADY timed ones, and one more uploaded while a console reads the list (probe).
  return Array.from({ length: STEADY + 2 }, (_, i) => {
    const takenAt = new Date(cycle0 + i * 60_000).toISOString();
    const batch = snapshotBatch({ batchSeq: i + 1, count: MINERS, takenAt, rateFactor: 1 + i / 100 });
    return { gz: gzipBatch(batch), jsonBytes: Buffer.byteLength(JSON.stringify(batch)) };
  });
}

async function ingest(server: BenchServer, batches: Prepared[], label: string, pgUrl?: string) {
  const admin = new BenchClient(server.url);
  await admin.must('POST', '/api/userv3/setup', { user: 'admin', password: 'bench-pass-1' });
  const { agentKey, secret } = await admin.must<{ agentKey: string; secret: string }>('POST', '/api/agent/createv2', { agentName: 'Bench farm', agentKey: 'bench-farm' });
  const agent = new BenchClient(server.url);
  const headers = { authorization: `Bearer ${agentKey}.${secret}`, 'content-type': 'application/json', 'content-encoding': 'gzip' };
  const times: number[] = [];
  let listWaits: string;
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
    'RSS after': mib(mem.rssMiB),
    'RSS peak': mib(mem.peakMiB),
  };
}

export async function run(): Promise<void> {
  const batches = prepare();
  const rows: Record<string, Record<string, unknown>> = {};

  const data = tempDir('hf-bench-ingest-');
  const lite = await startServer({ dataDir: data.dir });
  try {
    rows.PGlite = await ingest(lite, batches, 'PGlite');
  } finally {
    await lite.stop();
    await data.remove();
  }

  const pg = await startBenchPostgres();
  const pgData = tempDir('hf-bench-ingest-pg-');
  const onPg = await startServer({ dataDir: pgData.dir, env: { DATABASE_URL: pg.url } });
  try {
    rows.PostgreSQL = await ingest(onPg, batches, 'PostgreSQL', pg.url);
  } finally {
    await onPg.stop();
    await pg.stop();
    await pgData.remove();
  }

  const b = batches[0]!;
  printTable(
    `(c) POST /api/agent-uplink/snapshots, ${MINERS.toLocaleString('en-US')} miners per batch (${(b.jsonBytes / 1048576).toFixed(1)} MiB JSON, ${(b.gz.length / 1048576).toFixed(1)} MiB gzip); median of ${STEADY} steady batches`,
    rows,
  );
  console.log('CPU and WAL columns: median per steady batch. RSS: the Node server process (on PostgreSQL the database runs in its own processes).');
  console.log('List during ingest: a console asking list pages one after another while one more batch is applied (requests answered, median and longest wait; that upload\'s own time). HF_BENCH_VERBOSE=1 prints every wait.');
}
