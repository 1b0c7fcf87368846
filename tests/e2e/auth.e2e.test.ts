/** Set-up, login, wrong password, rate limit, login-error codes 1/2/3/other (spec 1 §2.1, §8). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN, launchBrowser, loginUi, newContext, trackPageErrors } from '../support/e2e-browser';
import { startServer, type E2EServer } from '../support/e2e-server';

let server: E2EServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ env: { LOGIN_RATE_MAX: '3' } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('first start and login', () => {
  it('sends a fresh install to set-up, creates the administrator and opens the console (360 px)', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'phone' });
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await page.goto('/');
    await page.getByTestId('setup-page').waitFor();
    expect(new URL(page.url()).pathname).toBe('/setup');
    // Mismatching confirmation is refused on the client.
    await page.locator('input[name="user"]').fill(ADMIN.user);
    await page.locator('input[name="password"]').fill(ADMIN.password);
    await page.locator('input[name="confirm"]').fill('something-else');
    await page.getByRole('button', { name: 'Create and log in' }).click();
    await page.getByText('The passwords do not match').waitFor();
    await page.locator('input[name="confirm"]').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Create and log in' }).click();
    await page.getByTestId('app-shell').waitFor();
    await page.getByTestId('dashboard-empty').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    // Set-up is not offered again.
    await page.goto('/setup');
    await page.waitForURL('**/login');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('shows the login page without a session and logs in (1440 px)', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'desktop' });
    const page = await ctx.newPage();
    await page.goto('/agents');
    await page.getByTestId('login-page').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.locator('input[name="user"]').fill(ADMIN.user);
    await page.locator('input[name="password"]').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    // Back where the user was sent from.
    await page.waitForURL('**/agents');
    await page.getByTestId('app-shell').waitFor();
    // Logout goes to the address the server answers.
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-logout').click();
    await page.getByTestId('login-page').waitFor();
    await page.goto('/');
    await page.getByTestId('login-page').waitFor();
    await ctx.close();
  });

  it('shows the server message for a wrong password, then the rate-limit message', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'desktop' });
    const page = await ctx.newPage();
    await page.goto('/login');
    await page.locator('input[name="user"]').fill('nobody-here');
    await page.locator('input[name="password"]').fill('wrong-password');
    await page.getByTestId('login-submit').click();
    const alert = page.getByTestId('login-error');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Wrong user name or password');
    for (let i = 0; i < 3; i++) {
      await page.getByTestId('login-submit').click();
      await page.waitForTimeout(300);
    }
    await page.getByText('Too many login attempts').waitFor({ timeout: 10_000 });
    await ctx.close();
  });

  it('login with the right password works at 360 px', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'phone' });
    const page = await ctx.newPage();
    await loginUi(page);
    expect(await page.getByTestId('sidebar-burger').isVisible()).toBe(true);
    await ctx.close();
  });
});

describe('login-error page', () => {
  const cases: [string, string, boolean][] = [
    ['1', 'Contact the system administrator to change your login information.', false],
    ['2', 'Bind an e-mail address in the user center first.', true],
    ['3', 'Bind a phone number in the user center first.', true],
    ['9', 'Server error. Try again later.', false],
    ['', 'Server error. Try again later.', false],
  ];
  for (const [code, text, jump] of cases) {
    it(`code "${code}" shows its message${jump ? ' and the jump-now button' : ''}`, async () => {
      const ctx = await newContext(browser, server.url, { viewport: 'phone' });
      const page = await ctx.newPage();
      await page.goto(`/loginError?code=${code}`);
      const message = page.getByTestId('login-error-message');
      await message.waitFor();
      expect((await message.textContent())?.trim()).toBe(text);
      expect(await page.getByTestId('login-error-jump').count()).toBe(jump ? 1 : 0);
      await ctx.close();
    });
  }

  it('jump now opens the user center in a new window; regaining focus logs in again and goes to /', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'desktop' });
    const page = await ctx.newPage();
    await loginUi(page);
    await page.goto('/loginError?code=2');
    const [popup] = await Promise.all([ctx.waitForEvent('page'), page.getByTestId('login-error-jump').click()]);
    await popup.waitForLoadState();
    expect(new URL(popup.url()).pathname).toBe('/user/center');
    await popup.getByTestId('bind-email-card').waitFor().catch(async (err: unknown) => {
      await popup.screenshot({ path: '/tmp/e2e-popup-failure.png' });
      throw err;
    });
    await popup.close();
    await page.bringToFront();
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByTestId('app-shell').waitFor();
    await ctx.close();
  });
});
