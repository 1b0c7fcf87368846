/**
 * The add-farm wizard (/newMining) end to end.
 * Desktop: install guide → farm form (required-name message, then created on leaving the step) → the shown
 * agent command is run as a real agent process against a simulated fleet, the wizard sees it connect and
 * the first miners appear; an IP range added in the step (bad IP message first); leaving and coming back
 * resumes at the same step of the same farm; customers, pools, security (approver saved); finish.
 * Phone (360 px): the same wizard fits the width, the step title shows "Step n of 6", cancel leaves it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fleet, startFleet } from '@sim/fleet';
import type { ApprovalSetting } from '@shared/schemas/approvals';
import { type ApiSession, VIEWPORTS, launchBrowser, loginUi, newContext, setupAdmin, trackPageErrors } from '../support/e2e-browser';
import { type E2EServer, REPO_ROOT, startServer } from '../support/e2e-server';

const CIDR = '127.66.0.0/24';
const MINERS = 3;

let server: E2EServer;
let browser: Browser;
let api: ApiSession;
let fleet: Fleet;
let agent: ChildProcess | null = null;
let agentLog = '';
let dataDir = '';

beforeAll(async () => {
  fleet = await startFleet({ miners: MINERS, cidr: CIDR, rpcPort: 0, webPort: 0, whatsminerV3Port: 0, seed: 66, rebootDarkMs: 1500, tickMs: 250 });
  server = await startServer();
  api = await setupAdmin(server.url);
  browser = await launchBrowser();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hf-wizard-agent-'));
}, 180_000);

afterAll(async () => {
  if (agent && agent.exitCode === null) {
    agent.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
  }
  await browser?.close();
  await server?.close();
  await fleet?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the command the wizard shows (npm run agent -- …) as `node --import tsx src/agent/main.ts …`. */
function runAgentCommand(command: string): ChildProcess {
  const args = command.replace(/^npm run agent -- /, '').split(/\s+/);
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/agent/main.ts', ...args, '--data-dir', dataDir], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout?.on('data', (d: Buffer) => (agentLog += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (agentLog += d.toString()));
  return proc;
}

