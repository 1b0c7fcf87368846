/** Notification bell: badge, paged panel, open = read + notice dialog, read all (spec 1 §2.2, §4; spec 2 §3). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { CurrentUser } from '@shared/schemas/auth';
import { launchBrowser, loginUi, newContext, setupAdmin } from '../support/e2e-browser';
import { startServer, type E2EServer } from '../support/e2e-server';
import { seedNotifications } from '../support/e2e-seed';

let server: E2EServer;
let browser: Browser;

const domainContent = JSON.stringify([
  { subId: 'A-1', ip: '10.0.0.21', sn: 'SN0000000000000A1', customer: 'Acme', publishTime: '2026-11-20 08:00:00' },
  { subId: 'A-2', ip: '10.0.0.22', sn: 'SN0000000000000A2', customer: 'Acme', publishTime: '2026-11-20 08:01:00' },
]);
const tempContent = JSON.stringify({
  agentKey: 'north',
  agentName: 'North Hall',
  illegalTemps: [{ deviceName: 'Sensor T1', type: 'temperature', value: '43.5', unit: '°C', time: '2026-11-20 09:00:00' }],
  illegalHumids: [{ deviceName: 'Sensor H1', type: 'humidity', value: '71', unit: '%', time: '2026-11-20 09:00:00' }],
});

beforeAll(async () => {
  server = await startServer();
  const api = await setupAdmin(server.url);
  const me = await api.get<CurrentUser>('/api/userv2/userCurrent');
  const notices = [
    { type: 'domain', title: 'Unexpected pool domain', content: domainContent, summary: JSON.stringify({ agentName: 'North Hall', agentKey: 'north', publishTime: '2026-11-20 08:00:00', count: 2 }) },
    { type: 'temp_humid_warning', title: 'Hot aisle', content: tempContent },
    ...Array.from({ length: 10 }, (_, i) => ({ type: 'announcement', title: `Maintenance window ${i + 1}`, content: `Planned maintenance number ${i + 1}.` })),
  ];
  await seedNotifications(server, me.id, notices);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function badgeText(page: Page): Promise<string> {
  return (await page.getByTestId('unread-badge').locator('.mantine-Indicator-indicator').textContent({ timeout: 2000 }).catch(() => ''))?.trim() ?? '';
}

describe('notifications', () => {
  it('pages the panel 5 at a time to the end, opens notices as read, reads all (1440 px)', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'desktop' });
    const page = await ctx.newPage();
    const pageRequests: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === '/api/notification/pagelist') pageRequests.push(`${u.searchParams.get('page')}:${u.searchParams.get('pageSize')}`);
    });
    await loginUi(page);
    await expect.poll(() => badgeText(page), { timeout: 15_000 }).toBe('12');
    expect(await page.getByTestId('unread-badge').getAttribute('data-compact')).toBeNull();

    await page.getByTestId('notification-bell').click();
    const panel = page.getByTestId('notification-panel');
    await panel.waitFor();
    const box = await panel.boundingBox();
    expect(box?.width).toBe(300);
    expect(box?.height).toBe(300);
    await expect.poll(() => page.getByTestId('notice-item').count(), { timeout: 10_000 }).toBe(5);
    // Scrolling to the end (infinite list) fetches the next 5 …
    const viewport = page.getByTestId('notice-list').locator('.mantine-ScrollArea-viewport');
    await viewport.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(() => page.getByTestId('notice-item').count(), { timeout: 10_000 }).toBe(10);
    // … and so does "Load more", once the list has settled (the page landed, the button is back and enabled). It is
    // pressed from the keyboard where it is: scrolling it into view would itself load the next page (the infinite
    // list) and the new rows would push the button from under a pointer click (the old flake: "<html> intercepts
    // pointer events" while the list re-rendered).
    const loadMore = page.getByTestId('notice-load-more');
    await loadMore.waitFor();
    await expect.poll(() => loadMore.isEnabled(), { timeout: 10_000 }).toBe(true);
    await loadMore.evaluate((el) => (el as HTMLElement).focus({ preventScroll: true }));
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('notice-item').count(), { timeout: 10_000 }).toBe(12);
    expect(pageRequests.sort()).toEqual(['1:5', '2:5', '3:5']);
    await page.getByTestId('notice-no-more').waitFor();
    expect(await page.getByTestId('notice-no-more').textContent()).toBe('No more data');

    // Open the domain notice (the oldest): a table of the devices, and it becomes read.
    await page.getByTestId('notice-item').filter({ hasText: 'Unexpected pool domain' }).click();
    const dialog = page.locator('.mantine-Modal-content');
    await dialog.getByText('SN0000000000000A2').waitFor();
    const width = (await dialog.boundingBox())?.width ?? 0;
    expect(width).toBeGreaterThan(700);
    expect(width).toBeLessThanOrEqual(720);
    await page.keyboard.press('Escape');
    await expect.poll(() => badgeText(page), { timeout: 10_000 }).toBe('11');

    // Temperature/humidity notice renders its two tables.
    await page.getByTestId('notification-bell').click();
    await expect.poll(() => page.getByTestId('notice-item').count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(5);
    await page.getByTestId('notice-list').locator('.mantine-ScrollArea-viewport').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.getByTestId('notice-item').filter({ hasText: 'Hot aisle' }).click();
    await page.locator('.mantine-Modal-content').getByText('Sensor H1').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => badgeText(page), { timeout: 10_000 }).toBe('10');

    // A generic notice: title, content, publish time.
    await page.getByTestId('notification-bell').click();
    await page.getByTestId('notice-item').filter({ hasText: 'Maintenance window 10' }).click();
    await page.getByTestId('notice-content').getByText('Planned maintenance number 10.').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => badgeText(page), { timeout: 10_000 }).toBe('9');
    // Below 10 the badge uses its compact style.
    expect(await page.getByTestId('unread-badge').getAttribute('data-compact')).toBe('true');

    await page.getByTestId('notification-bell').click();
    await page.getByTestId('notice-read-all').click();
    await expect.poll(() => badgeText(page), { timeout: 10_000 }).toBe('');
    await ctx.close();
  });

  it('the bell and its panel work at 360 px', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'phone' });
    const page = await ctx.newPage();
    await loginUi(page);
    await page.getByTestId('notification-bell').click();
    await page.getByTestId('notification-panel').waitFor();
    await expect.poll(() => page.getByTestId('notice-item').count(), { timeout: 10_000 }).toBe(5);
    const box = await page.getByTestId('notification-panel').boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 360).toBe(true);
    await ctx.close();
  });
});
