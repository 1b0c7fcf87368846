/**
 * Batch pool-setting approval: the farm's approval setting (validation, permission), a pool setting by a
 * role needing approval stored pending with nothing queued for the agent, the approver's e-mail (read from
 * a local SMTP sink) with the link to the approval page, getPoolConfInfo for the approver / applicant /
 * others (code -1), agree → one task the agent pulls, disagree → nothing, one-shot (code -1 afterwards),
 * firmware upgrades (type upload), and the users and farms that need no approval.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_UPLINK_PREFIX, type AgentTask, type SnapshotBatch, agentAuthorization } from '@shared/schemas/agent-uplink';
import type { ApprovalDecisionResult, ApprovalPendingResult, ApprovalSetting, PoolConfInfo } from '@shared/schemas/approvals';
import type { BatchQueuedResult } from '@shared/schemas/batch-operations';
import { minerIp, minerSnapshot } from '../support/miner-snapshots';
import { type Client, type TestApp, body, createFarm, createMember, createTestApp, setupAdmin, uploadBatch } from './harness';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

const KEY = 'appr-a';
const OTHER = 'appr-b';
const POOLS = { pool1Url: 'stratum+tcp://btc.pool.example:3333', pool1User: 'hoster', pool2Url: 'stratum+tcp://btc.backup.example:443', pool2User: 'hoster2', workerSuffix: 'ip' };

describe('batch pool-setting approval', () => {
  let t: TestApp;
  let admin: Client;
  let farm: { agentKey: string; secret: string };
  let smtp: SmtpSink;
  const mails: string[] = [];
  let approver: { client: Client; userId: string; roleId: string };
  let ops: { client: Client; userId: string; roleId: string };
  let stranger: { client: Client; userId: string; roleId: string };

  const count = async (table: 'agent_tasks' | 'pool_approvals') => Number((await t.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const agentTasks = async () =>
    body<AgentTask[]>(await t.app.inject({ method: 'GET', url: `${AGENT_UPLINK_PREFIX}/tasks`, headers: { authorization: agentAuthorization(farm.agentKey, farm.secret) } })).data;
  const waitMail = async (before: number) => {
    for (let i = 0; i < 150 && mails.length === before; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(mails.length).toBeGreaterThan(before);
    return mails.at(-1)!;
  };
  const mailCode = async (c: Client) => {
    await t.db.deleteFrom('rate_limit_hits').execute();
    const before = mails.length;
    const res = await c.post('/api/minerv2/sendCode', { channel: 'email' });
    expect(res.statusCode, res.body).toBe(200);
    const m = /\b(\d{6})\b/.exec(await waitMail(before));
    return m![1]!;
  };
  /** Quoted-printable soft breaks and escapes undone, so a long link reads whole. */
  const decodeQp = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  const requestPools = async (ips: string) => {
    const code = await mailCode(ops.client);
    const before = mails.length;
    const res = await ops.client.post('/api/minerv2/batchSetPool', { agentKey: KEY, ips, ...POOLS, code });
    expect(res.statusCode, res.body).toBe(200);
    return { result: body<ApprovalPendingResult>(res).data, mail: decodeQp(await waitMail(before)) };
  };

  beforeAll(async () => {
    smtp = await startSmtpSink(mails);
    t = await createTestApp({ smtpUrl: smtp.url, mailFrom: 'Hashfield <approvals@hashfield.test>' });
    admin = await setupAdmin(t.app);
    farm = await createFarm(admin, KEY);
    await createFarm(admin, OTHER);
    const takenAt = new Date().toISOString();
    const batch: SnapshotBatch = {
      agentVersion: '1.4.2',
      batchSeq: 1,
      cycleStartedAt: takenAt,
      cycleDurationMs: 5000,
      snapshots: Array.from({ length: 6 }, (_, i) => minerSnapshot(i, { takenAt })),
    };
    const up = await uploadBatch(t.app, farm, batch);
    expect(up.statusCode, up.body).toBe(200);
    approver = await createMember(admin, 'approver', [10000], [KEY]);
    ops = await createMember(admin, 'operator', [10000, 10500], [KEY]);
    stranger = await createMember(admin, 'stranger', [10000, 10500], [KEY]);
    expect((await ops.client.post('/api/userv2/bindEmail', { email: 'ops@hashfield.test' })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('validates the approval setting and saves nothing on bad input', async () => {
    const set = (payload: Record<string, unknown>, c: Client = admin) => c.post('/api/approval/setting', { agentKey: KEY, ...payload });
    const noMail = await set({ approverId: approver.userId, roleIds: ops.roleId });
    expect(noMail.statusCode).toBe(400);
    expect(body(noMail).msg).toBe('the approver has no e-mail address; bind one in the user center first');
    expect((await approver.client.post('/api/userv2/bindEmail', { email: 'boss@hashfield.test' })).statusCode).toBe(200);
    const outsider = await createMember(admin, 'outsider', [10000], [OTHER]);
    await outsider.client.post('/api/userv2/bindEmail', { email: 'out@hashfield.test' });
    expect(body(await set({ approverId: outsider.userId, roleIds: ops.roleId })).msg).toBe('choose an approver who is a member of this farm');
    expect((await set({ approverId: approver.userId, roleIds: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(400);
    expect((await set({ approverId: 'nope', roleIds: ops.roleId })).statusCode).toBe(400);
    expect(body(await set({})).msg).toBe('choose an approver who is a member of this farm');
    expect(body<ApprovalSetting>(await admin.get('/api/approval/setting', { agentKey: KEY })).data).toMatchObject({ approverId: null, roleIds: [] });
    // The farm-settings operation key is needed; an approver of another farm cannot be set from it.
    expect((await set({ approverId: approver.userId, roleIds: ops.roleId }, ops.client)).statusCode).toBe(403);

    const ok = await set({ approverId: approver.userId, roleIds: ops.roleId });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(body<ApprovalSetting>(ok).data).toEqual({ agentKey: KEY, approverId: approver.userId, approverName: 'approver', roleIds: [ops.roleId] });
  });

  it('stores a pool setting of a listed role pending, queues nothing and mails the approver a link', async () => {
    const tasksBefore = await count('agent_tasks');
    const missing = await ops.client.post('/api/minerv2/batchSetPool', { agentKey: KEY, ips: minerIp(0), ...POOLS });
    expect(body(missing).msg).toBe('Please enter the verification code');
    expect(await count('pool_approvals')).toBe(0);

    const { result, mail } = await requestPools(`${minerIp(0)},${minerIp(1)},10.9.9.9`);
    expect(result).toMatchObject({ pending: true, type: 'pool', approver: 'b***@hashfield.test', ipLen: 3, taskId: null, queued: 0 });
    expect(await count('agent_tasks')).toBe(tasksBefore);
    expect(await agentTasks()).toEqual([]);
    expect(mail).toContain('boss@hashfield.test');
    expect(mail).toContain('operator (role-operator) asks for a batch pool setting on 3 miners of the farm Farm appr-a');
    const link = /(http:\/\/[^\s]+\/email\?redirect=[^\s]+)/.exec(mail)?.[1];
    expect(link).toBeDefined();
    const redirect = decodeURIComponent(new URL(link!).searchParams.get('redirect') ?? '');
    expect(redirect).toBe(`/poolApproval?uuid=${result.uuid}&type=pool`);

    const info = body<PoolConfInfo>(await approver.client.get('/api/minerv2/getPoolConfInfo', { uuid: result.uuid })).data;
    expect(info).toMatchObject({
      type: 'pool',
      status: 'pending',
      initiatorRole: 'role-operator',
      initiator: 'operator',
      agentName: 'Farm appr-a',
      poolConfig: 'ip',
      poolGroupInfo: { Pool1Url: POOLS.pool1Url, Pool1User: 'hoster', Pool1Suffix: 'ip', Pool2Url: POOLS.pool2Url, Pool2User: 'hoster2', Pool3Url: '', Pool3Suffix: '' },
      fileUrl: null,
      ipLen: 3,
      canDecide: true,
    });
    expect(body<PoolConfInfo>(await ops.client.get('/api/minerv2/getPoolConfInfo', { uuid: result.uuid })).data.canDecide).toBe(false);
    const other = await stranger.client.get('/api/minerv2/getPoolConfInfo', { uuid: result.uuid });
    expect(other.statusCode).toBe(403);
    expect(body(other)).toMatchObject({ code: -1, msg: 'Only the approver of this request can see or decide it' });
    const unknown = await approver.client.get('/api/minerv2/getPoolConfInfo', { uuid: '00000000-0000-4000-8000-000000000000' });
    expect(body(unknown)).toMatchObject({ code: -1, msg: 'This approval request does not exist' });
    expect((await approver.client.get('/api/minerv2/getPoolConfInfo', { uuid: 'abc' })).statusCode).toBe(400);

    // The applicant cannot agree to their own request.
    const self = await ops.client.get('/api/minerv2/agreeMinerBatchSetPool', { uuid: result.uuid });
    expect(body(self).code).toBe(-1);
    expect(await count('agent_tasks')).toBe(tasksBefore);

    // Agree: one task queued for the agent, in the applicant's name; once only.
    const agree = await approver.client.get('/api/minerv2/agreeMinerBatchSetPool', { uuid: result.uuid });
    expect(agree.statusCode, agree.body).toBe(200);
    const decided = body<ApprovalDecisionResult>(agree).data;
    expect(decided).toMatchObject({ status: 'agreed', queued: 2, refused: [{ ip: '10.9.9.9', reason: 'not-found' }] });
    const pulled = (await agentTasks()).find((x) => x.id === decided.taskId);
    expect(pulled).toMatchObject({ op: 'set-pools', params: { workerSuffix: 'ip' } });
    expect(pulled!.targets.map((x) => x.ip)).toEqual([minerIp(0), minerIp(1)]);
    const task = await t.db.selectFrom('agent_tasks').select(['created_by', 'batch_op']).where('id', '=', decided.taskId!).executeTakeFirstOrThrow();
    expect(task).toEqual({ created_by: ops.userId, batch_op: 'batchSetPool' });
    for (const path of ['agreeMinerBatchSetPool', 'disagreeMinerBatchSetPool']) {
      const again = await approver.client.get(`/api/minerv2/${path}`, { uuid: result.uuid });
      expect(body(again)).toMatchObject({ code: -1, msg: 'This request has already been decided; it can be agreed or disagreed only once' });
    }
    expect(await count('agent_tasks')).toBe(tasksBefore + 1);
    expect(body<PoolConfInfo>(await approver.client.get('/api/minerv2/getPoolConfInfo', { uuid: result.uuid })).data).toMatchObject({
      status: 'agreed',
      decidedBy: 'approver',
      taskId: decided.taskId,
      canDecide: false,
    });
  });

  it('disagree ends a request with nothing queued; agree afterwards is refused', async () => {
    const tasksBefore = await count('agent_tasks');
    const { result } = await requestPools(minerIp(2));
    const no = await approver.client.get('/api/minerv2/disagreeMinerBatchSetPool', { uuid: result.uuid });
    expect(no.statusCode, no.body).toBe(200);
    expect(body<ApprovalDecisionResult>(no).data).toEqual({ status: 'disagreed', taskId: null, queued: 0, refused: [] });
    expect(body(await approver.client.get('/api/minerv2/agreeMinerBatchSetPool', { uuid: result.uuid })).code).toBe(-1);
    expect(await count('agent_tasks')).toBe(tasksBefore);
    expect(await agentTasks()).toHaveLength(1); // only the earlier agreed batch
  });

  it('two simultaneous decisions: exactly one wins', async () => {
    const { result } = await requestPools(minerIp(3));
    const [a, b] = await Promise.all([
      approver.client.get('/api/minerv2/agreeMinerBatchSetPool', { uuid: result.uuid }),
      admin.get('/api/minerv2/disagreeMinerBatchSetPool', { uuid: result.uuid }),
    ]);
    expect([body(a).code, body(b).code].sort()).toEqual([-1, 0]);
  });

  it('asks approval for firmware upgrades too (type upload, with the firmware link)', async () => {
    const code = await mailCode(ops.client);
    const before = mails.length;
    const res = await ops.client.post('/api/minerv2/batchUpgrade', { agentKey: KEY, ips: minerIp(4), fileUrl: 'https://fw.example/s19.tar.gz', code });
    const pending = body<ApprovalPendingResult>(res).data;
    expect(pending).toMatchObject({ pending: true, type: 'upload' });
    expect(decodeQp(await waitMail(before))).toContain(encodeURIComponent(`/poolApproval?uuid=${pending.uuid}&type=upload`));
    const info = body<PoolConfInfo>(await approver.client.get('/api/minerv2/getPoolConfInfo', { uuid: pending.uuid })).data;
    expect(info).toMatchObject({ type: 'upload', fileUrl: 'https://fw.example/s19.tar.gz', poolGroupInfo: null, ipLen: 1 });
  });

  it('needs no approval from administrators, unlisted roles, or once the setting is off', async () => {
    const before = await count('pool_approvals');
    const direct = await admin.post('/api/userv2/bindEmail', { email: 'admin@hashfield.test' });
    expect(direct.statusCode).toBe(200);
    const adminRun = await admin.post('/api/minerv2/batchSetPool', { agentKey: KEY, ips: minerIp(5), ...POOLS, code: await mailCode(admin) });
    expect(body<BatchQueuedResult>(adminRun).data.queued).toBe(1);
    expect(await count('pool_approvals')).toBe(before);
    // An unlisted role (stranger) runs directly.
    await stranger.client.post('/api/userv2/bindEmail', { email: 'str@hashfield.test' });
    const s = await stranger.client.post('/api/minerv2/batchSetPool', { agentKey: KEY, ips: minerIp(5), ...POOLS, code: await mailCode(stranger.client) });
    expect(body<BatchQueuedResult>(s).data.queued).toBe(1);
    expect(await count('pool_approvals')).toBe(before);
    // Approval off: the operator runs directly.
    expect((await admin.post('/api/approval/setting', { agentKey: KEY, approverId: '', roleIds: '' })).statusCode).toBe(200);
    const o = await ops.client.post('/api/minerv2/batchSetPool', { agentKey: KEY, ips: minerIp(5), ...POOLS, code: await mailCode(ops.client) });
    expect(body<BatchQueuedResult>(o).data.queued).toBe(1);
    expect(await count('pool_approvals')).toBe(before);
  });

  it('refuses the request when the approver has no e-mail any more, storing nothing', async () => {
    await admin.post('/api/approval/setting', { agentKey: KEY, approverId: approver.userId, roleIds: ops.roleId });
    await t.db.updateTable('users').set({ email: null }).where('id', '=', approver.userId).execute();
    const before = await count('pool_approvals');
    const res = await ops.client.post('/api/minerv2/batchSetPool', { agentKey: KEY, ips: minerIp(0), ...POOLS, code: await mailCode(ops.client) });
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toBe('The approver of this farm has no e-mail address; the request cannot be sent');
    expect(await count('pool_approvals')).toBe(before);
  });
});
