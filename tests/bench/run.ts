/**
 * `npm run bench` — prints figures, passes or fails nothing. `npm run bench -- <name> …` runs only the
 * named benches. Every bench is tests/bench/<name>.bench.ts exporting `run(): Promise<void>` that prints
 * its own console.table; add one by writing the file and listing it in BENCHES below. Servers are
 * started as child processes (tests/bench/bench-support.ts) and killed at the end, also on error or
 * Ctrl-C. Keep the whole run under 3 minutes. Figures depend on the machine and on what else runs:
 * the header and each bench's footer print the load average and a fixed CPU loop's time to judge them,
 * and the ingest bench prints CPU time next to wall time.
 *
 * The figures:
 *
 * (a) server-start — `node --import tsx src/server/main.ts` (what `npx tsx` runs), SERVE_DIST=false, on PGlite.
 *     cold: a fresh DATA_DIR, so PGlite initdb + all migrations + app build + listen; warm: the same
 *     DATA_DIR again (existing cluster, nothing to migrate). "spawn → first answer" is the wall time
 *     from spawn until GET /api/config/public answers 200 (includes Node start and tsx compiling the
 *     sources); "server startMs" is what the server logs itself (openDatabase … listen). Median of 3.
 *     RSS when ready is the server's resident memory right after start.
 *
 * (b) menu-latency — GET /api/role/userAgentMenus?agentKey=… against a fresh PGlite server: p50 / p95 /
 *     p99 / max latency per request and throughput (requests ÷ wall time of the round), for one client
 *     alone (100 requests) and for 50 concurrent clients × 40 requests, each client its own keep-alive
 *     connection and its own logged-in session of a non-administrator with every permission (each
 *     request: session lookup, role lookup, farm membership, farm row, menu tree). "errors" counts
 *     answers that were not 200 / code 0.
 *
 * (c) snapshot-ingest — one poll cycle of 20,000 miners (tests/support/miner-snapshots.ts: realistic
 *     snapshots, 3 boards, pools, faults) POSTed gzip-compressed to /api/agent-uplink/snapshots, on PGlite
 *     and on a throw-away PostgreSQL (tests/support/pg-server.mjs; fsync off) with DATABASE_URL.
 *     "first" creates the 20,000 miners; "steady median" is the median of 3 further batches (distinct
 *     batchSeq, one minute apart) that update every miner and its hourly row — the figure the 60 s poll
 *     cycle has to fit in many times over. Time is the agent's round trip (upload, gunzip, JSON parse,
 *     validation, the one ingest transaction). "server CPU" is the Node server process's CPU time per steady
 *     batch (on PGlite that includes the database); "PostgreSQL CPU" the backends' CPU time per steady
 *     batch. RSS after / peak is the Node server process (VmRSS / VmHWM); PostgreSQL's memory is not in it.
 *
 * (e) dashboard — the dashboard's calls (summary, chart hour / 30 days / 1 year) and, for comparison, indexStat,
 *     stat (8-hour qualified) and farmSeries, on a farm of 20,000 miners with 30 days of per-minute farm rows, a
 *     year of the hourly roll-up and 8 hours of hourly miner rows, seeded in bulk SQL on PGlite and PostgreSQL;
 *     p50 / p95 / max of 30 sequential requests each and the page (summary + chart in parallel). Target ≤ 200 ms.
 *
 * (d) agent — only when named (`npm run bench:agent`, ≈ 3–5 minutes): the farm agent's real poller and
 *     scanner in their own process (tests/bench/agent-cycle-child.ts, the agent's heap flags) against the
 *     simulator in another: a 20,000-miner poll cycle (first and steady) vs a bare summary client at the
 *     same concurrency, scan + identify of a /22 (1,000 miners) and a /16 (20,000), then the
 *     snapshot-ingest figures for the same batch size (HF_BENCH_AGENT_INGEST=0 skips them). Details in
 *     tests/bench/agent.bench.ts.
 *
 * (e) offline-sync — in Chromium against a server serving the built console (E2E_DIST or dist; skipped when
 *     none) with 20,000 miners: the console's own full miners sync into IndexedDB after login (measure
 *     'hf-sync-miners', 3 cold runs; target ≤ 3 s) and findMinerBySn from the cache (median of 50 'hf-sn-lookup'
 *     measures; target ≤ 20 ms). Details in tests/bench/offline-sync.bench.ts.
 *
 * (f) first-load — the technician's first load (issue 5 budget ≤ 170 KB): HTML + the JavaScript a cold
 *     Chromium fetches to show /field on a 360 px phone, logged in, each file gzipped (level 6) from the
 *     build output; printed per file. Details in tests/bench/first-load.bench.ts.
 *
 * (g) miner-list — only when named (`npm run bench -- miner-list`, ≈ 5 minutes, most of it seeding PGlite):
 *     GET /api/miner/list on 100,000 miners seeded by SQL (issue 4 target p95 ≤ 50 ms): IP order page 1 and 200,
 *     status + hashrate sort, fault filter, model + temperature sort, keyword by IP prefix and SN; 20 concurrent
 *     clients, each asking its own page, PGlite and PostgreSQL (HF_BENCH_LIST_DB=pglite|postgres for one); one client
 *     alone and the server's CPU time per request. Details in miner-list.bench.ts.
 *
 * (h) outbox-replay — in Chromium against a server serving the built console (E2E_DIST or dist; skipped when
 *     none): 1,000 note entries in the console's IndexedDB outbox replayed by its own replayer after `online`
 *     (time, entries/s), the same entries forced through again, and the server's count (duplicates must be 0).
 *     Details in tests/bench/outbox-replay.bench.ts.
 */
