/**
 * Abnormal alarms: suspicious SSH behaviour (/alarm/security). Scan now queues one agent task over the farm's online
 * miners of the S19 model and above (offline and other models left out and counted; one scan at a time); the agent's
 * results become records (login, brute force, SSH open), brought up to date by later scans, kept suspicious until
 * processed, not reopened by the same old evidence but reopened by new; the scan history counts what each scan found;
 * reboot by range is a batchReboot of the farm's miners in the range. Bad input changes nothing; 13000 reads, 13500
 * operates; another farm's member gets 403. VNish units of the S19 model and above are scanned as well; their SSH,
 * open by design, is no finding, their log's evidence is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@shared/schemas/common';
import type { SecurityPage, SecurityRebootResult, SecurityScanRow, SecurityScanStarted, SecuritySettings } from '@shared/schemas/security';
import { pruneSecurity, queueDueSecurityScans } from '@server/domains/security/security-records';
import type { SecurityScanReport } from '@shared/security-scan';
import { minerIp, minerSnapshot } from '../support/miner-snapshots';
import { Client, type TestApp, agentCall, body, createFarm, createMember, createTestApp, setupAdmin, uploadBatch } from './harness';

const ip = (i: number) => minerIp(i);
const CLEAN: SecurityScanReport = { sshOpen: false, logRead: true, events: [] };
const HIJACKED: SecurityScanReport = {
  sshOpen: true,
  banner: 'SSH-2.0-dropbear_2020.81',
  logRead: true,
  events: [
    { kind: 'failed', source: '203.0.113.45', user: 'root', count: 8, lastLine: "dropbear[911]: Bad password attempt for 'root' from 203.0.113.45:50122" },
    { kind: 'login', source: '203.0.113.45', user: 'root', count: 1, lastLine: "dropbear[911]: Password auth succeeded for 'root' from 203.0.113.45:50130" },
  ],
};
const PORT_ONLY: SecurityScanReport = { sshOpen: true, banner: 'SSH-2.0-dropbear_2020.81', logRead: false, events: [] };

describe('security alarms (suspicious SSH)', () => {
  let t: TestApp;
  let admin: Client;
  let viewer: Client;
  let operator: Client;
  let outsider: Client;
  let farm: { agentKey: string; secret: string };

  const list = async (query: Record<string, string> = {}, client: Client = admin) => {
    const res = await client.get('/api/security/list', { agentKey: farm.agentKey, ...query });
    expect(res.statusCode, res.body).toBe(200);
    return body<SecurityPage>(res).data;
  };
  const scans = async () => {
    const res = await admin.get('/api/security/scans', { agentKey: farm.agentKey });
    expect(res.statusCode, res.body).toBe(200);
    return body<Page<SecurityScanRow>>(res).data;
  };
  const startScan = async (payload: Record<string, unknown> = {}, client: Client = admin) => {
    const res = await client.post('/api/security/scan', { agentKey: farm.agentKey, ...payload });
    expect(res.statusCode, res.body).toBe(200);
    return body<SecurityScanStarted>(res).data;
  };
  /** The agent pulls its tasks and answers the scan: `reports` per IP (others: clean), then done. */
  const agentAnswers = async (taskId: string, reports: Record<string, SecurityScanReport | string>) => {
    const pulled = body<{ id: string; op: string; targets: { ip: string }[] }[]>(await agentCall(t.app, farm, 'GET', '/tasks')).data;
    const task = pulled.find((x) => x.id === taskId)!;
    expect(task.op).toBe('security-scan');
    const results = task.targets.map(({ ip: target }) => {
      const r = reports[target] ?? CLEAN;
      return typeof r === 'string' ? { ip: target, ok: false, reason: r } : { ip: target, ok: true, security: r };
    });
    const res = await agentCall(t.app, farm, 'POST', `/tasks/${taskId}/results`, { results, done: true });
    expect(res.statusCode, res.body).toBe(200);
    return results;
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    farm = await createFarm(admin, 'sec-a');
    const other = await createFarm(admin, 'sec-b');
    const takenAt = new Date().toISOString();
    // 0–5 S21, 6–7 M60S (Whatsminer), 8 offline S21, 9 S19j Pro; 10–19 again.
    const up = await uploadBatch(t.app, farm, { agentVersion: '1.4.2', batchSeq: 1, cycleStartedAt: takenAt, cycleDurationMs: 8000, snapshots: Array.from({ length: 20 }, (_, i) => minerSnapshot(i, { takenAt })) });
    expect(up.statusCode, up.body).toBe(200);
    viewer = (await createMember(admin, 'secviewer', [13000], [farm.agentKey])).client;
    operator = (await createMember(admin, 'secoperator', [13000, 13500], [farm.agentKey])).client;
    outsider = (await createMember(admin, 'secoutsider', [13000, 13500], [other.agentKey])).client;
  }, 60_000);
  afterAll(async () => t.close());

  it('scans the online miners of the S19 model and above, one scan at a time', async () => {
    expect((await list()).total).toBe(0);
    const started = await startScan({}, operator);
    // 14 Antminers S19+ online: 0–5, 9, 10–15, 19; offline 8 and 18; Whatsminers 6, 7, 16, 17.
    expect(started).toMatchObject({ targets: 14, skipped: { offline: 2, unsupported: 4 } });
    const second = await operator.post('/api/security/scan', { agentKey: farm.agentKey });
    expect(second.statusCode).toBe(409);
    expect(body(second).code).toBe(1070);

    const history = await scans();
    expect(history.list[0]).toMatchObject({ taskId: started.taskId, status: 'pending', targets: 14, done: 0, found: 0, createdBy: 'secoperator', ipBegin: null });

    await agentAnswers(started.taskId, { [ip(1)]: HIJACKED, [ip(2)]: PORT_ONLY, [ip(3)]: 'unreachable: timeout' });
    const page = await list();
    expect(page.counts).toEqual({ suspicious: 2, processed: 0 });
    const hijacked = page.list.find((r) => r.ip === ip(1))!;
    expect(hijacked).toMatchObject({ status: 'suspicious', kinds: ['ssh-login', 'ssh-brute-force', 'ssh-open'], model: 'S21', online: true, processedAt: null });
    expect(hijacked.report.events).toHaveLength(2);
    expect(page.list.find((r) => r.ip === ip(2))!.kinds).toEqual(['ssh-open']);
    expect((await scans()).list[0]).toMatchObject({ status: 'done', done: 14, failed: 1, found: 2 });

    // the agent posts the same results again (a lost answer): nothing new
    const again = await agentCall(t.app, farm, 'POST', `/tasks/${started.taskId}/results`, { results: [{ ip: ip(1), ok: true, security: HIJACKED }], done: true });
    expect(again.statusCode).toBe(200);
    expect((await list()).total).toBe(2);
  });

  it('keeps one suspicious record per miner, marks processed, reopens only on new evidence', async () => {
    const scan = await startScan();
    // the port-only miner now shows a login too: its record is brought up to date, not doubled
    const newer: SecurityScanReport = { ...HIJACKED, events: [{ kind: 'login', source: '198.51.100.9', count: 1, lastLine: 'sshd[77]: Accepted password for root from 198.51.100.9 port 40022 ssh2' }] };
    await agentAnswers(scan.taskId, { [ip(1)]: HIJACKED, [ip(2)]: newer });
    let page = await list();
    expect(page.counts).toEqual({ suspicious: 2, processed: 0 });
    const two = page.list.find((r) => r.ip === ip(2))!;
    expect(two.kinds).toEqual(['ssh-login', 'ssh-open']);

    const processed = await operator.post('/api/security/process', { agentKey: farm.agentKey, ids: [page.list.find((r) => r.ip === ip(1))!.id], note: 'rebooted, password changed' });
    expect(processed.statusCode, processed.body).toBe(200);
    expect(body(processed).data).toEqual({ processed: 1 });
    // processing twice changes nothing
    expect(body(await operator.post('/api/security/process', { agentKey: farm.agentKey, ids: [page.list.find((r) => r.ip === ip(1))!.id] })).data).toEqual({ processed: 0 });
    page = await list({ status: 'processed' });
    expect(page.list).toHaveLength(1);
    expect(page.list[0]).toMatchObject({ ip: ip(1), status: 'processed', processedBy: 'secoperator', processNote: 'rebooted, password changed' });
    // the miner's operation log notes it once (the second call processed nothing)
    const opLog = body<Page<{ action: string; user: string; detail: Record<string, unknown> }>>(await admin.get('/api/miner/opLog', { agentKey: farm.agentKey, ip: ip(1) })).data;
    expect(opLog.list.filter((r) => r.action === 'securityProcessed')).toEqual([
      expect.objectContaining({ user: 'secoperator', detail: expect.objectContaining({ note: 'rebooted, password changed', kinds: ['ssh-login', 'ssh-brute-force', 'ssh-open'] }) }),
    ]);
    // …and when the alarm was raised: once, by the first scan that found it (later scans only brought it up to date)
    expect(opLog.list.filter((r) => r.action === 'securityRaised')).toEqual([
      expect.objectContaining({ user: 'secoperator', detail: expect.objectContaining({ kinds: ['ssh-login', 'ssh-brute-force', 'ssh-open'] }) }),
    ]);
    expect(page.list[0]!.processedAt).not.toBeNull();

    // the same old log lines are not new: still processed
    const third = await startScan();
    await agentAnswers(third.taskId, { [ip(1)]: HIJACKED, [ip(2)]: newer });
    expect((await list()).counts).toEqual({ suspicious: 1, processed: 1 });
    // a new login is: a new suspicious record, the processed one kept as history
    const fourth = await startScan();
    const fresh: SecurityScanReport = { ...HIJACKED, events: [...HIJACKED.events, { kind: 'login', source: '192.0.2.200', count: 1, lastLine: "dropbear[1201]: Password auth succeeded for 'root' from 192.0.2.200:61000" }] };
    await agentAnswers(fourth.taskId, { [ip(1)]: fresh, [ip(2)]: newer });
    page = await list();
    expect(page.counts).toEqual({ suspicious: 2, processed: 1 });
    expect(page.list.filter((r) => r.ip === ip(1)).map((r) => r.status)).toEqual(['suspicious', 'processed']);
    // found: miners the scan saw findings on (old evidence included)
    expect((await scans()).list.map((s) => s.found)).toEqual([2, 2, 2, 2]);

    // search and paging
    expect((await list({ keyword: ip(2) })).list.map((r) => r.ip)).toEqual([ip(2)]);
    const paged = await list({ pageSize: '1', page: '2' });
    expect(paged).toMatchObject({ total: 3, curPage: 2, pageSize: 1 });
    expect(paged.list).toHaveLength(1);
  });

  it('scans a range, and reboots the farm\'s miners of a range as a batchReboot', async () => {
    const scan = await startScan({ ipBegin: ip(0), ipEnd: ip(4) });
    expect(scan).toMatchObject({ targets: 5, skipped: { offline: 0, unsupported: 0 } });
    expect((await scans()).list[0]).toMatchObject({ ipBegin: ip(0), ipEnd: ip(4), targets: 5 });
    await agentAnswers(scan.taskId, {});

    const res = await operator.post('/api/security/rebootRange', { agentKey: farm.agentKey, ipBegin: ip(5), ipEnd: ip(9) });
    expect(res.statusCode, res.body).toBe(200);
    const reboot = body<SecurityRebootResult>(res).data;
    expect(reboot).toMatchObject({ accepted: 4, refused: 1 }); // ip(8) is offline
    const progress = await viewer.get('/api/security/task', { agentKey: farm.agentKey, taskId: reboot.taskId });
    expect(progress.statusCode, progress.body).toBe(200);
    expect(body<{ op: string; total: number; failures: { ip: string; reason: string }[] }>(progress).data).toMatchObject({ op: 'batchReboot', total: 5, failures: [{ ip: ip(8), reason: 'offline' }] });
    const log = await admin.get('/api/log/batchList', { agentKey: farm.agentKey });
    expect(body<Page<{ taskId: string; op: string }>>(log).data.list[0]).toMatchObject({ taskId: reboot.taskId, op: 'batchReboot' });
    const pulled = body<{ id: string; op: string; targets: { ip: string }[] }[]>(await agentCall(t.app, farm, 'GET', '/tasks')).data;
    expect(pulled.find((x) => x.id === reboot.taskId)!.targets.map((x) => x.ip)).toEqual([ip(5), ip(6), ip(7), ip(9)]);

    const empty = await operator.post('/api/security/rebootRange', { agentKey: farm.agentKey, ipBegin: '10.200.0.1', ipEnd: '10.200.0.9' });
    expect(empty.statusCode).toBe(400);
    expect(body(empty).code).toBe(1072);
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const before = await list();
    const tasksBefore = await t.db.selectFrom('agent_tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const cases: [string, Record<string, unknown>, string][] = [
      ['/api/security/scan', { ipBegin: '10.0.0.300', ipEnd: '10.0.0.9' }, 'ipBegin'],
      ['/api/security/scan', { ipBegin: '10.0.0.9' }, 'ipEnd'],
      ['/api/security/scan', { ipBegin: '10.0.0.9', ipEnd: '10.0.0.1' }, 'ipEnd'],
      ['/api/security/rebootRange', { ipBegin: '', ipEnd: '10.0.0.9' }, 'ipBegin'],
      ['/api/security/rebootRange', { ipBegin: '10.0.0.0', ipEnd: '10.2.0.0' }, 'ipEnd'],
      ['/api/security/process', { ids: [] }, 'ids'],
      ['/api/security/process', { ids: ['nope'] }, 'ids.0'],
    ];
    for (const [path, payload, field] of cases) {
      const res = await admin.post(path, { agentKey: farm.agentKey, ...payload }, { 'accept-language': 'en-US' });
      expect(res.statusCode, `${path} ${JSON.stringify(payload)}`).toBe(400);
      const fields = (body<{ fields: Record<string, string> }>(res).data ?? { fields: {} }).fields;
      expect(Object.keys(fields), res.body).toContain(field);
      expect(body(res).msg).not.toMatch(/validation\./);
    }
    const ru = await admin.post('/api/security/scan', { agentKey: farm.agentKey, ipBegin: 'x', ipEnd: '10.0.0.1' }, { 'accept-language': 'ru' });
    expect(JSON.stringify(body(ru).data)).toMatch(/IP/);
    const tasksAfter = await t.db.selectFrom('agent_tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(tasksAfter.n)).toBe(Number(tasksBefore.n));
    expect(await list()).toEqual(before);
  });

  it('needs 13000 to read, 13500 to operate, and membership of the farm', async () => {
    expect((await list({}, viewer)).total).toBeGreaterThan(0);
    for (const [path, payload] of [
      ['/api/security/scan', {}],
      ['/api/security/process', { ids: [(await list()).list[0]!.id] }],
      ['/api/security/rebootRange', { ipBegin: ip(0), ipEnd: ip(1) }],
    ] as const) {
      expect((await viewer.post(path, { agentKey: farm.agentKey, ...payload })).statusCode, path).toBe(403);
      expect((await outsider.post(path, { agentKey: farm.agentKey, ...payload })).statusCode, path).toBe(403);
    }
    expect((await outsider.get('/api/security/list', { agentKey: farm.agentKey })).statusCode).toBe(403);
    expect((await outsider.get('/api/security/scans', { agentKey: farm.agentKey })).statusCode).toBe(403);
    // nothing processed by the refused calls
    expect((await list()).counts.suspicious).toBe(2);
    // a scan with no miner it covers
    const onlyWhatsminers = await operator.post('/api/security/scan', { agentKey: farm.agentKey, ipBegin: ip(6), ipEnd: ip(7) });
    expect(onlyWhatsminers.statusCode).toBe(400);
    expect(body(onlyWhatsminers).code).toBe(1071);
  });

  it('queues the automatic scans when due (daily by default, weekly or off) for farms whose agent is online', async () => {
    const settings = async () => body<SecuritySettings>(await viewer.get('/api/security/settings', { agentKey: farm.agentKey })).data;
    const first = await settings();
    expect(first.autoScanHours).toBe(24);
    const lastScan = (await scans()).list[0]!;
    expect(Date.parse(first.nextScanAt!)).toBe(Date.parse(lastScan.createdAt) + 24 * 3_600_000);

    // the farm's agent calls in; a day after the last scan the maintenance queues one without a user
    expect((await agentCall(t.app, farm, 'POST', '/heartbeat', { agentVersion: '1.4.2', startedAt: new Date().toISOString(), netDelayMs: 5, bufferedBatches: 0, miners: 20 })).statusCode).toBe(200);
    const tomorrow = new Date(Date.parse(first.nextScanAt!) + 60_000);
    expect(await queueDueSecurityScans(t.db, new Date(Date.parse(first.nextScanAt!) - 60_000))).toEqual([]);
    // (the heartbeat is "now", long before tomorrow: pretend it came tomorrow)
    await t.db.updateTable('farms').set({ last_online_at: tomorrow }).where('agent_key', '=', farm.agentKey).execute();
    expect(await queueDueSecurityScans(t.db, tomorrow)).toEqual([farm.agentKey]);
    const auto = (await scans()).list[0]!;
    expect(auto).toMatchObject({ createdBy: null, status: 'pending', targets: 14 });
    // not twice while it is queued
    expect(await queueDueSecurityScans(t.db, tomorrow)).toEqual([]);
    await agentAnswers(auto.taskId, {});

    expect((await admin.post('/api/agent/updateAgentSettings', { agentKey: farm.agentKey, pollIntervalSec: 30 })).statusCode).toBe(200);
    // weekly; off; bad values refused (and nothing changed)
    expect((await viewer.post('/api/security/settings', { agentKey: farm.agentKey, autoScanHours: 168 })).statusCode).toBe(403);
    const bad = await operator.post('/api/security/settings', { agentKey: farm.agentKey, autoScanHours: 5 });
    expect(bad.statusCode).toBe(400);
    expect((await settings()).autoScanHours).toBe(24);
    const weekly = await operator.post('/api/security/settings', { agentKey: farm.agentKey, autoScanHours: 168 });
    expect(body<SecuritySettings>(weekly).data.autoScanHours).toBe(168);
    expect(await queueDueSecurityScans(t.db, new Date(tomorrow.getTime() + 2 * 86_400_000))).toEqual([]);
    expect((await operator.post('/api/security/settings', { agentKey: farm.agentKey, autoScanHours: 0 })).statusCode).toBe(200);
    expect(await settings()).toEqual({ autoScanHours: 0, nextScanAt: null });
    expect(await queueDueSecurityScans(t.db, new Date(tomorrow.getTime() + 30 * 86_400_000))).toEqual([]);
    // the farm's other agent settings are left as they were
    const farmRow = await t.db.selectFrom('farms').select('agent_settings').where('agent_key', '=', farm.agentKey).executeTakeFirstOrThrow();
    expect(farmRow.agent_settings).toMatchObject({ securityAutoScanHours: 0, pollIntervalSec: 30 });
    // and the farm settings form keeps this one
    expect((await admin.post('/api/agent/updateAgentSettings', { agentKey: farm.agentKey, pollIntervalSec: 60 })).statusCode).toBe(200);
    expect((await settings()).autoScanHours).toBe(0);
  });

  it('keeps 90 days of scans and processed records for a year; suspicious ones until processed', async () => {
    const scansBefore = (await scans()).total;
    const counts = (await list()).counts;
    // a year and a day from now: every scan is past its 90 days, the processed record past its year
    await pruneSecurity(t.db, new Date(Date.now() + 366 * 86_400_000));
    expect((await scans()).total).toBe(0);
    expect(scansBefore).toBeGreaterThan(0);
    const after = (await list()).counts;
    expect(after).toEqual({ suspicious: counts.suspicious, processed: 0 });
    const results = await t.db.selectFrom('agent_task_results').innerJoin('agent_tasks', 'agent_tasks.id', 'agent_task_results.task_id').select('agent_tasks.op').where('agent_tasks.op', '=', 'security-scan').execute();
    expect(results).toEqual([]);
  });

  it('scans VNish Antminers of the S19 model and above as the agent stores them (not Braiins OS); their SSH by design is no finding', async () => {
    // the agent stores "Antminer S21 Pro (Vnish 1.2.7)" as make Antminer, model S21 Pro, family vnish; a VNish S17 Pro stays out
    const takenAt = new Date().toISOString();
    const vnish = (i: number, model: string) => ({ ...minerSnapshot(i, { takenAt }), make: 'Antminer', model, family: 'vnish' as const, firmwareVersion: '1.2.7', compileTime: '2025-12-22T19:12:30.000Z' });
    // a Braiins OS S19j Pro stays out too: SSH on by design and no log to read, a scan would check nothing there
    const braiins = { ...minerSnapshot(22, { takenAt }), make: 'Antminer', model: 'S19j Pro', family: 'braiins' as const };
    const up = await uploadBatch(t.app, farm, { agentVersion: '1.4.2', batchSeq: 2, cycleStartedAt: takenAt, cycleDurationMs: 8000, snapshots: [vnish(20, 'S21 Pro'), vnish(21, 'S17 Pro'), braiins] });
    expect(up.statusCode, up.body).toBe(200);
    const before = (await list()).counts;
    expect(await startScan({ ipBegin: ip(20), ipEnd: ip(22) })).toMatchObject({ targets: 1, skipped: { offline: 0, unsupported: 2 } });
    await agentAnswers((await scans()).list[0]!.taskId, { [ip(20)]: { sshOpen: true, sshExpected: true, logRead: true, events: [] } });
    const scan = await startScan({ ipBegin: ip(20), ipEnd: ip(21) });
    expect(scan).toMatchObject({ targets: 1, skipped: { offline: 0, unsupported: 1 } });

    const open: SecurityScanReport = { sshOpen: true, banner: 'SSH-2.0-dropbear_2020.81', sshExpected: true, logRead: true, events: [] };
    await agentAnswers(scan.taskId, { [ip(20)]: open });
    expect((await list()).counts).toEqual(before);
    expect((await scans()).list[0]).toMatchObject({ taskId: scan.taskId, targets: 1, done: 1, failed: 0, found: 0 });

    // the same unit's syslog with the intruder's run: a record with the login and the brute force, not the open port
    const again = await startScan({ ipBegin: ip(20), ipEnd: ip(21) });
    const syslog = (level: string, what: string) => `Nov 28 12:00:01 Antminer authpriv.${level} dropbear[1234]: ${what} for 'root' from 203.0.113.45:51234`;
    await agentAnswers(again.taskId, {
      [ip(20)]: {
        ...open,
        events: [
          { kind: 'failed', source: '203.0.113.45', user: 'root', count: 8, lastLine: syslog('warn', 'Bad password attempt') },
          { kind: 'login', source: '203.0.113.45', user: 'root', count: 1, lastLine: syslog('notice', 'Password auth succeeded') },
        ],
      },
    });
    const page = await list({ keyword: ip(20) });
    expect(page.list).toEqual([expect.objectContaining({ ip: ip(20), model: 'S21 Pro', status: 'suspicious', kinds: ['ssh-login', 'ssh-brute-force'] })]);
    expect(page.list[0]!.report).toMatchObject({ sshExpected: true, logRead: true });
    expect((await list()).counts).toEqual({ ...before, suspicious: before.suspicious + 1 });
    expect((await scans()).list[0]).toMatchObject({ taskId: again.taskId, found: 1 });
  });
});
