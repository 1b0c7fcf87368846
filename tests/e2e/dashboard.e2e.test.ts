/**
 * Dashboard end to end: a farm of 60 miners uploaded through the agent uplink (two cycles) — on a desktop the
 * counters, the hashrate chart with its three ranges, the today / 3 days / 1 week panels, temperatures, top
 * faults (a fault opens the miner list filtered by it), why and where miners are offline (a reason or a zone opens
 * its miners), the NUC card; a failing summary shows the error state and recovers on retry; a member of a farm without miners sees the "add scan IP ranges" empty state; a farm whose agent
 * went quiet says so above its figures (dashboard, miner list, hashrate overview); on a 360 px phone the panels stack
 * and the chart fits without sideways scrolling.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SnapshotBatch } from '@shared/schemas/agent-uplink';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { minerIp, minerSnapshot, uploadBatch } from '../support/miner-snapshots';
import { type ApiSession, VIEWPORTS, launchBrowser, loginUi, newContext, selectFarm, setupAdmin, tableRowKeys, trackPageErrors } from '../support/e2e-browser';
import { setFarmLastOnline } from '../support/e2e-seed';
import { type E2EServer, startServer } from '../support/e2e-server';

const FARM = 'dash-farm';
const EMPTY = 'dash-empty';
/** A farm whose agent reported once and then went quiet (10 minutes ago). */
const QUIET = 'dash-quiet';
const COUNT = 60;

let server: E2EServer;
let browser: Browser;
let api: ApiSession;
let snaps: MinerSnapshot[] = [];

function reading(i: number, takenAt: string): MinerSnapshot {
  const s = structuredClone(minerSnapshot(i, { takenAt }));
  if (i % 20 === 4) {
    for (const b of s.boards) b.tempChip = b.tempChip.map(() => 97);
    s.faultLabels = ['high-temperature'];
  }
  // Every tenth miner from 8 on is offline: half of them with the agent's reason "no answer", half with none.
  if (i % 20 === 8) s.errorCodes = [{ code: -110, message: 'no answer' }];
  return s;
}

async function upload(secret: string, seq: number, takenAt: string, farm = FARM): Promise<MinerSnapshot[]> {
  const snapshots = Array.from({ length: COUNT }, (_, i) => reading(i, takenAt));
  const batch: SnapshotBatch = { agentVersion: '1.4.2', batchSeq: seq, cycleStartedAt: takenAt, cycleDurationMs: 9000, snapshots };
  await uploadBatch(server.url, farm, secret, batch);
  return snapshots;
}

