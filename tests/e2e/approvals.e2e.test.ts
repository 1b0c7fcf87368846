/**
 * Batch pool-setting approval end to end: an operator's batch pool setting waits for the approver; the
 * approval e-mail (caught by a local SMTP sink) links through /email to /poolApproval; the approver sees
 * the read-only request, agrees after the once-only confirmation, and the task reaches the agent queue;
 * both buttons stay disabled. At 360 px a second request is disagreed and nothing is queued.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_UPLINK_PREFIX, type AgentTask, type SnapshotBatch, agentAuthorization } from '@shared/schemas/agent-uplink';
import type { ApprovalPendingResult } from '@shared/schemas/approvals';
import { type ApiSession, VIEWPORTS, launchBrowser, loginApi, loginUi, newContext, setupAdmin, trackPageErrors } from '../support/e2e-browser';
import { type E2EServer, startServer } from '../support/e2e-server';
import { minerIp, minerSnapshot, uploadBatch } from '../support/miner-snapshots';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

const FARM = 'appr-farm';
const PASSWORD = 'member-pass-1';

let server: E2EServer;
let browser: Browser;
let admin: ApiSession;
/** One operator per request: a user may ask for one verification code a minute. */
const ops: ApiSession[] = [];
let smtp: SmtpSink;
let secret = '';
const mails: string[] = [];

const decodeQp = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

async function waitMail(before: number): Promise<string> {
  for (let i = 0; i < 200 && mails.length === before; i += 1) await new Promise((r) => setTimeout(r, 25));
  expect(mails.length).toBeGreaterThan(before);
  return decodeQp(mails.at(-1)!);
}

const agentTasks = async () => {
  const res = await fetch(`${server.url}${AGENT_UPLINK_PREFIX}/tasks`, { headers: { authorization: agentAuthorization(FARM, secret) } });
  return ((await res.json()) as { data: AgentTask[] }).data;
};

/** The operator asks for a pool setting on two miners; answers the pending request and the approval link from the e-mail. */
async function requestPoolSetting(n: number): Promise<{ pending: ApprovalPendingResult; link: string }> {
  const op = ops[n]!;
  let before = mails.length;
  await op.post('/api/minerv2/sendCode', { channel: 'email' });
  const code = /\b(\d{6})\b/.exec(await waitMail(before))![1]!;
  before = mails.length;
  const pending = await op.post<ApprovalPendingResult>('/api/minerv2/batchSetPool', {
    agentKey: FARM,
    ips: `${minerIp(0)},${minerIp(1)}`,
    pool1Url: 'stratum+tcp://btc.pool.example:3333',
    pool1User: 'hoster',
    workerSuffix: 'sn',
    code,
  });
  const mail = await waitMail(before);
  expect(mail).toContain('boss@hashfield.test');
  const link = /(http:\/\/\S+\/email\?redirect=\S+)/.exec(mail)![1]!;
  return { pending, link };
}

