/**
 * Offline outbox acceptance (issue 5), phone 360 px, in Chromium with the service worker, twice: with the
 * browser's Background Sync and with `registration.sync` removed (iOS-like). Log in online, open a miner card
 * from the cache, go offline, reload (the app opens), make 3 changes (note, fault mark, customer), close the
 * page, open a new one, go online → the server holds each change exactly once. The same entries forced
 * through the replay 3 more times → still once. A customer change made stale on the server → 409 → dead
 * letter with the reason → Edit → applied. A session deleted during replay → the queue pauses, the banner
 * asks to log in → after the login everything is sent, nothing lost.
 * Playwright never fires `sync` on reconnect: the test relies on the page's own triggers (`online`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { SnapshotBatch } from '../../src/shared/schemas/agent-uplink';
import { ADMIN, type ApiSession, launchBrowser, newContext, setOffline, setupAdmin, trackPageErrors } from '../support/e2e-browser';
import { type E2EServer, startServer } from '../support/e2e-server';
import { addNote, minerRow, notesOf } from '../support/e2e-miner-card';
import { minerIp, minerSnapshot, uploadBatch } from '../support/miner-snapshots';

const KEY = 'north-hall';
const FLEET = 6;
const CUSTOMERS = ['Acme Hosting', 'Beta Mining', 'Gamma Power'];

let server: E2EServer;
let browser: Browser;
let api: ApiSession;

const hostingResult = JSON.stringify([{ type: 'Antminer S21', coinType: 'BTC', hashRate: 200, hashRateUnit: 'TH/s', minerModel: 'S21', minerNum: 10 }]);

async function uploadFleet(secret: string): Promise<void> {
  const takenAt = new Date().toISOString();
  const batch: SnapshotBatch = {
    agentVersion: '1.4.2',
    batchSeq: 1,
    cycleStartedAt: takenAt,
    cycleDurationMs: 5000,
    snapshots: Array.from({ length: FLEET }, (_, i) => minerSnapshot(i, { takenAt })),
  };
  await uploadBatch(server.url, KEY, secret, batch);
}

/** The outbox store read straight from IndexedDB (what survives a closed page). */
function readOutbox(page: Page): Promise<Record<string, unknown>[]> {
  return page.evaluate(
    () =>
      new Promise<Record<string, unknown>[]>((resolve, reject) => {
        const req = indexedDB.open('hashfield');
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const db = req.result;
          const all = db.transaction('outbox', 'readonly').objectStore('outbox').getAll();
          all.onsuccess = () => {
            resolve(all.result as Record<string, unknown>[]);
            db.close();
          };
          all.onerror = () => reject(all.error);
        };
      }),
  );
}