beforeAll(async () => {
  server = await startServer();
  api = await setupAdmin(server.url);
  const { secret } = await api.post<{ secret: string }>('/api/agent/createv2', { agentName: 'Dashboard farm', agentKey: FARM, noticeEmails: '', agentAddr: '', selfManaged: false });
  await api.post('/api/agent/createv2', { agentName: 'Empty farm', agentKey: EMPTY, noticeEmails: '', agentAddr: '', selfManaged: false });
  const quiet = await api.post<{ secret: string }>('/api/agent/createv2', { agentName: 'Quiet farm', agentKey: QUIET, noticeEmails: '', agentAddr: '', selfManaged: false });
  const now = Date.now();
  await upload(quiet.secret, 1, new Date(now - 600_000).toISOString(), QUIET);
  await setFarmLastOnline(server, QUIET, new Date(now - 600_000));
  await upload(secret, 1, new Date(now - 120_000).toISOString());
  snaps = await upload(secret, 2, new Date(now - 60_000).toISOString());
  // A row of the hall holding miners 0–29 (three of them offline).
  const hall = await api.post<{ id: number }>('/api/minerv2/agentSubArea/save', { agentKey: FARM, name: 'Hall 1' });
  const row2 = await api.post<{ id: number }>('/api/minerv2/agentSubArea/save', { agentKey: FARM, name: 'Row 2', parentId: hall.id });
  await api.post('/api/minerv2/agentSubIp/save', { agentKey: FARM, areaId: row2.id, segments: `${minerIp(0)}-${minerIp(29)}` });
  // A member of the empty farm only, who may edit its scan IP ranges.
  const role = await api.post<{ id: string }>('/api/role/save', { name: 'dash-empty-role', permissions: '1000,10000,82000,82500' });
  await api.post('/api/user/save', { user: 'newfarm', password: 'member-pass-1', roleId: role.id, agentKeys: EMPTY });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openDashboard(page: Page, farm: string): Promise<void> {
  await selectFarm(page, farm);
  await page.goto('/');
  await page.getByTestId('dashboard-page').waitFor();
}

describe('dashboard at 1440 px', () => {
  let context: BrowserContext;
  let page: Page;
  let errors: Error[];

  beforeAll(async () => {
    context = await newContext(browser, server.url, { viewport: 'desktop' });
    page = await context.newPage();
    errors = trackPageErrors(page);
    await loginUi(page);
    await openDashboard(page, FARM);
  }, 120_000);
  afterAll(async () => context?.close());

  it('shows the counters of the miners now', async () => {
    await page.getByTestId('dashboard-counters').waitFor();
    await expect.poll(() => page.getByTestId('dashboard-count-online').textContent(), { timeout: 15_000 }).toBe(String(snaps.filter((s) => s.online).length));
    expect(await page.getByTestId('dashboard-count-offline').textContent()).toBe(String(snaps.filter((s) => !s.online).length));
    expect(await page.getByTestId('dashboard-count-qualified').textContent()).toBe(String(snaps.filter((s) => s.state.qualified).length));
    expect(await page.getByTestId('dashboard-fault-high-temperature').textContent()).toBe(String(snaps.filter((s) => s.faultLabels.includes('high-temperature')).length));
  });

  it('draws real vs ideal hashrate for the hour, 30 days and a year', async () => {
    const chart = page.getByTestId('dashboard-hashrate');
    await chart.locator('canvas').waitFor();
    await chart.getByText('Real').first().waitFor();
    for (const label of ['30 days', '1 year', 'Hour']) {
      await page.getByTestId('dashboard-range').getByText(label, { exact: true }).click();
      await chart.locator('canvas').waitFor();
      // Without the pointer on the chart (a phone never hovers) the legend shows the latest values, not dashes.
      await expect.poll(() => chart.locator('.u-legend').innerText()).toMatch(/Real:?\s*[\d.,]+ [KMGTPE]?H\/s/);
    }
  });

  it('fills the today, 3 days and 1 week panels, the temperatures and the NUC card', async () => {
    for (const p of ['today', '3d', '1w']) {
      await expect.poll(() => page.getByTestId(`dashboard-period-${p}-real`).textContent(), { timeout: 15_000 }).toMatch(/H\/s$/);
      expect(await page.getByTestId(`dashboard-period-${p}-online`).textContent()).toMatch(/%$/);
      // The period's highest temperature says so: not to be read against the Temperatures card's highest now.
      expect(await page.getByTestId(`dashboard-period-${p}`).innerText()).toContain('Highest temperature in period');
    }
    expect(await page.getByTestId('dashboard-temp-max').textContent()).toMatch(/°C/);
    expect(await page.getByTestId('dashboard-temp-band').count()).toBe(7);
    await page.getByTestId('nuc-card').getByTestId('dashboard-nuc-state').waitFor();
    await page.getByTestId('farm-card').getByText(FARM).waitFor();
    // The farm's key under a label, not the field's code name "agentKey".
    await page.getByTestId('farm-card').getByText('Agent key', { exact: true }).waitFor();
    expect(await page.getByTestId('farm-card').getByText('agentKey', { exact: true }).count()).toBe(0);
  });

  it('opens the miner list filtered by a top fault', async () => {
    const link = page.getByTestId('dashboard-faults').getByTestId('dashboard-fault-link').filter({ hasText: 'High temperature' });
    await link.waitFor();
    await link.click();
    await page.waitForURL(/\/device\/miner\?faultType=high-temperature/);
    await page.getByTestId('miner-list-page').waitFor();
    await page.goBack();
    await page.getByTestId('dashboard-page').waitFor();
  });

  it('says why miners are offline and opens the miners of a reason', async () => {
    const card = page.getByTestId('dashboard-offline-reasons');
    const offline = snaps.filter((s) => !s.online);
    const noAnswer = offline.filter((s) => s.errorCodes[0]?.code === -110).length;
    expect(noAnswer).toBeGreaterThan(0);
    const reason = card.locator('[data-key="-110"]');
    await expect.poll(() => reason.innerText()).toMatch(new RegExp(`No answer \\(powered off[^]*${noAnswer}$`));
    expect(await card.locator('[data-key="other"]').innerText()).toMatch(new RegExp(`Other or no reason recorded\\s*${offline.length - noAnswer}$`));
    await reason.click();
    await page.waitForURL((u) => u.pathname === '/device/miner' && u.searchParams.get('status') === 'offline' && u.searchParams.get('errorCode') === '-110');
    await expect.poll(() => page.getByTestId('miner-counter-total-value').textContent(), { timeout: 15_000 }).toBe(String(noAnswer));
    await page.goBack();
    await page.getByTestId('dashboard-page').waitFor();
    // Where: the row holding miners 0–29, with its offline ones.
    const inRow = snaps.flatMap((s, i) => (i < 30 && !s.online ? [s.ip] : []));
    const zone = card.getByTestId('dashboard-offline-zone');
    expect(await zone.innerText()).toMatch(new RegExp(`^Hall 1 / Row 2\\s*${inRow.length}$`));
    await zone.click();
    await page.waitForURL((u) => u.searchParams.get('status') === 'offline' && u.searchParams.has('subArea'));
    await expect.poll(async () => (await tableRowKeys(page)).sort(), { timeout: 15_000 }).toEqual([...inRow].sort());
    await page.goBack();
    await page.getByTestId('dashboard-page').waitFor();
  });

  it('shows an error with retry when the figures cannot load', async () => {
    // A new browser context: nothing cached yet, so the failure shows (a cached answer would be shown instead).
    const fresh = await newContext(browser, server.url, { viewport: 'desktop' });
    try {
      const p = await fresh.newPage();
      const pageErrors = trackPageErrors(p);
      // Failing from before the login: the login lands on the dashboard, and an answer it got before the route was in
      // place would be kept (persisted) and shown after the reload instead of the error (seen once in CI).
      await p.route('**/api/dashboard/summary*', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"code":500,"msg":"server error","data":null}' }));
      await loginUi(p);
      await openDashboard(p, FARM);
      await p.getByTestId('dashboard-counters-error').waitFor({ timeout: 60_000 });
      await p.getByTestId('dashboard-periods-error').waitFor();
      await p.getByTestId('dashboard-hashrate').locator('canvas').waitFor();
      await p.unroute('**/api/dashboard/summary*');
      await p.getByTestId('dashboard-counters-error').getByRole('button').click();
      await expect.poll(() => p.getByTestId('dashboard-count-online').textContent(), { timeout: 20_000 }).toBe(String(snaps.filter((s) => s.online).length));
      expect(pageErrors).toEqual([]);
    } finally {
      await fresh.close();
    }
    expect(errors).toEqual([]);
  }, 120_000);
});

describe('a farm whose agent went quiet', () => {
  it('says above its figures that they are not live, on the dashboard, the miner list and the hashrate overview', async () => {
    const context = await newContext(browser, server.url, { viewport: 'desktop' });
    try {
      const page = await context.newPage();
      const errors = trackPageErrors(page);
      await loginUi(page);
      await openDashboard(page, QUIET);
      const notice = page.getByTestId('agent-offline-notice');
      await notice.waitFor();
      expect(await notice.innerText()).toContain("The farm's agent is not reporting");
      expect(await notice.innerText()).toContain('not live');
      await page.getByTestId('dashboard-count-online').waitFor();
      for (const path of ['/device/miner', '/device/hash']) {
        await page.goto(path);
        await notice.waitFor();
      }
      // the farm whose agent reports: no notice once its figures are shown
      await openDashboard(page, FARM);
      await page.getByTestId('nuc-card').getByTestId('dashboard-nuc-state').filter({ hasText: 'Online' }).waitFor();
      expect(await notice.count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe('a farm without miners', () => {
  it('points to the scan IP ranges', async () => {
    const context = await newContext(browser, server.url, { viewport: 'desktop' });
    try {
      const page = await context.newPage();
      await loginUi(page, 'newfarm', 'member-pass-1');
      await page.getByTestId('dashboard-page').waitFor();
      await page.getByTestId('dashboard-no-miners').waitFor();
      await page.getByTestId('dashboard-hashrate-empty').waitFor();
      await page.getByTestId('dashboard-period-today-empty').waitFor();
      await page.getByTestId('dashboard-temperature-empty').waitFor();
      await page.getByTestId('dashboard-scan-ranges').click();
      await page.waitForURL(/\/setting\/agent\/ip/);
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe('dashboard at 360 px', () => {
  it('stacks the panels and fits the chart without sideways scrolling', async () => {
    const context = await newContext(browser, server.url, { viewport: 'phone' });
    try {
      const page = await context.newPage();
      const errors = trackPageErrors(page);
      await loginUi(page);
      // A phone lands on the technician's home (the light field app, a full page load); the console is one tap
      // away in its menu, and the dashboard one more in the console's menu.
      await page.getByTestId('field-home').waitFor({ timeout: 20_000 });
      await page.getByTestId('field-menu').click();
      await page.getByTestId('field-full-console').click();
      await page.getByTestId('sidebar-burger').click();
      await page.locator('.mantine-Drawer-content').locator('[data-menu-key="dashboard"]').click();
      await page.getByTestId('dashboard-page').waitFor();
      await page.getByTestId('dashboard-hashrate').locator('canvas').waitFor();
      await expect.poll(() => page.getByTestId('dashboard-period-1w-real').textContent(), { timeout: 15_000 }).toMatch(/H\/s$/);
      const today = await page.getByTestId('dashboard-period-today').boundingBox();
      const week = await page.getByTestId('dashboard-period-1w').boundingBox();
      expect(week!.y).toBeGreaterThan(today!.y + today!.height - 1);
      expect(await page.getByTestId('dashboard-hashrate').locator('.u-legend').innerText()).toMatch(/Ideal:?\s*[\d.,]+ [KMGTPE]?H\/s/);
      // The top faults open the filtered miner list: a finger-size row each, not the 20 px line of a name.
      for (const link of await page.getByTestId('dashboard-fault-link').all()) expect((await link.boundingBox())!.height).toBeGreaterThanOrEqual(32);
      const canvas = await page.getByTestId('dashboard-hashrate').locator('canvas').first().boundingBox();
      expect(canvas!.x + canvas!.width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
