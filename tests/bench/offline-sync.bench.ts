/**
 * (e) offline-sync — the technician's offline cache in Chromium (playwright-core, /usr/bin/chromium):
 * a server (PGlite) serving the built console (E2E_DIST or dist; skipped with a message when there is none)
 * with 20,000 miners ingested through the agent uplink, a page logged in through the login screen.
 *
 * - "full miners sync": the console's own sync loop (src/client/lib/offline/sync.ts) starts after login and
 *   pages GET /api/sync/miners into IndexedDB; the figure is its performance measure 'hf-sync-miners'
 *   (first request → last page written). Cold = empty IndexedDB; then the database is deleted and the page
 *   reloaded for two more runs. Target ≤ 3 s. Besides wall time (noisy on a shared machine) each run reports the
 *   CPU time the server process and the Chromium processes used from the start of the run to the end of the sync
 *   (the run includes the console's other first calls), and the answers' size.
 * - "delta sync, next agent cycle": the agent's next batch (a minute on, 1 % of noise: every miner gets a new version
 *   for the console's list), then the console's loop (woken by an `online` event) syncs its warm cache: the phone's
 *   every-minute case. The feed sends only the miners whose readings are due (migration 202611230450), about a tenth.
 *   "every miner due": a batch 10 minutes on, when every miner is sent again. No target.
 * - "SN lookup": findMinerBySn (src/client/lib/offline/miner-lookup.ts, bundled with Vite for the bench and
 *   added to the logged-in page) for 50 random SNs of the fleet; median / p95 / max of its 'hf-sn-lookup'
 *   measures. Target ≤ 20 ms (median).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { gzipBatch, snapshotBatch } from '../support/miner-snapshots';
import { BenchClient, REPO_ROOT, median, ms, printTable, processCpuMs, quantile, startServer, tempDir } from './bench-support';

const MINERS = 20_000;
const LOOKUPS = 50;
const SYNC_RUNS = 3;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const USER = { user: 'admin', password: 'bench-pass-1' };
const AGENT_KEY = 'bench-offline';

/** CPU time (ms) of every process descended from `root` except the subtree of `exclude` (here: Chromium's processes). */
function descendantsCpuMs(root: number, exclude: number): number {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* gone meanwhile */
    }
  }
  const under = (pid: number, top: number): boolean => {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parent.get(p)) if (p === top) return true;
    return false;
  };
  let sum = 0;
  for (const pid of parent.keys()) if (pid !== root && under(pid, root) && !under(pid, exclude)) sum += processCpuMs(pid);
  return sum;
}

/** findMinerBySn and friends as one IIFE exposing `window.hfOfflineBench` (same code and Dexie schema as the console). */
async function bundleLookup(): Promise<string> {
  const r = (p: string) => join(REPO_ROOT, p);
  const out = await build({
    configFile: false,
    logLevel: 'silent',
    resolve: { alias: { '@shared': r('src/shared'), '@client': r('src/client') } },
    build: {
      write: false,
      minify: true,
      lib: { entry: r('src/client/lib/offline/miner-lookup.ts'), formats: ['iife'], name: 'hfOfflineBench' },
    },
  });
  const outputs = Array.isArray(out) ? out : [out];
  for (const o of outputs) {
    if ('output' in o) {
      const chunk = o.output.find((c) => c.type === 'chunk');
      if (chunk && chunk.type === 'chunk') return chunk.code;
    }
  }
  throw new Error('bundle of miner-lookup.ts produced no chunk');
}