describe('add-farm wizard on a desktop', () => {
  let page: Page;
  let errors: Error[];
  const next = () => page.getByTestId('wizard-next').click();
  const title = () => page.getByTestId('wizard-step-title');

  beforeAll(async () => {
    const context = await newContext(browser, server.url, { viewport: 'desktop' });
    page = await context.newPage();
    errors = trackPageErrors(page);
    await loginUi(page);
  }, 60_000);
  afterAll(async () => page?.context().close());

  it('creates the farm on leaving the farm step', async () => {
    await page.goto('/newMining');
    await page.getByTestId('step-install').waitFor();
    await page.getByText('4 CPU cores, 16 GB RAM, 100 GB disk and 20 Mbit/s of bandwidth per 10,000 miners').waitFor();
    await expect(page.getByTestId('wizard-prev').isDisabled()).resolves.toBe(true);
    await next();
    await page.getByTestId('step-farm').waitFor();
    await next();
    await page.getByText('Farm name is required').waitFor();
    await page.locator('[name="agentName"]').fill('Wizard farm');
    await page.locator('[name="agentKey"]').fill('wizard-farm');
    await page.locator('[name="noticeEmails"]').fill('ops@example.com;bad');
    await next();
    await page.getByText('multiple emails separated by commas').waitFor();
    await page.locator('[name="noticeEmails"]').fill('ops@example.com');
    await next();
    await page.getByTestId('step-ip').waitFor();
    await expect(title().textContent()).resolves.toBe('IP range limit');
    expect(new URL(page.url()).searchParams.get('agentKey')).toBe('wizard-farm');
    const farms = await api.get<{ list: { agentKey: string }[] }>('/api/agent/pagelist', { page: 1, pageSize: 50 });
    expect(farms.list.map((f) => f.agentKey)).toContain('wizard-farm');
  });

  it('adds an IP range, and the agent started with the shown command connects and finds the miners', async () => {
    await page.locator('[name="ipBegin"]').fill('127.66.0.300');
    await page.locator('[name="ipEnd"]').fill('127.66.0.3');
    await page.getByTestId('ip-add').click();
    await page.getByText('Please enter a correct IP address').waitFor();
    await page.locator('[name="ipBegin"]').fill('127.66.0.1');
    await page.locator('[name="ipEnd"]').fill(`127.66.0.${MINERS}`);
    await page.locator('[name="remark"]').fill('test fleet');
    await page.getByTestId('ip-add').click();
    await page.getByTestId('ip-ranges').getByText('test fleet').waitFor();

    // The simulated fleet answers on its own ports: the farm's agent settings say which (as an operator would).
    await api.post('/api/agent/updateAgentSettings', {
      agentKey: 'wizard-farm',
      pollIntervalSec: 10,
      offlineAfterMissed: 3,
      packetSize: 10,
      pauseMs: 100,
      rpcPort: fleet.ports.rpc,
      webPort: fleet.ports.web,
      whatsminerV3Port: fleet.ports.whatsminerV3,
    });
    await expect(page.getByTestId('agent-online').textContent()).resolves.toBe('Waiting for the agent');
    const command = (await page.getByTestId('agent-command').textContent()) ?? '';
    expect(command).toMatch(new RegExp(`^npm run agent -- --server ${server.url.replace(/[.]/g, '\\.')} --key wizard-farm --secret \\S+$`));
    agent = runAgentCommand(command);
    try {
      await page.getByTestId('agent-online').getByText('Agent connected').waitFor({ timeout: 60_000 });
      await page.getByTestId('agent-miners').getByText(`${MINERS} miners found`).waitFor({ timeout: 90_000 });
    } catch (err) {
      throw new Error(`${String(err)}\nagent log:\n${agentLog}`, { cause: err });
    }
  }, 180_000);

  it('resumes at the same step of the same farm after leaving', async () => {
    await page.goto('/agents');
    await page.goto('/newMining');
    await page.getByTestId('wizard-resumed').getByText('Continuing the setup of wizard-farm at step 3.').waitFor();
    await page.getByTestId('step-ip').waitFor();
    // The secret was shown once: a resumed wizard offers a new one instead.
    await page.getByTestId('agent-rotate').waitFor();
    await page.getByTestId('ip-ranges').getByText('test fleet').waitFor();
  });

  it('walks customers, pools and security, then finishes', async () => {
    await next();
    await page.getByTestId('step-customers').waitFor();
    await page.getByTestId('customers-summary-empty').waitFor();
    await next();
    await page.getByTestId('step-pools').waitFor();
    await page.getByTestId('wizard-prev').click();
    await page.getByTestId('step-customers').waitFor();
    await next();
    await next();
    await page.getByTestId('step-security').waitFor();
    // The administrator has no e-mail yet: the server says so on the field.
    await page.getByTestId('security-approver').click();
    await page.getByRole('option', { name: /^admin/ }).click();
    await page.getByTestId('security-save').click();
    await page.getByText('the approver has no e-mail address; bind one in the user center first').waitFor();
    await api.post('/api/userv2/bindEmail', { email: 'admin@example.com' });
    await page.getByTestId('security-save').click();
    await page.locator('.mantine-Notification-root', { hasText: 'save success' }).waitFor();
    const setting = await api.get<ApprovalSetting>('/api/approval/setting', { agentKey: 'wizard-farm' });
    expect(setting.approverName).toBe('admin');
    await page.getByTestId('wizard-finish').click();
    await page.waitForURL('**/device/miner');
    // Finished: a new visit starts a new farm.
    await page.goto('/newMining');
    await page.getByTestId('step-install').waitFor();
    expect(await page.getByTestId('wizard-resumed').count()).toBe(0);
    // …or sets up the current farm: no farm step, the agent panel at once.
    await page.getByTestId('wizard-use-current').click();
    await page.getByTestId('agent-run-panel').getByText('Agent connected').waitFor();
    expect(await page.getByTestId('wizard-step-farm').count()).toBe(0);
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('step-ip').waitFor();
    expect(errors).toEqual([]);
  });
});

describe('add-farm wizard at 360 px', () => {
  it('fits the phone, shows the step count, creates the farm and cancels', async () => {
    const context = await newContext(browser, server.url, { viewport: 'phone' });
    const page = await context.newPage();
    await loginUi(page);
    await page.goto('/newMining');
    await page.getByTestId('wizard-step-title').getByText('Step 1 of 6: Agent install').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await page.getByTestId('wizard-next').click();
    await page.locator('[name="agentName"]').fill('Phone farm');
    await page.locator('[name="agentKey"]').fill('phone-farm');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-step-title').getByText('Step 3 of 6: IP range limit').waitFor();
    await page.getByTestId('agent-command').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    // The "farm created" toast sits over the bottom buttons on a phone (and stays while touched): close it.
    await page.locator('.mantine-Notification-root').getByRole('button').first().click();
    await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached' });
    await page.getByTestId('wizard-cancel').click();
    await page.getByText('The farm phone-farm stays; you can finish its setup later from here.').waitFor();
    await page.getByTestId('wizard-cancel-confirm').click();
    await page.waitForURL('**/agents');
    await context.close();
  }, 120_000);
});
