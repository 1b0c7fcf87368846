/**
 * Miner batch operations: a fleet uploaded through the agent uplink, then every op's bad input (400,
 * nothing queued), the operations permission (403 while the list stays readable), capability refusals,
 * the verification code (read from a local SMTP sink), the 86 SMS refusal, the IP-list upload (txt, xlsx, xls,
 * unsupported, too many rows), the agent pulling a queued task and reporting results, progress and log.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import writeXlsxFile from 'write-excel-file/node';
import { PERMISSION } from '@shared/menu-catalogue';
import { MINER_ACCIDENT_TYPES } from '@shared/miner-labels';
import { AGENT_UPLINK_PREFIX, type AgentTask, type SnapshotBatch, agentAuthorization } from '@shared/schemas/agent-uplink';
import {
  BATCH_OPS,
  type BatchListResult,
  type BatchLogRow,
  type BatchProgress,
  type BatchQueuedResult,
  type IpListUploadResult,
} from '@shared/schemas/batch-operations';
import { TASK_RETENTION_DAYS, pruneBatchLeftovers } from '@server/domains/batch/prune';
import { translate } from '@server/i18n';
import { minerIp, minerSnapshot } from '../support/miner-snapshots';
import { type Client, type TestApp, body, createCustomer, createFarm, createMember, createTestApp, multipart, setupAdmin, uploadBatch } from './harness';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

const FLEET = 20;
const KEY = 'batch-a';
const ip = (i: number) => minerIp(i);

/** A valid body of each op (targets miner 0). */
const VALID: Record<(typeof BATCH_OPS)[number], Record<string, unknown>> = {
  batchBlink: { on: 'true' },
  batchChangeWorkMode: { mode: 'sleep' },
  batchUpgrade: { fileUrl: 'https://fw.example/s21.tar.gz', code: '000000' },
  batchCustomer: { customer: 'ACME' },
  batchDelete: { code: '000000' },
  batchOffline: {},
  batchOfflineRecoverDHCP: { code: '000000' },
  batchReboot: {},
  batchRecoverDHCP: {},
  batchReset: { code: '000000' },
  batchSetPool: { pool1Url: 'stratum+tcp://btc.pool.example:3333', pool1User: 'farm', workerSuffix: 'ip', code: '000000' },
  batchAdjustHashRate: { percent: 80 },
  batchSetFrequency: { freqMhz: 500 },
  batchChangePowerPercent: { percent: 90 },
  batchSetFans: { mode: 'manual', percent: 70 },
  batchAccident: { accident: 'liquid-damage', note: 'row 3' },
  setAgentPower: { powerLimitKw: 1200 },
};

/** One bad body per op (besides the missing target every miner op shares). */
const BAD: Record<(typeof BATCH_OPS)[number], Record<string, unknown>> = {
  batchBlink: { on: 'maybe' },
  batchChangeWorkMode: { mode: 'turbo' },
  batchUpgrade: { fileUrl: 'ftp:/nope' },
  batchCustomer: { customer: '' },
  batchDelete: { ips: '10.0.0.300' },
  batchOffline: { ips: 'not-an-ip' },
  batchOfflineRecoverDHCP: { ipListFileId: 'nope' },
  batchReboot: { ips: ip(0), filter: '{}' },
  batchRecoverDHCP: { filter: '{"status":"bogus"}' },
  batchReset: { filter: 'not json' },
  batchSetPool: { pool1Url: 'stratum+tcp://pool.gov.example:3333', pool1User: 'farm' },
  batchAdjustHashRate: { percent: 'abc' },
  batchSetFrequency: { freqMhz: 0 },
  batchChangePowerPercent: { percent: 150 },
  batchSetFans: { mode: 'manual', percent: '' },
  batchAccident: { accident: 'flood' },
  setAgentPower: { powerLimitKw: -5 },
};