import { availableParallelism } from 'node:os';
import { cleanupAll, cleanupAllSync, machineContext } from './bench-support';

/** `onlyWhenNamed`: too long for the default run (the 3-minute budget); runs only when named, e.g. `npm run bench:agent`. */
const BENCHES: Array<{ name: string; load: () => Promise<{ run: () => Promise<void> }>; onlyWhenNamed?: boolean }> = [
  { name: 'server-start', load: () => import('./server-start.bench') },
  { name: 'menu-latency', load: () => import('./menu-latency.bench') },
  { name: 'snapshot-ingest', load: () => import('./snapshot-ingest.bench') },
  { name: 'first-load', load: () => import('./first-load.bench') },
  { name: 'dashboard', load: () => import('./dashboard.bench') },
  { name: 'offline-sync', load: () => import('./offline-sync.bench') },
  { name: 'outbox-replay', load: () => import('./outbox-replay.bench') },
  { name: 'agent', load: () => import('./agent.bench'), onlyWhenNamed: true },
  { name: 'miner-list', load: () => import('./miner-list.bench'), onlyWhenNamed: true },
];

process.on('exit', cleanupAllSync);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping child processes`);
    void cleanupAll().finally(() => process.exit(130));
  });
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !BENCHES.some((b) => b.name === w));
if (unknown.length) {
  console.error(`unknown bench: ${unknown.join(', ')} (have: ${BENCHES.map((b) => b.name).join(', ')})`);
  process.exit(2);
}

const t0 = performance.now();
let failed = false;
console.log(`Hashfield benchmarks — node ${process.version}, ${process.platform}/${process.arch}, ${availableParallelism()} CPUs`);
console.log(machineContext());
try {
  for (const b of BENCHES) {
    if (wanted.length ? !wanted.includes(b.name) : b.onlyWhenNamed) continue;
    const started = performance.now();
    try {
      await (await b.load()).run();
    } catch (e) {
      failed = true;
      console.error(`\n${b.name} failed:`, e);
    } finally {
      await cleanupAll();
    }
    console.log(`(${b.name}: ${((performance.now() - started) / 1000).toFixed(1)} s; ${machineContext()})`);
  }
} finally {
  await cleanupAll();
}
console.log(`\nbenchmarks done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : 0);