/** Puts entries back into the outbox as pending (a forced replay of already-applied changes) and triggers the replayer. */
async function forceReplay(page: Page, entries: Record<string, unknown>[]): Promise<void> {
  await page.evaluate(
    (rows) =>
      new Promise<void>((resolve, reject) => {
        const req = indexedDB.open('hashfield');
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const db = req.result;
          const tx = db.transaction('outbox', 'readwrite');
          for (const r of rows) tx.objectStore('outbox').put({ ...r, state: 'pending', attempts: 0, nextAttemptAt: 0, lastError: null });
          tx.oncomplete = () => {
            db.close();
            window.dispatchEvent(new Event('online'));
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    entries,
  );
}

async function waitOutboxEmpty(page: Page, timeout = 20_000): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const rows = await readOutbox(page);
    if (rows.length === 0) return;
    if (Date.now() > deadline) throw new Error(`outbox not empty: ${JSON.stringify(rows.map((r) => [r.label, r.state, r.lastError]))}`);
    await page.waitForTimeout(200);
  }
}

async function until<T>(what: string, probe: () => Promise<T>, ok: (v: T) => boolean, timeout = 20_000): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function goOnline(ctx: BrowserContext, page: Page): Promise<void> {
  await setOffline(ctx, false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
}

/** The field app's pickers are native selects (the phone's own picker). */
async function pickOption(page: Page, testId: string, option: string): Promise<void> {
  await page.getByTestId(testId).selectOption({ label: option });
}

async function changeCustomer(page: Page, customer: string): Promise<void> {
  await page.getByTestId('miner-change-customer').click();
  await pickOption(page, 'miner-customer-select', customer);
  await page.getByTestId('miner-customer-save').click();
  await page.getByTestId('miner-customer-dialog').waitFor({ state: 'hidden' });
}

/** Waits for a test id; on time-out the error names what the page shows instead. */
async function shows(page: Page, testId: string, timeout = 20_000): Promise<void> {
  try {
    await page.getByTestId(testId).waitFor({ timeout });
  } catch (e) {
    const text = await page
      .locator('body')
      .innerText()
      .catch(() => '?');
    throw new Error(`${testId} not shown at ${page.url()}; the page shows: ${text.slice(0, 400)}`, { cause: e });
  }
}

async function loginOnPage(page: Page): Promise<void> {
  await page.getByTestId('login-page').waitFor({ timeout: 15_000 });
  await page.locator('input[name="user"]').fill(ADMIN.user);
  await page.locator('input[name="password"]').fill(ADMIN.password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('app-shell').waitFor({ timeout: 20_000 });
  // A phone lands on the field app (a full page load from the console): let it finish before moving on.
  await shows(page, 'field-home');
}

beforeAll(async () => {
  server = await startServer();
  api = await setupAdmin(server.url);
  const farm = await api.post<{ agentKey: string; secret: string }>('/api/agent/createv2', { agentName: 'North Hall', agentKey: KEY, noticeEmails: '', agentAddr: '' });
  await uploadFleet(farm.secret);
  for (const name of CUSTOMERS) {
    await api.post('/api/customer/save', { agentKey: KEY, name, contract: 'Li Wei', email: 'ops@acme.example', mobile: '', areaCode: '', electricUnit: 'CNY', electricPrice: '0.35', hostingResult });
  }
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('offline outbox (phone)', () => {
  for (const [mode, minerIndex] of [
    ['with Background Sync', 0],
    ['with registration.sync removed', 1],
  ] as const) {
    it(`keeps, sends once, dead-letters and resumes offline changes — ${mode}`, async () => {
      const ip = minerIp(minerIndex);
      const { id: minerId } = await minerRow(api, KEY, ip);
      const ctx = await newContext(browser, server.url, { viewport: 'phone', serviceWorkers: 'allow' });
      if (mode !== 'with Background Sync') {
        await ctx.addInitScript(() => {
          if (typeof ServiceWorkerRegistration !== 'undefined') delete (ServiceWorkerRegistration.prototype as { sync?: unknown }).sync;
        });
      }
      let page = await ctx.newPage();
      const errors = trackPageErrors(page);
      try {
        // Online: log in, let the field cache fill, open the card; the service worker takes control.
        await page.goto('/login');
        await loginOnPage(page);
        await page.goto('/field');
        await page.waitForFunction((n) => Number(document.querySelector('[data-testid="field-sync-status"]')?.getAttribute('data-count') ?? 0) >= n, FLEET, { timeout: 30_000 });
        await page.goto(`/field/miner/${minerId}`);
        await page.getByTestId('field-miner-page').waitFor();
        await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
        // A second visit online, now through the service worker: the shell's start-up reads reach its cache.
        await page.reload();
        await page.getByTestId('field-miner-page').waitFor();
        await page.waitForFunction(async () => (await (await caches.open('hf-shell-api')).keys()).some((r) => r.url.includes('/api/userv2/userCurrent')), undefined, {
          timeout: 15_000,
        });
        const hasSync = await page.evaluate(async () => 'sync' in (await navigator.serviceWorker.ready));
        expect(hasSync).toBe(mode === 'with Background Sync');
        // The customers reached this device (the dialog offers them).
        await page.getByTestId('miner-change-customer').click();
        await page.getByTestId('miner-customer-select').getByRole('option', { name: 'Gamma Power', exact: true }).waitFor({ state: 'attached', timeout: 20_000 });
        await page.keyboard.press('Escape');
        await page.getByTestId('miner-customer-dialog').waitFor({ state: 'hidden' });
        await page.waitForTimeout(1500); // persisted query cache (throttled 1 s)

        // Offline: the app opens from the service worker and the cache; 3 changes are queued.
        await setOffline(ctx, true);
        await page.reload();
        await shows(page, 'field-miner-page');
        expect(await page.getByTestId('login-page').count()).toBe(0);
        await addNote(page, `Fan 2 rattles (${mode})`);
        await page.getByText('Saved — will sync when online').first().waitFor();
        await page.getByTestId('miner-mark-fault').click();
        await pickOption(page, 'miner-fault-type', 'Fan speed abnormal');
        await page.getByTestId('miner-fault-text').fill('fan 1 stopped');
        await page.getByTestId('miner-fault-save').click();
        await page.getByTestId('miner-fault-dialog').waitFor({ state: 'hidden' });
        await changeCustomer(page, 'Acme Hosting');
        await page.getByTestId('miner-pending-chip').getByText('3 pending').waitFor();
        await expect.poll(() => page.getByTestId('miner-customer-shown').textContent()).toBe('Customer: Acme Hosting');
        await expect.poll(() => page.getByTestId('outbox-indicator').getAttribute('data-pending')).toBe('3');
        // Readable at 360 px: nothing wider than the phone.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
        const queued = await readOutbox(page);
        expect(queued).toHaveLength(3);
        expect(await notesOf(api, KEY, ip)).toHaveLength(0);

        // Close the page; a new one (still offline) finds the queue; online → sent exactly once.
        await page.close();
        page = await ctx.newPage();
        const laterErrors = trackPageErrors(page);
        await page.goto(`/field/miner/${minerId}`);
        await shows(page, 'field-miner-page');
        await expect.poll(() => page.getByTestId('outbox-indicator').getAttribute('data-pending')).toBe('3');
        // What actually leaves the page (key + body), for the forced replays below.
        const sent = new Map<string, unknown>();
        page.on('request', (req) => {
          const key = req.headers()['idempotency-key'];
          if (key && req.method() === 'POST') sent.set(key, JSON.parse(req.postData() ?? 'null'));
        });
        await goOnline(ctx, page);
        await waitOutboxEmpty(page);
        const notes = await until('notes stored', () => notesOf(api, KEY, ip), (l) => l.length === 2);
        expect(notes.map((n) => [n.kind, n.faultType, n.text]).sort()).toEqual([
          ['fault', 'fan-speed-abnormal', 'fan 1 stopped'],
          ['note', null, `Fan 2 rattles (${mode})`],
        ]);
        const applied = await minerRow(api, KEY, ip);
        expect(applied).toMatchObject({ customer: 'Acme Hosting', accident: 'fan-speed-abnormal', accidentNote: 'fan 1 stopped' });
        await expect.poll(() => page.getByTestId('outbox-indicator').getAttribute('data-pending')).toBe('0');

        // The same three entries (as sent) forced through the replay 3 more times: still once, nothing re-applied.
        expect([...sent.keys()].sort()).toEqual(queued.map((e) => e.id).sort());
        const replayed = queued.map((e) => ({ ...e, body: sent.get(e.id as string) }));
        for (let i = 0; i < 3; i += 1) {
          await forceReplay(page, replayed);
          await waitOutboxEmpty(page);
        }
        expect(await notesOf(api, KEY, ip)).toHaveLength(2);
        expect((await minerRow(api, KEY, ip)).marksVersion).toBe(applied.marksVersion);

        // A customer change made stale by someone else → 409 → dead letter with the reason → Edit → applied.
        await setOffline(ctx, true);
        await api.post('/api/minerv2/batchCustomer', { agentKey: KEY, ips: ip, customer: 'Beta Mining' });
        await changeCustomer(page, 'Gamma Power');
        await goOnline(ctx, page);
        await expect.poll(() => page.getByTestId('outbox-indicator').getAttribute('data-dead'), { timeout: 20_000 }).toBe('1');
        expect((await minerRow(api, KEY, ip)).customer).toBe('Beta Mining');
        await page.getByTestId('miner-refused-chip').waitFor();
        await page.getByTestId('outbox-indicator').click();
        const dead = page.getByTestId('outbox-dead-row');
        await dead.waitFor();
        expect(await dead.getByTestId('outbox-dead-reason').textContent()).toBe('Reason: The record was changed by someone else; reload and try again');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
        await dead.getByTestId('dead-letter-edit-open').click();
        expect(await page.getByTestId('dead-letter-conflict').textContent()).toContain('now Beta Mining');
        await page.getByTestId('dead-letter-save').click();
        await until('edited change applied', () => minerRow(api, KEY, ip), (r) => r.customer === 'Gamma Power');
        await waitOutboxEmpty(page);
        await page.getByTestId('outbox-dead-list').getByText('No refused changes.').waitFor();
        await page.keyboard.press('Escape');

        // The session ends while a change waits: the queue pauses (nothing lost), resumes after the login.
        await setOffline(ctx, true);
        await addNote(page, 'after the session ended');
        const cookie = (await ctx.cookies()).find((c) => c.name === 'hf_session');
        expect(cookie).toBeTruthy();
        await fetch(`${server.url}/api/userv3/logout`, { headers: { cookie: `hf_session=${cookie!.value}` } });
        await goOnline(ctx, page);
        // Paused: the banner (on the card) or the login page (the app noticed the session too) — and nothing sent.
        await page.locator('[data-testid="outbox-session-expired"], [data-testid="login-page"]').first().waitFor({ timeout: 20_000 });
        const pausedRows = await readOutbox(page);
        expect(pausedRows.map((r) => r.state)).toEqual(['pending']);
        expect(await notesOf(api, KEY, ip)).toHaveLength(2);
        if (await page.getByTestId('outbox-login').isVisible()) await page.getByTestId('outbox-login').click();
        await loginOnPage(page);
        await until('note after login', () => notesOf(api, KEY, ip), (l) => l.length === 3);
        await waitOutboxEmpty(page);
        expect((await notesOf(api, KEY, ip)).filter((n) => n.text === 'after the session ended')).toHaveLength(1);
        expect([...errors, ...laterErrors].map((e) => e.message)).toEqual([]);
      } finally {
        await ctx.close();
      }
    }, 180_000);
  }
});