describe('miner batch operations', () => {
  let t: TestApp;
  let admin: Client;
  let farm: { agentKey: string; secret: string };
  let smtp: SmtpSink;
  const mails: string[] = [];

  const taskCount = async () => Number((await t.db.selectFrom('agent_tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const op = (name: string, payload: Record<string, unknown>, c: Client = admin, headers: Record<string, string> = {}) =>
    c.post(`/api/minerv2/${name}`, { agentKey: KEY, ...payload }, headers);
  const agent = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `${AGENT_UPLINK_PREFIX}${url}`,
      headers: { authorization: agentAuthorization(farm.agentKey, farm.secret), ...(payload ? { 'content-type': 'application/json' } : {}) },
      ...(payload ? { payload: JSON.stringify(payload) } : {}),
    });
  const upload = (file: { name: string; content: Buffer; type: string }, fields: Record<string, string> = { agentKey: KEY }) => {
    const m = multipart({ ...fields, fileName: file.name }, file);
    return admin.request({ method: 'POST', url: '/api/minerv2/uploadIpList', payload: m.payload, headers: m.headers });
  };
  const progress = async (taskId: string) => body<BatchProgress>(await admin.get('/api/minerv2/batchProgress', { agentKey: KEY, taskId })).data;
  const clearCodeLimits = () => t.db.deleteFrom('rate_limit_hits').execute();
  const lastCode = () => {
    const m = /\b(\d{6})\b/.exec(mails.at(-1) ?? '');
    if (!m?.[1]) throw new Error('no code mailed');
    return m[1];
  };
  const sendMailCode = async () => {
    await clearCodeLimits();
    const before = mails.length;
    const res = await admin.post('/api/minerv2/sendCode', { channel: 'email' });
    expect(res.statusCode, res.body).toBe(200);
    for (let i = 0; i < 100 && mails.length === before; i += 1) await new Promise((r) => setTimeout(r, 20));
    return lastCode();
  };

  beforeAll(async () => {
    smtp = await startSmtpSink(mails);
    t = await createTestApp({ smtpUrl: smtp.url, mailFrom: 'Hashfield <codes@hashfield.test>' });
    admin = await setupAdmin(t.app);
    farm = await createFarm(admin, KEY);
    for (const name of ['ACME', 'Hosted Ltd']) await createCustomer(admin, KEY, name);
    const takenAt = new Date().toISOString();
    const batch: SnapshotBatch = {
      agentVersion: '1.4.2',
      batchSeq: 1,
      cycleStartedAt: takenAt,
      cycleDurationMs: 5000,
      snapshots: Array.from({ length: FLEET }, (_, i) => minerSnapshot(i, { takenAt })),
    };
    const res = await uploadBatch(t.app, farm, batch);
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('answers 400 to every bad body and queues nothing', async () => {
    for (const name of BATCH_OPS) {
      const target = name === 'setAgentPower' ? {} : { ips: ip(0) };
      const bad = await op(name, { ...VALID[name], ...target, ...BAD[name] });
      expect(bad.statusCode, `${name} ${bad.body}`).toBe(400);
      expect(body(bad).code).toBe(1001);
      if (name !== 'setAgentPower') {
        const noTarget = await op(name, VALID[name]);
        expect(noTarget.statusCode, name).toBe(400);
        expect(body(noTarget).msg).toBe('Select miners, a filter or an uploaded IP list');
      }
    }
    // A missing switch is named as missing, in the caller's language (a union's own message was "Invalid value").
    const noSwitch = await op('batchBlink', { ips: ip(0) }, admin, { I18N: 'ru' });
    expect(noSwitch.statusCode).toBe(400);
    expect(body<{ fields: Record<string, string> }>(noSwitch).data.fields.on).toBe(translate('ru', 'validation.required'));
    const tooMany = await op('batchReboot', { ips: Array.from({ length: 10_001 }, (_, i) => `10.1.${Math.floor(i / 250)}.${(i % 250) + 1}`).join(',') });
    expect(tooMany.statusCode).toBe(400);
    expect(await taskCount()).toBe(0);
  });

  it('refuses every op to a role with only the miners key, which can still read the list', async () => {
    const { client } = await createMember(admin, 'viewer', [PERMISSION.miners], [KEY]);
    expect((await client.get('/api/miner/list', { agentKey: KEY })).statusCode).toBe(200);
    for (const name of BATCH_OPS) {
      const res = await op(name, { ...VALID[name], ...(name === 'setAgentPower' ? {} : { ips: ip(0) }) }, client);
      expect(res.statusCode, name).toBe(403);
    }
    expect((await client.post('/api/minerv2/sendCode', { channel: 'email' })).statusCode).toBe(403);
    expect((await client.get('/api/log/batchList', { agentKey: KEY })).statusCode).toBe(200);
    expect(await taskCount()).toBe(0);
  });

  it('answers the capability stage of hashrate adjust with success and failed lists (S19 refused)', async () => {
    // 0 S21 (firmware 2024-07-11), 6 M60S, 8 offline S21, 9 S19j Pro; percent 50 is clamped to 65.
    const res = await op('batchAdjustHashRate', { ips: [0, 6, 8, 9].map(ip).join(','), percent: 50 });
    expect(res.statusCode, res.body).toBe(200);
    const r = body<BatchListResult>(res).data;
    expect(r.success).toEqual([ip(0)]);
    expect(r.failed).toEqual([
      { ip: ip(6), reason: 'firmware-not-supported' },
      { ip: ip(8), reason: 'offline' },
      { ip: ip(9), reason: 'model-not-supported' },
    ]);
    const task = await t.db.selectFrom('agent_tasks').selectAll().where('id', '=', r.taskId).executeTakeFirstOrThrow();
    expect(task.op).toBe('adjust-hashrate');
    expect(task.params).toEqual({ percent: 65 });
    expect(task.targets.map((x) => x.ip)).toEqual([ip(0)]);

    const freq = body<BatchListResult>(await op('batchSetFrequency', { ips: [0, 9].map(ip).join(','), freqMhz: 525 })).data;
    expect(freq.success).toEqual([ip(9)]);
    expect(freq.failed).toEqual([{ ip: ip(0), reason: 'model-not-supported' }]);
  });

  it('queues one task the agent pulls; results reported through the uplink show in the progress and the log', async () => {
    const res = await op('batchReboot', { ips: `${ip(0)},${ip(1)},${ip(8)},10.9.9.9` });
    expect(res.statusCode, res.body).toBe(200);
    const q = body<BatchQueuedResult>(res).data;
    expect(q.queued).toBe(2);
    expect(q.refused).toEqual([
      { ip: '10.9.9.9', reason: 'not-found' },
      { ip: ip(8), reason: 'offline' },
    ]);
    let p = await progress(q.taskId);
    expect(p).toMatchObject({ op: 'batchReboot', status: 'pending', total: 4, done: 2, successes: [] });

    const pulled = body<AgentTask[]>(await agent('GET', '/tasks')).data;
    const task = pulled.find((x) => x.id === q.taskId);
    expect(task).toMatchObject({ op: 'reboot', params: {} });
    expect(task!.targets.map((x) => x.ip)).toEqual([ip(0), ip(1)]);

    await agent('POST', `/tasks/${q.taskId}/results`, { results: [{ ip: ip(0), ok: true }], done: false });
    p = await progress(q.taskId);
    expect(p).toMatchObject({ status: 'running', done: 3, successes: [ip(0)] });
    await agent('POST', `/tasks/${q.taskId}/results`, { results: [{ ip: ip(1), ok: false, reason: 'unreachable:timeout' }], done: true });
    p = await progress(q.taskId);
    expect(p.status).toBe('done');
    expect(p.done).toBe(4);
    expect(p.successes).toEqual([ip(0)]);
    expect(p.failures).toEqual([
      { ip: ip(1), reason: 'unreachable:timeout' },
      { ip: ip(8), reason: 'offline' },
      { ip: '10.9.9.9', reason: 'not-found' },
    ]);

    const log = body<{ list: BatchLogRow[]; total: number }>(await admin.get('/api/log/batchList', { agentKey: KEY, page: '1', pageSize: '50' })).data;
    const row = log.list.find((x) => x.taskId === q.taskId);
    expect(row).toMatchObject({ op: 'batchReboot', user: 'admin', total: 4, done: 4, ok: 1, failed: 3, status: 'done' });
    expect((await admin.get('/api/minerv2/batchProgress', { agentKey: KEY, taskId: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
  });

  it('runs a batch once per Idempotency-Key', async () => {
    const before = await taskCount();
    const a = await op('batchBlink', { ips: ip(2), on: 'true' }, admin, { 'Idempotency-Key': 'blink-key-0001' });
    const b = await op('batchBlink', { ips: ip(2), on: 'true' }, admin, { 'Idempotency-Key': 'blink-key-0001' });
    expect(body<BatchQueuedResult>(a).data.taskId).toBe(body<BatchQueuedResult>(b).data.taskId);
    expect(await taskCount()).toBe(before + 1);
  });

  it('changes the customer only to a customer of the farm, and marks accidents only with a type of the list', async () => {
    const before = await taskCount();
    const marksOf = () => t.db.selectFrom('miner_marks').select(['customer', 'accident']).where('agent_key', '=', KEY).where('ip', '=', ip(3)).executeTakeFirst();
    const was = await marksOf();
    const unknown = await op('batchCustomer', { ips: ip(3), customer: 'Nobody Inc' });
    expect(unknown.statusCode).toBe(400);
    expect(body<{ fields: Record<string, string> }>(unknown).data.fields.customer).toBe('No customer with this name on the farm');
    const freeText = await op('batchAccident', { ips: ip(3), accident: 'flooded row 3' });
    expect(freeText.statusCode).toBe(400);
    expect(body<{ fields: Record<string, string> }>(freeText).data.fields.accident).toBe('Choose an accident type from the list');
    expect(await marksOf()).toEqual(was);
    expect(await taskCount()).toBe(before);

    // No customer: `clear`, not a name (both together are refused).
    expect((await op('batchCustomer', { ips: ip(3), customer: 'ACME' })).statusCode).toBe(200);
    expect(await marksOf()).toMatchObject({ customer: 'ACME' });
    expect((await op('batchCustomer', { ips: ip(3), customer: 'ACME', clear: 'true' })).statusCode).toBe(400);
    expect((await op('batchCustomer', { ips: ip(3), clear: 'true' })).statusCode).toBe(200);
    expect(await marksOf()).toMatchObject({ customer: null });
    expect((await op('batchAccident', { ips: ip(3), accident: 'power-failure', note: 'breaker 4' })).statusCode).toBe(200);
    expect(await marksOf()).toMatchObject({ accident: 'power-failure' });
    // The list the dialog offers, named in the request's language; reading it needs the miners key.
    const list = (lang: string) => admin.request({ method: 'GET', url: '/api/options/accidentList', headers: { I18N: lang } });
    const en = body<{ text: string; value: string }[]>(await list('en-US')).data;
    expect(en.map((o) => o.value)).toEqual([...MINER_ACCIDENT_TYPES]);
    expect(en.find((o) => o.value === 'power-failure')?.text).toBe('Power failure');
    expect(en.find((o) => o.value === 'missing-chip')?.text).toBe('Missing chip');
    expect(body<{ text: string; value: string }[]>(await list('ru')).data.find((o) => o.value === 'power-failure')?.text).toBe('Отключение питания');
    expect(body<{ text: string; value: string }[]>(await list('zh-CN')).data.find((o) => o.value === 'other')?.text).toBe('其他');
    const { client } = await createMember(admin, 'no-miners', [PERMISSION.dashboard], [KEY]);
    expect((await client.get('/api/options/accidentList')).statusCode).toBe(403);
  });

  it('targets every miner matching a filter; records-only ops finish at once', async () => {
    const res = await op('batchCustomer', { filter: JSON.stringify({ model: 'S19j Pro' }), customer: 'Hosted Ltd' });
    expect(res.statusCode, res.body).toBe(200);
    const q = body<BatchQueuedResult>(res).data;
    expect(q).toMatchObject({ queued: 2, refused: [] });
    expect((await progress(q.taskId)).status).toBe('done');
    const marks = await t.db.selectFrom('miner_marks').select(['ip', 'customer']).where('agent_key', '=', KEY).where('customer', 'is not', null).execute();
    expect(marks.sort((a, b) => a.ip.localeCompare(b.ip))).toEqual([
      { ip: ip(9), customer: 'Hosted Ltd' },
      { ip: ip(19), customer: 'Hosted Ltd' },
    ]);
    const none = await op('batchOffline', { filter: JSON.stringify({ model: 'No Such Model' }) });
    expect(none.statusCode).toBe(400);
    expect(body(none).msg).toBe('No miner matches the selection');
  });

  it('sends codes only to bound addresses; area code 86 cannot receive SMS', async () => {
    const noMail = await admin.post('/api/minerv2/sendCode', { channel: 'email' });
    expect(noMail.statusCode).toBe(400);
    expect(body(noMail).msg).toBe('Bind an e-mail address in the user center first');
    const noPhone = await admin.post('/api/minerv2/sendCode', { channel: 'sms' });
    expect(body(noPhone).msg).toBe('Bind a phone number in the user center first');
    expect((await admin.post('/api/userv2/bindMobile', { mobile: '13800138000', areaCode: '86' })).statusCode).toBe(200);
    const cn = await admin.post('/api/minerv2/sendCode', { channel: 'sms' });
    expect(cn.statusCode).toBe(400);
    expect(body(cn).msg).toBe('Phone numbers with area code 86 cannot receive the SMS code; use e-mail instead');
    expect((await admin.post('/api/minerv2/sendCode', { channel: 'fax' })).statusCode).toBe(400);
    expect((await admin.post('/api/userv2/bindMobile', { mobile: '5551234567', areaCode: '1' })).statusCode).toBe(200);
    const sms = await admin.post('/api/minerv2/sendCode', { channel: 'sms' });
    expect(sms.statusCode, sms.body).toBe(200);
    expect(body<{ sentTo: string }>(sms).data.sentTo).toBe('+1 ***4567');
    const again = await admin.post('/api/minerv2/sendCode', { channel: 'sms' });
    expect(again.statusCode).toBe(429);
    const stored = await t.db.selectFrom('verification_codes').select(['code_hash']).execute();
    expect(stored.every((r) => /^[0-9a-f]{64}$/.test(r.code_hash))).toBe(true);
  });

  it('asks sensitive ops for the code: missing, wrong, right, then used', async () => {
    expect((await admin.post('/api/userv2/bindEmail', { email: 'ops@hashfield.test' })).statusCode).toBe(200);
    const before = await taskCount();
    const missing = await op('batchReset', { ips: ip(3) });
    expect(missing.statusCode).toBe(400);
    expect(body(missing).msg).toBe('Please enter the verification code');
    const code = await sendMailCode();
    expect(mails.at(-1)).toContain('ops@hashfield.test');
    const wrong = await op('batchReset', { ips: ip(3), code: code === '123456' ? '654321' : '123456' });
    expect(wrong.statusCode).toBe(400);
    expect(body(wrong).msg).toBe('The verification code is wrong or has expired');
    expect(await taskCount()).toBe(before);
    const right = await op('batchReset', { ips: ip(3), code });
    expect(right.statusCode, right.body).toBe(200);
    expect(body<BatchQueuedResult>(right).data.queued).toBe(1);
    const reused = await op('batchReset', { ips: ip(3), code });
    expect(body(reused).msg).toBe('The verification code is wrong or has expired');
    expect(await taskCount()).toBe(before + 1);

    // Delete removes the miner rows and queues "remove" for the agent.
    const del = await op('batchDelete', { ips: ip(4), code: await sendMailCode() });
    expect(del.statusCode, del.body).toBe(200);
    expect(await t.db.selectFrom('miners').select('id').where('ip', '=', ip(4)).executeTakeFirst()).toBeUndefined();
    const pools = await op('batchSetPool', {
      ips: ip(5),
      pool1Url: 'stratum+tcp://btc.pool.example:3333',
      pool1User: 'farm',
      pool2Url: 'stratum+tcp://btc.backup.example:443',
      pool2User: 'farm',
      workerSuffix: 'sn',
      code: await sendMailCode(),
    });
    expect(pools.statusCode, pools.body).toBe(200);
    const task = await t.db.selectFrom('agent_tasks').selectAll().where('id', '=', body<BatchQueuedResult>(pools).data.taskId).executeTakeFirstOrThrow();
    expect(task.params).toEqual({
      pools: [
        { url: 'stratum+tcp://btc.pool.example:3333', user: 'farm', password: 'x' },
        { url: 'stratum+tcp://btc.backup.example:443', user: 'farm', password: 'x' },
      ],
      workerSuffix: 'sn',
    });
  });

  it('uploads a txt, xlsx or xls IP list and uses it as a target; refuses other formats and over 10,000 rows', async () => {
    const txt = await upload({ name: 'ips.txt', type: 'text/plain', content: Buffer.from(`${ip(10)}\n\n${ip(11)}\nnot an ip\n10.9.9.9\n${ip(10)}\n`) });
    expect(txt.statusCode, txt.body).toBe(200);
    const r = body<IpListUploadResult>(txt).data;
    expect(r).toMatchObject({ count: 3, matched: 2, unmatched: ['10.9.9.9'], invalid: [{ line: 4, value: 'not an ip' }] });
    const blink = await op('batchBlink', { ipListFileId: r.fileId, on: '1' });
    expect(blink.statusCode, blink.body).toBe(200);
    expect(body<BatchQueuedResult>(blink).data).toMatchObject({ queued: 2, refused: [{ ip: '10.9.9.9', reason: 'not-found' }] });

    const xlsx = await writeXlsxFile([
      ['IP', 'SN', 'Customer'],
      [ip(12), 'SN-12', 'ACME'],
      [ip(13), null, null],
      ['bad', null, null],
    ]).toBuffer();
    const x = await upload({ name: 'ips.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', content: xlsx });
    expect(x.statusCode, x.body).toBe(200);
    expect(body<IpListUploadResult>(x).data).toMatchObject({ count: 2, matched: 2, unmatched: [], invalid: [{ line: 4 }] });
    const stored = await t.db.selectFrom('ip_lists').select('entries').where('id', '=', body<IpListUploadResult>(x).data.fileId).executeTakeFirstOrThrow();
    expect(stored.entries[0]).toEqual({ ip: ip(12), sn: 'SN-12', customer: 'ACME' });

    // A legacy Excel file (written by Gnumeric: tests/fixtures/ip-lists): three addresses not on this farm.
    const xls = await upload({ name: 'ips.xls', type: 'application/vnd.ms-excel', content: readFileSync(new URL('../fixtures/ip-lists/gnumeric.xls', import.meta.url)) });
    expect(xls.statusCode, xls.body).toBe(200);
    expect(body<IpListUploadResult>(xls).data).toMatchObject({ count: 3, matched: 0, unmatched: ['127.22.0.1', '127.22.0.2', '127.22.0.3'], invalid: [] });

    for (const file of [
      { name: 'ips.pdf', type: 'application/pdf', content: Buffer.from('%PDF-1.4 10.0.0.1') },
      { name: 'ips.xls', type: 'application/vnd.ms-excel', content: Buffer.from('10.0.0.1\n') },
      { name: 'ips.bin', type: 'application/octet-stream', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]) },
      { name: 'ips.xlsx', type: 'application/octet-stream', content: Buffer.from('10.0.0.1\n') },
    ]) {
      const bad = await upload(file);
      expect(bad.statusCode, file.name).toBe(400);
      expect(body(bad).msg).toBe('Unsupported file format: upload a .txt or Excel (.xlsx, .xls) file');
    }
    const big = Array.from({ length: 10_001 }, (_, i) => `10.2.${Math.floor(i / 250)}.${(i % 250) + 1}`).join('\n');
    const tooBig = await upload({ name: 'big.txt', type: 'text/plain', content: Buffer.from(big) });
    expect(tooBig.statusCode).toBe(400);
    expect(body(tooBig).msg).toBe('The file has 10001 rows; at most 10000 can be imported');
    const expired = await op('batchReboot', { ipListFileId: '00000000-0000-4000-8000-000000000000' });
    expect(body(expired).msg).toBe('The uploaded IP list has expired; upload it again');
  });

  it('keeps the farm power limit and logs it', async () => {
    const res = await op('setAgentPower', { powerLimitKw: 1500 });
    expect(res.statusCode, res.body).toBe(200);
    const f = await t.db.selectFrom('farms').select('agent_settings').where('agent_key', '=', KEY).executeTakeFirstOrThrow();
    expect(f.agent_settings.powerLimitKw).toBe(1500);
    const log = body<{ list: BatchLogRow[] }>(await admin.get('/api/log/batchList', { agentKey: KEY })).data;
    expect(log.list[0]).toMatchObject({ op: 'setAgentPower', status: 'done' });
  });

  it('prunes expired IP lists and spent codes, and finished batches after a year', async () => {
    expect((await t.db.selectFrom('ip_lists').select('id').execute()).length).toBeGreaterThan(0);
    const batches = (await t.db.selectFrom('agent_tasks').select('id').where('agent_key', '=', KEY).execute()).length;
    await pruneBatchLeftovers(t.db, new Date(Date.now() + 2 * 3600_000));
    expect(await t.db.selectFrom('ip_lists').select('id').execute()).toEqual([]);
    expect(await t.db.selectFrom('verification_codes').select('id').execute()).toEqual([]);
    expect((await t.db.selectFrom('agent_tasks').select('id').where('agent_key', '=', KEY).execute()).length).toBe(batches);
    // a year and a day later: the finished batches go with their results; one still queued stays
    const queued = await t.db.selectFrom('agent_tasks').select('id').where('agent_key', '=', KEY).where('status', '<>', 'done').execute();
    await pruneBatchLeftovers(t.db, new Date(Date.now() + (TASK_RETENTION_DAYS + 1) * 86400_000));
    expect((await t.db.selectFrom('agent_tasks').select('id').where('agent_key', '=', KEY).execute()).map((r) => r.id).sort()).toEqual(queued.map((r) => r.id).sort());
    const results = await t.db.selectFrom('agent_task_results').innerJoin('agent_tasks', 'agent_tasks.id', 'agent_task_results.task_id').select('agent_tasks.id').where('agent_tasks.status', '=', 'done').where('agent_tasks.agent_key', '=', KEY).execute();
    expect(results).toEqual([]);
    expect(batches).toBeGreaterThan(queued.length);
  });
});