beforeAll(async () => {
  smtp = await startSmtpSink(mails);
  server = await startServer({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Hashfield <approvals@hashfield.test>' } });
  admin = await setupAdmin(server.url);
  secret = (await admin.post<{ secret: string }>('/api/agent/createv2', { agentName: 'Approval farm', agentKey: FARM, noticeEmails: '', agentAddr: '', selfManaged: false })).secret;
  const takenAt = new Date().toISOString();
  const batch: SnapshotBatch = { agentVersion: '1.4.2', batchSeq: 1, cycleStartedAt: takenAt, cycleDurationMs: 5000, snapshots: Array.from({ length: 4 }, (_, i) => minerSnapshot(i, { takenAt })) };
  await uploadBatch(server.url, FARM, secret, batch);
  const opsRole = await admin.post<{ id: string }>('/api/role/save', { name: 'Operations', permissions: '10000,10500' });
  const viewRole = await admin.post<{ id: string }>('/api/role/save', { name: 'Approvers', permissions: '10000' });
  for (const n of [1, 2, 3]) await admin.post('/api/user/save', { user: `ops${n}`, password: PASSWORD, roleId: opsRole.id, agentKeys: FARM, email: `ops${n}@hashfield.test` });
  const boss = await admin.post<{ id: string }>('/api/user/save', { user: 'boss', password: PASSWORD, roleId: viewRole.id, agentKeys: FARM, email: 'boss@hashfield.test' });
  await admin.post('/api/approval/setting', { agentKey: FARM, approverId: boss.id, roleIds: opsRole.id });
  for (const n of [1, 2, 3]) ops.push(await loginApi(server.url, `ops${n}`, PASSWORD));
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await smtp.close();
});

async function openFromMail(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await page.getByTestId('email-page').waitFor();
  await page.getByRole('link', { name: 'Open the console' }).click();
  await page.getByTestId('approval-status').waitFor();
}

describe('pool-setting approval page', () => {
  it('opens from the e-mail, agrees once, and the batch reaches the agent', async () => {
    const { pending, link } = await requestPoolSetting(0);
    expect(pending).toMatchObject({ pending: true, type: 'pool', ipLen: 2 });
    expect(await agentTasks()).toEqual([]);

    const context = await newContext(browser, server.url, { viewport: 'desktop' });
    const page = await context.newPage();
    const errors = trackPageErrors(page);
    await loginUi(page, 'boss', PASSWORD);
    await openFromMail(page, link);
    expect(new URL(page.url()).pathname).toBe('/poolApproval');
    expect(new URL(page.url()).searchParams.get('uuid')).toBe(pending.uuid);
    await expect(page.getByTestId('approval-status').textContent()).resolves.toBe('Waiting for approval');
    await expect(page.getByTestId('approval-role').inputValue()).resolves.toBe('Operations');
    await expect(page.getByTestId('approval-farm').inputValue()).resolves.toBe('Approval farm');
    await expect(page.getByTestId('approval-total').inputValue()).resolves.toBe('2');
    await page.getByTestId('approval-pools').getByText('stratum+tcp://btc.pool.example:3333').waitFor();

    await page.getByTestId('approval-agree').click();
    await page.getByText('This action can only be done once').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Agree' }).click();
    await page.locator('.mantine-Notification-root', { hasText: 'operation successful' }).waitFor();
    await expect(page.getByTestId('approval-agree').isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('approval-disagree').isDisabled()).resolves.toBe(true);
    await page.getByTestId('approval-status').getByText('Agreed').waitFor();

    const tasks = await agentTasks();
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ op: 'set-pools', params: { workerSuffix: 'sn' } });
    expect(tasks[0]!.targets.map((x) => x.ip)).toEqual([minerIp(0), minerIp(1)]);

    // Reopened later: still decided, buttons disabled.
    await page.reload();
    await page.getByTestId('approval-outcome').waitFor();
    await expect(page.getByTestId('approval-agree').isDisabled()).resolves.toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('at 360 px: disagree once, nothing queued; a decided request answers its message', async () => {
    const before = (await agentTasks()).length;
    const { pending, link } = await requestPoolSetting(1);
    const context = await newContext(browser, server.url, { viewport: 'phone' });
    const page = await context.newPage();
    await loginUi(page, 'boss', PASSWORD);
    await openFromMail(page, link);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await page.getByTestId('approval-disagree').click();
    await page.getByText('This action can only be done once').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Disagree' }).click();
    await page.getByTestId('approval-status').getByText('Disagreed').waitFor();
    await expect(page.getByTestId('approval-agree').isDisabled()).resolves.toBe(true);
    expect((await agentTasks()).length).toBe(before);
    // The API refuses a second decision with code -1 and its message.
    const boss = await loginApi(server.url, 'boss', PASSWORD);
    await expect(boss.get('/api/minerv2/agreeMinerBatchSetPool', { uuid: pending.uuid })).rejects.toThrow('it can be agreed or disagreed only once');

    // A third request decided elsewhere while the page is open: the click shows the code -1 message.
    const third = await requestPoolSetting(2);
    await page.goto(new URL(third.link).searchParams.get('redirect')!);
    await page.getByTestId('approval-agree').waitFor();
    await boss.get('/api/minerv2/disagreeMinerBatchSetPool', { uuid: third.pending.uuid });
    await page.getByTestId('approval-agree').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Agree' }).click();
    await page.locator('.mantine-Notification-root', { hasText: 'it can be agreed or disagreed only once' }).waitFor();
    await expect(page.getByTestId('approval-disagree').isDisabled()).resolves.toBe(true);
    expect((await agentTasks()).length).toBe(before);
    await context.close();
  });
});
