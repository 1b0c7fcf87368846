/** User center (/user/center) at phone width: change password, bind e-mail, bind phone (spec 1 §2, spec 2 §5 messages). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN, launchBrowser, loginApi, loginUi, newContext, setupAdmin, trackPageErrors } from '../support/e2e-browser';
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

describe('user center', () => {
  it('changes the password, binds an e-mail and a phone, each with its messages (360 px)', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'phone' });
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await loginUi(page);
    await page.goto('/user/center');
    await page.getByTestId('user-center-page').waitFor();

    // Password: the confirmation is checked on the client, the current password on the server.
    const pwd = page.getByTestId('change-password-card');
    const newPassword = 'changed-pass-2';
    await pwd.getByLabel('Current password').fill('not-my-password');
    await pwd.getByLabel('New password').fill(newPassword);
    await pwd.getByLabel('Confirm password').fill('something-else');
    await pwd.getByRole('button', { name: 'Change password' }).click();
    await pwd.getByText('The passwords do not match').waitFor();
    await pwd.getByLabel('Confirm password').fill(newPassword);
    await pwd.getByRole('button', { name: 'Change password' }).click();
    await pwd.getByText('The current password is wrong').first().waitFor();
    await pwd.getByLabel('Current password').fill(ADMIN.password);
    await pwd.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Saved').first().waitFor();
    expect(await pwd.getByLabel('Current password').inputValue()).toBe(''); // the form is emptied
    // The new password is the one that logs in now, the old one no more.
    await loginApi(server.url, ADMIN.user, newPassword);
    await expect(loginApi(server.url, ADMIN.user, ADMIN.password)).rejects.toThrow();

    // E-mail: the format is refused with the spec's message; a good address is bound and shown.
    const email = page.getByTestId('bind-email-card');
    await email.getByText('No e-mail bound yet', { exact: false }).waitFor();
    await email.getByLabel('E-mail').fill('not-an-address');
    await email.getByRole('button', { name: 'Save' }).click();
    await email.getByText(/correctly formatted email address/i).waitFor();
    await email.getByLabel('E-mail').fill('ops@example.com');
    await email.getByRole('button', { name: 'Save' }).click();
    await email.getByText('Bound: ops@example.com').waitFor();

    // Phone: +86 is warned about SMS codes; another area code is not; the number's format is checked.
    const phone = page.getByTestId('bind-phone-card');
    await phone.getByText('Mainland-China (+86) numbers cannot receive SMS codes', { exact: false }).waitFor();
    await phone.getByLabel('Area code').fill('7');
    await phone.getByText('Mainland-China (+86)', { exact: false }).waitFor({ state: 'detached' });
    await phone.getByLabel('Phone number').fill('12');
    await phone.getByRole('button', { name: 'Save' }).click();
    await phone.getByText(/correctly formatted phone number/i).waitFor();
    await phone.getByLabel('Phone number').fill('9161234567');
    await phone.getByRole('button', { name: 'Save' }).click();
    await phone.getByText('Bound: +7 9161234567').waitFor();

    // Both stay bound after a reload (read from the server, not the form).
    await page.reload();
    await page.getByTestId('bind-email-card').getByText('Bound: ops@example.com').waitFor();
    await page.getByTestId('bind-phone-card').getByText('Bound: +7 9161234567').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
