/** Language: switcher changes the visible text, the choice survives reload, ?i18n= wins (spec 1 §1). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, loginUi, newContext, setupAdmin } from '../support/e2e-browser';
import { startServer, type E2EServer } from '../support/e2e-server';

let server: E2EServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  await setupAdmin(server.url);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('language', () => {
  for (const viewport of ['desktop', 'phone'] as const) {
    it(`switches language and keeps it after reload (${viewport})`, async () => {
      const ctx = await newContext(browser, server.url, { viewport, locale: 'en-US' });
      const page = await ctx.newPage();
      await loginUi(page);
      await page.getByText('No farm yet').waitFor();
      if (viewport === 'phone') await page.getByTestId('sidebar-burger').click();
      await page.getByTestId('language-switcher').last().click();
      await page.locator('[data-locale="ru"]').click();
      await page.getByText('Пока нет ферм').waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('ru');
      await page.reload();
      await page.getByText('Пока нет ферм').waitFor();
      if (viewport === 'phone') await page.getByTestId('sidebar-burger').click();
      await page.getByTestId('language-switcher').last().click();
      await page.locator('[data-locale="zh-CN"]').click();
      await page.getByText('还没有矿场').waitFor();
      await ctx.close();
    });
  }

  it('uses the browser language first, and ?i18n= beats the stored choice; the password toggle is labelled in it', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'desktop', locale: 'ru-RU' });
    const page = await ctx.newPage();
    // Mantine labels the password field's show/hide button in English unless told otherwise (screen readers read it).
    const toggle = (name: string) => page.getByRole('button', { name, exact: true }).waitFor({ state: 'attached' });
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Вход' }).waitFor();
    await toggle('Показать или скрыть пароль');
    await page.evaluate(() => localStorage.setItem('hf.locale', 'zh-CN'));
    await page.reload();
    await page.getByRole('heading', { name: '登录' }).waitFor();
    await toggle('显示或隐藏密码');
    await page.goto('/login?i18n=en-US');
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await toggle('Show or hide the password');
    await page.goto('/login?i18n=ru');
    await page.getByRole('heading', { name: 'Вход' }).waitFor();
    await ctx.close();
  });
});
