/**
 * Batch operations end to end: a farm of 20 miners uploaded through the agent uplink; the batch menu is
 * disabled until miners are selected; two miners are rebooted from the list, the progress panel shows the
 * queued task, the agent side (simulated here through the uplink) pulls it and reports results, and the
 * panel and the batch log show them; on a phone the batch log's table scrolls inside its drawer.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_UPLINK_PREFIX, type AgentTask, type SnapshotBatch, agentAuthorization } from '@shared/schemas/agent-uplink';
import { minerIp, minerSnapshot, uploadBatch } from '../support/miner-snapshots';
import { type ApiSession, launchBrowser, loginUi, newContext, setupAdmin, suitePage, trackPageErrors } from '../support/e2e-browser';
import { type E2EServer, startServer } from '../support/e2e-server';

const FARM = 'batch-farm';
const COUNT = 20;

let server: E2EServer;
let browser: Browser;
let api: ApiSession;
let secret = '';

async function agentCall<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${AGENT_UPLINK_PREFIX}${path}`, {
    method,
    headers: { authorization: agentAuthorization(FARM, secret), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: T }).data;
}

beforeAll(async () => {
  server = await startServer();
  api = await setupAdmin(server.url);
  secret = (await api.post<{ secret: string }>('/api/agent/createv2', { agentName: 'Batch farm', agentKey: FARM, noticeEmails: '', agentAddr: '', selfManaged: false })).secret;
  const takenAt = new Date().toISOString();
  const batch: SnapshotBatch = {
    agentVersion: '1.4.2',
    batchSeq: 1,
    cycleStartedAt: takenAt,
    cycleDurationMs: 4000,
    snapshots: Array.from({ length: COUNT }, (_, i) => minerSnapshot(i, { takenAt })),
  };
  await uploadBatch(server.url, FARM, secret, batch);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('batch reboot from the miner list', () => {
  let context: BrowserContext;
  let page: Page;
  let errors: Error[];

  beforeAll(async () => {
    context = await newContext(browser, server.url, { viewport: 'desktop' });
    page = await context.newPage();
    errors = trackPageErrors(page);
    await loginUi(page);
    await page.goto('/device/miner');
    await page.getByTestId('data-table-row').first().waitFor();
  }, 120_000);

  afterAll(async () => {
    await context?.close();
  });

  it('keeps the batch menu disabled until miners are selected', async () => {
    await page.getByTestId('batch-bar').waitFor();
    expect(await page.getByTestId('batch-menu').isDisabled()).toBe(true);
  });

  it('reboots two selected miners and follows the progress as the agent reports', async () => {
    const boxes = page.getByTestId('data-table-row').locator('input[type="checkbox"]');
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await page.getByTestId('batch-menu').click();
    await page.getByTestId('batch-op-batchReboot').click();
    await page.getByTestId('batch-target').waitFor();
    expect(await page.getByTestId('batch-target').innerText()).toContain('2');
    await page.getByTestId('batch-dialog-run').click();
    await page.getByTestId('batch-progress').waitFor();
    await expect.poll(() => page.getByTestId('batch-progress-count').innerText()).toBe('0 / 2 done');
    expect(await page.getByTestId('batch-progress-status').innerText()).toMatch(/waiting for the agent/i);

    const tasks = await agentCall<AgentTask[]>('GET', '/tasks');
    expect(tasks).toHaveLength(1);
    const task = tasks[0]!;
    expect(task.op).toBe('reboot');
    expect(task.targets.map((t) => t.ip)).toEqual([minerIp(0), minerIp(1)]);
    await agentCall('POST', `/tasks/${task.id}/results`, {
      results: [
        { ip: minerIp(0), ok: true },
        { ip: minerIp(1), ok: false, reason: 'unreachable:timeout' },
      ],
      done: true,
    });
    await expect.poll(() => page.getByTestId('batch-progress-count').innerText(), { timeout: 15_000 }).toBe('2 / 2 done');
    expect(await page.getByTestId('batch-progress-status').innerText()).toMatch(/finished/i);
    expect(await page.getByTestId('batch-progress-successes').innerText()).toContain(minerIp(0));
    expect(await page.getByTestId('batch-progress-failures').innerText()).toContain('timeout');

    await page.getByTestId('batch-dialog-close').click();
    await page.getByTestId('batch-log-open').click();
    await page.getByTestId('batch-log-table').waitFor();
    const row = await page.getByTestId('batch-log-table').locator('tbody tr').first().innerText();
    expect(row).toContain('Reboot');
    expect(row).toContain('2 / 2');
    // On a desk the whole table shows: no sideways scroll, the status badge whole (it was cut to "FI…").
    const fit = await page.getByTestId('batch-log-scroll').evaluate((scroll) => {
      const badge = scroll.querySelector('tbody tr .mantine-Badge-label') as HTMLElement;
      return { table: (scroll.querySelector('table') as HTMLElement).offsetWidth - scroll.clientWidth, badge: badge.scrollWidth - badge.clientWidth };
    });
    expect(fit).toEqual({ table: 0, badge: 0 });
    expect(errors).toEqual([]);
  }, 60_000);

  it('set pools on a desk: the password\u2019s show/hide button keeps Mantine\u2019s size (the 32 px tap is for phones)', async () => {
    await page.keyboard.press('Escape');
    await page.getByTestId('batch-menu').click();
    await page.getByTestId('batch-op-batchSetPool').click();
    const toggle = page.locator('.mantine-Modal-content .mantine-PasswordInput-visibilityToggle').first();
    await toggle.waitFor();
    expect((await toggle.boundingBox())?.height).toBe(26);
    await page.locator('.mantine-Modal-close').click();
    await page.locator('.mantine-Modal-content').waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  }, 60_000);
});

describe('batch log at 360 px', () => {
  const s = suitePage(
    () => browser,
    () => server.url,
    async (page) => {
      await loginUi(page);
      await page.goto('/device/miner');
      await page.getByTestId('data-table-row').first().waitFor();
    },
    { viewport: 'phone' },
  );

  it('a card per batch, no sideways scroll; a tap on a card opens its progress', async () => {
    const { page } = s;
    await page.getByTestId('batch-log-open').click();
    const card = page.getByTestId('batch-log-card').first();
    await card.waitFor();
    // The drawer slides in from the right: its card is inside the screen once it has arrived.
    await expect.poll(() => card.evaluate((el) => Math.round(el.getBoundingClientRect().right) - window.innerWidth), { timeout: 5_000 }).toBeLessThanOrEqual(0);
    const layout = await card.evaluate((el) => {
      const drawer = el.closest('.mantine-Drawer-content') as HTMLElement;
      const box = el.getBoundingClientRect();
      return { drawer: drawer.scrollWidth - drawer.clientWidth, left: Math.round(box.left), height: Math.round(box.height) };
    });
    expect(layout.drawer).toBeLessThanOrEqual(0);
    expect(layout.left).toBeGreaterThanOrEqual(0);
    expect(layout.height).toBeGreaterThanOrEqual(48);
    expect(await card.innerText()).toMatch(/Progress: \d+ \/ \d+/);
    await card.click();
    await page.getByText('Batch progress').waitFor();
    expect(s.errors).toEqual([]);
  }, 120_000);
});

describe('batch operations on a phone, in Russian', () => {
  const s = suitePage(
    () => browser,
    () => server.url,
    async (page) => {
      await loginUi(page);
      await page.goto('/device/miner?i18n=ru');
      await page.getByTestId('data-table-row').first().waitFor();
    },
    { viewport: 'phone', locale: 'ru' },
  );

  const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  it('taps of at least 32 px; a sensitive op full screen, saying to bind an e-mail or phone first, with a link', async () => {
    const { page } = s;
    const boxes = page.getByTestId('data-table-row').locator('input[type="checkbox"]');
    await boxes.nth(0).check();
    for (const id of ['batch-menu', 'batch-upload', 'pool-config-open', 'batch-log-open']) {
      expect((await page.getByTestId(id).boundingBox())?.height ?? 0, id).toBeGreaterThanOrEqual(32);
    }
    await page.getByTestId('batch-menu').click();
    await page.getByTestId('batch-op-batchReset').click();
    await page.getByTestId('batch-code-step').waitFor();
    // The administrator has bound neither: the step says so instead of offering a send that can only fail.
    expect(await page.getByTestId('batch-code-unbound').innerText()).toContain('привяжите e-mail или номер телефона');
    expect(await page.getByTestId('batch-code-bind-link').getAttribute('href')).toBe('/user/center');
    const box = await page.locator('.mantine-Modal-content').boundingBox();
    expect(box?.width).toBe(360);
    expect((await page.locator('.mantine-Modal-close').boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(32);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.locator('.mantine-Modal-close').click();
    await page.locator('.mantine-Modal-content').waitFor({ state: 'detached' });
    expect(s.errors).toEqual([]);
  }, 60_000);

  it('set pools: the password\u2019s show/hide button a tap of at least 32 px, inside its field', async () => {
    const { page } = s;
    await page.getByTestId('batch-menu').click();
    await page.getByTestId('batch-op-batchSetPool').click();
    const toggle = page.locator('.mantine-Modal-content .mantine-PasswordInput-visibilityToggle').first();
    await toggle.waitFor();
    const button = await toggle.boundingBox();
    const field = await page.locator('.mantine-Modal-content .mantine-PasswordInput-input').first().boundingBox();
    expect(button?.width ?? 0).toBeGreaterThanOrEqual(32);
    expect(button?.height ?? 0).toBeGreaterThanOrEqual(32);
    expect(button && field && button.y >= field.y && button.y + button.height <= field.y + field.height && button.x + button.width <= field.x + field.width).toBe(true);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.locator('.mantine-Modal-close').click();
    await page.locator('.mantine-Modal-content').waitFor({ state: 'detached' });
    expect(s.errors).toEqual([]);
  }, 60_000);

  it('an emptied fan speed is required, never sent as 0 %', async () => {
    const { page } = s;
    let sent = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/minerv2/batchSetFans')) sent += 1;
    });
    await page.getByTestId('batch-menu').click();
    await page.getByTestId('batch-op-batchSetFans').click();
    await page.getByTestId('batch-field-fan-mode').click();
    await page.getByRole('option', { name: 'Вручную' }).click();
    await page.getByTestId('batch-field-percent').fill('');
    await page.getByTestId('batch-dialog-run').click();
    await page.getByText('Обязательное поле').waitFor();
    expect(sent).toBe(0);
    await page.locator('.mantine-Modal-close').click();
    await page.locator('.mantine-Modal-content').waitFor({ state: 'detached' });
  }, 60_000);

  it('an uploaded list with a long name: its name as written, counts in Russian plural forms, nothing past the screen', async () => {
    const { page } = s;
    const name = 'Стойка-7-ряд-3-нижние-полки-для-замены-блоков.txt';
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('batch-upload').click()]);
    await chooser.setFiles({ name, mimeType: 'text/plain', buffer: Buffer.from([minerIp(0), minerIp(1), minerIp(2)].join('\n')) });
    const chip = page.getByTestId('batch-uploaded');
    await chip.waitFor();
    expect(await chip.innerText()).toBe(`Список IP ${name}: 3 IP, 3 майнера`);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    expect(s.errors).toEqual([]);
  }, 60_000);
});