export async function run(): Promise<void> {
  const distDir = process.env.E2E_DIST ?? join(REPO_ROOT, 'dist');
  if (!existsSync(join(distDir, 'index.html'))) {
    console.log(`\n(e) offline-sync: skipped — no built console at ${distDir} (run \`npx vite build\`, or set E2E_DIST to a build of your own)`);
    return;
  }
  if (!existsSync(CHROMIUM)) {
    console.log(`\n(e) offline-sync: skipped — Chromium not found at ${CHROMIUM} (apt-get install -y chromium)`);
    return;
  }
  const lookupCode = await bundleLookup();

  // A private copy of the build: a `vite build` running meanwhile empties dist.
  const distCopy = mkdtempSync(join(tmpdir(), 'hf-bench-dist-'));
  cpSync(distDir, distCopy, { recursive: true });
  const data = tempDir('hf-bench-offline-');
  const server = await startServer({ dataDir: data.dir, env: { SERVE_DIST: distCopy, LOG_LEVEL: 'warn' } });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  try {
    const admin = new BenchClient(server.url);
    await admin.must('POST', '/api/userv3/setup', USER);
    const { secret } = await admin.must<{ agentKey: string; secret: string }>('POST', '/api/agent/createv2', { agentName: 'Bench offline', agentKey: AGENT_KEY });
    admin.close();
    const agent = new BenchClient(server.url);
    const firstAt = Date.now() - 20 * 60_000;
    const batch = snapshotBatch({ batchSeq: 1, count: MINERS, takenAt: new Date(firstAt).toISOString() });
    await agent.must('POST', '/api/agent-uplink/snapshots', gzipBatch(batch), {
      authorization: `Bearer ${AGENT_KEY}.${secret}`,
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    agent.close();
    const sns = batch.snapshots.map((s) => s.sn.toUpperCase()).filter((sn) => sn !== '');

    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, serviceWorkers: 'block' });
    // Room for every request of a run in the resource timing buffer (the default 250 can drop sync pages).
    await context.addInitScript(() => performance.setResourceTimingBufferSize(5000));
    const page = await context.newPage();
    const cpuNow = () => ({ server: server.cpuMs(), browser: descendantsCpuMs(process.pid, server.pid) });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));

    /** Waits for the console's sync loop to finish a full miners sync; returns its measure and the cached count. */
    const awaitSync = async (cpu0: { server: number; browser: number }): Promise<{ ms: number; cached: number; pages: number; fetchMs: number; bytes: number; sent: number; fromStart: boolean; serverCpu: number; browserCpu: number }> => {
      await page.waitForFunction(() => performance.getEntriesByName('hf-sync-miners', 'measure').length > 0, null, { timeout: 120_000, polling: 100 });
      const cpu1 = cpuNow();
      const measured = await page.evaluate(async (agentKey) => {
        const m = performance.getEntriesByName('hf-sync-miners', 'measure')[0]!;
        const entries = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/sync/miners')) as PerformanceResourceTiming[];
        const pages = entries.length;
        // A sync measured from an empty cache asks its first page without `since`; one that resumed from a stored
        // cursor (the console reloaded itself while syncing) measured only the pages after the reload.
        const fromStart = entries.some((e) => !new URL(e.name).searchParams.has('since'));
        // Time the answers took to arrive (request sent → last byte), summed over the pages.
        const fetchMs = entries.reduce((sum, e) => sum + (e.responseEnd - e.requestStart), 0);
        const bytes = entries.reduce((sum, e) => sum + (e.decodedBodySize || 0), 0);
        // As they crossed the network (compressed).
        const sent = entries.reduce((sum, e) => sum + (e.encodedBodySize || 0), 0);
        const cached = await new Promise<number>((resolve, reject) => {
          const open = indexedDB.open('hashfield');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            // The rows themselves (miner-store.ts buckets), not the stored count.
            const req = db.transaction('minerBuckets').objectStore('minerBuckets').getAll(IDBKeyRange.bound([agentKey], [agentKey, []]));
            req.onsuccess = () => {
              resolve((req.result as { rows: object }[]).reduce((n, b) => n + Object.keys(b.rows).length, 0));
              db.close();
            };
            req.onerror = () => reject(req.error);
          };
        });
        return { ms: m.duration, cached, pages, fetchMs, bytes, sent, fromStart };
      }, AGENT_KEY);
      return { ...measured, serverCpu: cpu1.server - cpu0.server, browserCpu: cpu1.browser - cpu0.browser };
    };

    // Log in through the login screen: the session gate starts the sync loop.
    await page.goto('/login');
    await page.locator('input[name="user"]').fill(USER.user);
    await page.locator('input[name="password"]').fill(USER.password);
    const firstCpu = cpuNow();
    await page.getByTestId('login-submit').click();
    await page.getByTestId('app-shell').waitFor({ timeout: 60_000 });
    const runs = [await awaitSync(firstCpu)];
    for (let i = 1; i < SYNC_RUNS; i++) {
      // Same origin without the console: drop the database, then open the console again (cold cache, warm session).
      await page.goto('/api/config/public');
      await page.evaluate(
        () =>
          new Promise<void>((resolve, reject) => {
            const del = indexedDB.deleteDatabase('hashfield');
            del.onsuccess = () => resolve();
            del.onerror = () => reject(del.error);
            del.onblocked = () => reject(new Error('hashfield database still open'));
          }),
      );
      const cpu0 = cpuNow();
      await page.goto('/');
      await page.getByTestId('app-shell').waitFor({ timeout: 60_000 });
      runs.push(await awaitSync(cpu0));
    }
    for (const r of runs) if (r.cached !== MINERS) throw new Error(`the cache holds ${r.cached} miners, expected ${MINERS}`);

    // SN lookups from the cache through findMinerBySn.
    await page.addScriptTag({ content: lookupCode });
    const picks = Array.from({ length: LOOKUPS }, (_, i) => sns[(i * 7919 + 13) % sns.length]!);
    const lookups = await page.evaluate(
      async ({ agentKey, picks: list }) => {
        const w = window as unknown as { hfOfflineBench: { findMinerBySn: (k: string, sn: string) => Promise<{ sn: string } | null> } };
        performance.clearMeasures('hf-sn-lookup');
        let found = 0;
        for (const sn of list) if ((await w.hfOfflineBench.findMinerBySn(agentKey, sn))?.sn === sn) found++;
        return { found, durations: performance.getEntriesByName('hf-sn-lookup', 'measure').map((e) => e.duration) };
      },
      { agentKey: AGENT_KEY, picks },
    );
    if (lookups.found !== LOOKUPS) throw new Error(`findMinerBySn found ${lookups.found} of ${LOOKUPS} SNs`);
    const sorted = [...lookups.durations].sort((a, b) => a - b);

    // The phone's every-minute case: the agent's next cycle (readings with 1 % of noise, a new version for every
    // miner); the console's loop (woken by an `online` event, one of its triggers) brings the warm cache up to date.
    // Then a cycle where every miner is due (10 minutes on: SYNC_READINGS_REFRESH_MINUTES), as after a farm-wide change.
    const deltaAfter = async (batchSeq: number, minutes: number, rateFactor: number) => {
      const agent2 = new BenchClient(server.url);
      await agent2.must('POST', '/api/agent-uplink/snapshots', gzipBatch(snapshotBatch({ batchSeq, count: MINERS, takenAt: new Date(firstAt + minutes * 60_000).toISOString(), rateFactor })), {
        authorization: `Bearer ${AGENT_KEY}.${secret}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      });
      agent2.close();
      const deltaCpu = cpuNow();
      await page.evaluate(() => {
        performance.clearMeasures('hf-sync-miners');
        performance.clearResourceTimings();
        window.dispatchEvent(new Event('online'));
      });
      const d = await awaitSync(deltaCpu);
      if (d.cached !== MINERS) throw new Error(`after the delta sync the cache holds ${d.cached} miners, expected ${MINERS}`);
      return d;
    };
    const steady = await deltaAfter(2, 1, 1.01);
    const delta = await deltaAfter(3, 11, 1);
    // Only runs that measured the whole sync count; a resumed one is shown with '*'.
    const full = runs.filter((r) => r.fromStart);
    const syncMs = (full.length ? full : runs).map((r) => r.ms);
    const syncMedian = median(syncMs);
    const lookupMedian = median(sorted);
    printTable(`(e) Offline cache in Chromium: ${MINERS.toLocaleString('en-US')} miners, GET /api/sync/miners → IndexedDB (Dexie), PGlite server`, {
      'full miners sync': {
        median: ms(syncMedian),
        runs: runs.map((r) => `${Math.round(r.ms)}${r.fromStart ? '' : '*'}`).join(' / '),
        detail: `${runs.map((r) => r.pages).join(' / ')} pages, ${runs.map((r) => (r.bytes / 1048576).toFixed(1)).join(' / ')} MiB JSON (${runs.map((r) => (r.sent / 1048576).toFixed(2)).join(' / ')} MiB sent); answers ${runs.map((r) => Math.round(r.fetchMs)).join(' / ')} ms; CPU server ${runs.map((r) => Math.round(r.serverCpu)).join(' / ')} ms, Chromium ${runs.map((r) => Math.round(r.browserCpu)).join(' / ')} ms`,
        target: '≤ 3000 ms',
        verdict: !full.length ? 'no full run' : syncMedian <= 3000 ? 'ok' : 'over',
      },
      'delta sync, next agent cycle': {
        median: ms(steady.ms),
        runs: '1',
        detail: `${steady.pages} pages, ${(steady.bytes / 1048576).toFixed(2)} MiB JSON (${(steady.sent / 1048576).toFixed(2)} MiB sent); answers ${Math.round(steady.fetchMs)} ms; CPU server ${Math.round(steady.serverCpu)} ms, Chromium ${Math.round(steady.browserCpu)} ms`,
        target: '',
        verdict: '',
      },
      'delta sync, every miner due': {
        median: ms(delta.ms),
        runs: '1',
        detail: `${delta.pages} pages, ${(delta.bytes / 1048576).toFixed(1)} MiB JSON (${(delta.sent / 1048576).toFixed(2)} MiB sent); answers ${Math.round(delta.fetchMs)} ms; CPU server ${Math.round(delta.serverCpu)} ms, Chromium ${Math.round(delta.browserCpu)} ms`,
        target: '',
        verdict: '',
      },
      [`SN lookup ×${LOOKUPS}`]: {
        median: ms(lookupMedian),
        runs: `${lookups.found}/${LOOKUPS} found`,
        detail: `p95 ${ms(quantile(sorted, 0.95))}, max ${ms(sorted.at(-1) ?? NaN)}`,
        target: '≤ 20 ms',
        verdict: lookupMedian <= 20 ? 'ok' : 'over',
      },
    });
    console.log(`Sync: the console's own loop after login (cold IndexedDB), measure 'hf-sync-miners'; ${SYNC_RUNS} runs, the database deleted between runs; "answers" = sum over the pages of request sent → last byte (the next page is fetched while one is written); * = the console reloaded while syncing, so the measure covers only the pages after the reload (left out of the median); CPU = the server process's and all Chromium processes' CPU time from the start of the run to the end of the sync. "delta sync, next agent cycle": the agent's next batch (a minute on, readings with 1 % of noise), then the console's loop syncs its warm cache (what a phone does every minute while the app is open): only the miners whose readings are due that minute come (about a tenth). "every miner due": a batch 10 minutes on, when all ${MINERS.toLocaleString('en-US')} miners are sent again (as after a change of the whole farm).${pageErrors.length ? ` Page errors: ${pageErrors.join('; ')}` : ''}`);
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    await data.remove();
    rmSync(distCopy, { recursive: true, force: true });
  }
}
