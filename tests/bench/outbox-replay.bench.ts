/**
 * (h) outbox-replay — the console's own outbox replayer (src/client/lib/offline/outbox.ts) in Chromium
 * (playwright-core, /usr/bin/chromium) against a server (PGlite) serving the built console (E2E_DIST or dist;
 * skipped with a message when there is none). A page logged in on a 360 px phone goes offline; 1,000 note
 * entries (as the miner card queues them: POST /api/miner/notes, client UUIDv7 = note id = Idempotency-Key)
 * are written into its IndexedDB outbox (the page is the technician's app, /field, where a phone lands); the page
 * goes online and the replayer sends them one at a time in creation order. Figures: wall time from `online` to an
 * empty outbox, entries per second, then the same 1,000 entries forced through the replay again (every one answered
 * from the idempotency store), once more with the field app's sync panel open (its list of waiting changes on screen,
 * as when a technician watches it drain), and the server's count: notes stored, distinct ids, duplicates (must be 0).
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { gzipBatch, minerIp, snapshotBatch } from '../support/miner-snapshots';
import { uuid7 } from '../../src/client/lib/offline/uuid7';
import { BenchClient, REPO_ROOT, ms, printTable, startServer, tempDir } from './bench-support';

const ENTRIES = 1000;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const USER = { user: 'admin', password: 'bench-pass-1' };
const AGENT_KEY = 'bench-outbox';

export async function run(): Promise<void> {
  const distDir = process.env.E2E_DIST ?? join(REPO_ROOT, 'dist');
  if (!existsSync(join(distDir, 'index.html'))) {
    console.log(`\n(h) outbox-replay: skipped — no built console at ${distDir} (run \`npx vite build\`, or set E2E_DIST to a build of your own)`);
    return;
  }
  if (!existsSync(CHROMIUM)) {
    console.log(`\n(h) outbox-replay: skipped — Chromium not found at ${CHROMIUM} (apt-get install -y chromium)`);
    return;
  }
  const distCopy = mkdtempSync(join(tmpdir(), 'hf-bench-dist-'));
  cpSync(distDir, distCopy, { recursive: true });
  const data = tempDir('hf-bench-outbox-');
  const server = await startServer({ dataDir: data.dir, env: { SERVE_DIST: distCopy, LOG_LEVEL: 'warn' } });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  try {
    const admin = new BenchClient(server.url);
    await admin.must('POST', '/api/userv3/setup', USER);
    const { secret } = await admin.must<{ agentKey: string; secret: string }>('POST', '/api/agent/createv2', { agentName: 'Bench outbox', agentKey: AGENT_KEY });
    const agent = new BenchClient(server.url);
    await agent.must('POST', '/api/agent-uplink/snapshots', gzipBatch(snapshotBatch({ batchSeq: 1, count: 1, takenAt: new Date().toISOString() })), {
      authorization: `Bearer ${AGENT_KEY}.${secret}`,
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    agent.close();
    const ip = minerIp(0);

    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, serviceWorkers: 'block' });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto('/login');
    await page.locator('input[name="user"]').fill(USER.user);
    await page.locator('input[name="password"]').fill(USER.password);
    await page.getByTestId('login-submit').click();
    // A phone with a farm lands on the technician's app (/field, a page load of its own: menu-route.tsx), where the
    // miner card queues its notes; its outbox is the one measured.
    await page.waitForURL('**/field**', { timeout: 60_000 });
    await page.locator('.hf-app').waitFor({ timeout: 60_000 });
    await page.getByTestId('outbox-indicator').first().waitFor({ timeout: 30_000 });

    const created = Date.now() - 60_000;
    const entries = Array.from({ length: ENTRIES }, (_, i) => {
      const id = uuid7(created + i);
      return {
        id,
        kind: 'miner.note',
        method: 'POST',
        url: '/api/miner/notes',
        body: { agentKey: AGENT_KEY, id, ip, kind: 'note', text: `bench note ${i}`, createdAt: new Date(created + i).toISOString() },
        agentKey: AGENT_KEY,
        label: `Note on ${ip}`,
        created: created + i,
        attempts: 0,
        state: 'pending',
        nextAttemptAt: 0,
        lastError: null,
      };
    });

    /** Writes the entries into the outbox (one transaction), goes online and waits for an empty outbox; returns ms. */
    const replay = async (): Promise<number> => {
      await context.setOffline(true);
      await page.evaluate(
        (rows) =>
          new Promise<void>((resolve, reject) => {
            const open = indexedDB.open('hashfield');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const db = open.result;
              const tx = db.transaction('outbox', 'readwrite');
              for (const r of rows) tx.objectStore('outbox').put(r);
              tx.oncomplete = () => {
                db.close();
                resolve();
              };
              tx.onerror = () => reject(tx.error);
            };
          }),
        entries,
      );
      await context.setOffline(false);
      return page.evaluate(async () => {
        const t0 = performance.now();
        window.dispatchEvent(new Event('online'));
        const deadline = t0 + 300_000;
        for (;;) {
          // Inline (no named helpers: the bench runs through tsx, whose name-keeping helper is not in the page).
          const left = await new Promise<number>((resolve, reject) => {
            const open = indexedDB.open('hashfield');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const db = open.result;
              const req = db.transaction('outbox').objectStore('outbox').count();
              req.onsuccess = () => {
                resolve(req.result);
                db.close();
              };
              req.onerror = () => reject(req.error);
            };
          });
          if (left === 0) break;
          if (performance.now() > deadline) throw new Error('outbox not drained within 5 minutes');
          await new Promise((r) => setTimeout(r, 50));
        }
        return performance.now() - t0;
      });
    };

    const first = await replay();
    const again = await replay();
    // The technician watching it drain: the sync panel open, its list of waiting changes on screen.
    await page.getByTestId('outbox-indicator').first().click();
    await page.getByTestId('outbox-pending-list').waitFor({ timeout: 30_000 });
    const watched = await replay();
    const list = await admin.must<{ list: { id: string }[]; total: number }>('GET', `/api/miner/notes?agentKey=${AGENT_KEY}&ip=${ip}&page=1&pageSize=1000`);
    admin.close();
    const distinct = new Set(list.list.map((n) => n.id)).size;
    const expected = new Set(entries.map((e) => e.id));
    const missing = [...expected].filter((id) => !list.list.some((n) => n.id === id)).length;
    const duplicates = list.total - distinct;
    printTable(`(h) Outbox replay in Chromium: ${ENTRIES.toLocaleString('en-US')} note entries, POST /api/miner/notes one at a time, PGlite server`, {
      'first replay': { time: ms(first), rate: `${Math.round((ENTRIES / first) * 1000)} entries/s`, detail: 'online → outbox empty' },
      'forced replay of the same entries': { time: ms(again), rate: `${Math.round((ENTRIES / again) * 1000)} entries/s`, detail: 'every answer replayed from the idempotency store' },
      'the same, sync panel open': { time: ms(watched), rate: `${Math.round((ENTRIES / watched) * 1000)} entries/s`, detail: 'its list of waiting changes on screen' },
      server: { time: '', rate: `${list.total} notes stored, ${distinct} distinct, ${missing} missing`, detail: `duplicates ${duplicates} (must be 0)` },
    });
    if (pageErrors.length) console.log(`Page errors: ${pageErrors.join('; ')}`);
    if (duplicates !== 0 || missing !== 0 || list.total !== ENTRIES) console.log('OUTBOX REPLAY: WRONG SERVER COUNT');
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    await data.remove();
    rmSync(distCopy, { recursive: true, force: true });
  }
}
