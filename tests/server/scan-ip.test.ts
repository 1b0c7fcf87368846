import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanIpRange } from '@shared/schemas/scan-ip';
import { Client, type TestApp, body, createFarm, createMember, createTestApp, setupAdmin } from './harness';

type Fields = { fields: Record<string, string> };

describe('scan IP ranges', () => {
  let t: TestApp;
  let admin: Client;
  let secret = '';
  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    secret = (await createFarm(admin, 'scan-a')).secret;
    await createFarm(admin, 'scan-b');
  });
  afterAll(async () => t.close());

  const count = async (agentKey: string) =>
    Number((await t.db.selectFrom('scan_ip_ranges').select((eb) => eb.fn.countAll<number>().as('n')).where('agent_key', '=', agentKey).executeTakeFirstOrThrow()).n);
  const list = async (agentKey: string, c: Client = admin) => body<ScanIpRange[]>(await c.get('/api/scanip/list', { agentKey })).data;
  const save = (payload: Record<string, unknown>, c: Client = admin) => c.post('/api/scanip/save', { agentKey: 'scan-a', ...payload });
  const clear = async (agentKey: string) => t.db.deleteFrom('scan_ip_ranges').where('agent_key', '=', agentKey).execute();

  it('creates ranges in order with a computed amount; the list data is an array', async () => {
    const res = await save({ ipBegin: '192.168.1.1', ipEnd: '192.168.1.254', remark: ' Row A ', amount: 5, scanIpId: '' });
    expect(res.statusCode).toBe(200);
    const created = body<ScanIpRange>(res).data;
    expect(created).toMatchObject({ sortNo: 1, ipBegin: '192.168.1.1', ipEnd: '192.168.1.254', remark: 'Row A', agentKey: 'scan-a', amount: 254 });
    await save({ ipBegin: '10.0.0.0', ipEnd: '10.0.255.255' });
    const rows = await list('scan-a');
    expect(Array.isArray(rows)).toBe(true);
    expect(rows.map((r) => [r.sortNo, r.ipBegin, r.ipEnd, r.amount])).toEqual([
      [1, '192.168.1.1', '192.168.1.254', 254],
      [2, '10.0.0.0', '10.0.255.255', 65_536],
    ]);
    expect(Object.keys(rows[0]!).sort()).toEqual(['agentKey', 'amount', 'id', 'ipBegin', 'ipEnd', 'remark', 'sortNo']);
  });

  it('refuses every bad range with the localised message and saves nothing', async () => {
    const before = await count('scan-a');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ipEnd: '10.9.0.1' }, 'ipBegin', 'Enter a correct IP address'],
      [{ ipBegin: '10.9.0.1', ipEnd: '10.9.0.256' }, 'ipEnd', 'Enter a correct IP address'],
      [{ ipBegin: 'ten', ipEnd: '10.9.0.9' }, 'ipBegin', 'Enter a correct IP address'],
      [{ ipBegin: '10.9.0.9', ipEnd: '10.9.0.1' }, 'ipEnd', 'The end address must not be lower than the begin address'],
      [{ ipBegin: '10.9.0.0', ipEnd: '10.10.0.0' }, 'ipEnd', 'A range may hold at most 65,536 addresses (a /16)'],
      [{ ipBegin: '10.9.0.1', ipEnd: '10.9.0.9', remark: 'x'.repeat(201) }, 'remark', 'Remark: at most 200 characters'],
      [{ ipBegin: '192.168.1.200', ipEnd: '192.168.2.10' }, 'ipBegin', 'Overlaps range No. 1 (192.168.1.1 – 192.168.1.254)'],
      [{ ipBegin: '10.0.255.255', ipEnd: '10.1.0.5' }, 'ipBegin', 'Overlaps range No. 2 (10.0.0.0 – 10.0.255.255)'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await save(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const b = body<Fields>(res);
      expect(b.data.fields[field], JSON.stringify(payload)).toBe(message);
      expect(b.msg).toBe(message);
    }
    expect(await count('scan-a')).toBe(before);

    const zh = new Client(t.app, 'zh-CN');
    zh.cookie = admin.cookie;
    const res = await save({ ipBegin: '1.2.3', ipEnd: '1.2.3.4' }, zh);
    expect(body(res).msg).toBe('请输入正确的IP地址');
    const ru = new Client(t.app, 'ru');
    ru.cookie = admin.cookie;
    expect(body(await save({ ipBegin: '192.168.1.5', ipEnd: '192.168.1.6' }, ru)).msg).toBe('Пересекается с диапазоном № 1 (192.168.1.1 – 192.168.1.254)');
  });

  it('edits a range by scanIpId without counting it as its own overlap', async () => {
    const [first] = await list('scan-a');
    const res = await save({ scanIpId: first!.id, ipBegin: '192.168.1.1', ipEnd: '192.168.1.100', remark: 'Row A left' });
    expect(body<ScanIpRange>(res).data).toMatchObject({ id: first!.id, sortNo: 1, amount: 100, remark: 'Row A left' });
    // An edit that would overlap another range is refused.
    const bad = await save({ scanIpId: first!.id, ipBegin: '10.0.0.5', ipEnd: '10.0.0.9' });
    expect(bad.statusCode).toBe(400);
    expect((await list('scan-a'))[0]).toMatchObject({ ipBegin: '192.168.1.1', ipEnd: '192.168.1.100' });
    // An unknown id is not created.
    const unknown = await save({ scanIpId: '0b0f7e0e-8d1c-4c43-9b4e-0a6a3a1e2f10', ipBegin: '172.16.0.1', ipEnd: '172.16.0.9' });
    expect(unknown.statusCode).toBe(404);
    expect(await count('scan-a')).toBe(2);
  });

  it('batch save is all or nothing and names every bad line', async () => {
    const before = await list('scan-a');
    const text = ['172.16.0.1-172.16.0.50-hall 1 - left', '', '172.16.1.1-172.16.1.300-bad', 'nonsense', '192.168.1.50-192.168.1.60-overlaps'].join('\n');
    const res = await admin.post('/api/scanip/batchSave', { agentKey: 'scan-a', scanIpList: text });
    expect(res.statusCode).toBe(400);
    const message = body<Fields>(res).data.fields.scanIpList;
    expect(message!.split('\n')).toEqual([
      'Line 3: Enter a correct IP address',
      'Line 4: Use the format begin-end-remark, e.g. 192.168.1.1-192.168.1.254-Row A',
    ]);
    expect(await list('scan-a')).toEqual(before);

    // Lines valid on their own but overlapping a saved range: found by the server, nothing saved.
    const overlap = await admin.post('/api/scanip/batchSave', { agentKey: 'scan-a', scanIpList: '172.16.0.1-172.16.0.50\n192.168.1.50-192.168.1.60-x' });
    expect(overlap.statusCode).toBe(400);
    expect(body<Fields>(overlap).data.fields.scanIpList).toBe('Line 2: Overlaps range No. 1 (192.168.1.1 – 192.168.1.100)');
    const inside = await admin.post('/api/scanip/batchSave', { agentKey: 'scan-a', scanIpList: '172.16.0.1-172.16.0.50\n172.16.0.40-172.16.0.60' });
    expect(body<Fields>(inside).data.fields.scanIpList).toBe('Line 2: Overlaps line 1');
    expect(await list('scan-a')).toEqual(before);

    const good = await admin.post('/api/scanip/batchSave', { agentKey: 'scan-a', scanIpList: '172.16.0.1-172.16.0.50-hall 1 - left\r\n\r\n172.16.1.1 - 172.16.1.20\n' });
    expect(good.statusCode).toBe(200);
    expect(body<ScanIpRange[]>(good).data.map((r) => [r.sortNo, r.ipBegin, r.remark, r.amount])).toEqual([
      [3, '172.16.0.1', 'hall 1 - left', 50],
      [4, '172.16.1.1', '', 20],
    ]);
    expect(await count('scan-a')).toBe(4);

    const empty = await admin.post('/api/scanip/batchSave', { agentKey: 'scan-a', scanIpList: ' \n ' });
    expect(body<Fields>(empty).data.fields.scanIpList).toBe('Enter at least one IP range');
  });

  it('batch deletes comma-joined ids and renumbers the rest', async () => {
    const rows = await list('scan-a');
    const ids = [rows[0]!.id, rows[2]!.id];
    const res = await admin.post('/api/scanip/delete', { agentKey: 'scan-a', scanIpId: ids.join(',') });
    expect(res.statusCode).toBe(200);
    expect(body(res).data).toEqual({ deleted: 2 });
    expect((await list('scan-a')).map((r) => [r.sortNo, r.ipBegin])).toEqual([
      [1, '10.0.0.0'],
      [2, '172.16.1.1'],
    ]);
    const none = await admin.post('/api/scanip/delete', { agentKey: 'scan-a', scanIpId: '' });
    expect(none.statusCode).toBe(400);
    expect(body(none).msg).toBe('Choose the ranges to delete');
  });

  it('keeps farms apart: ids of another farm are neither edited nor deleted, overlaps are per farm', async () => {
    // The same addresses in another farm are no overlap.
    const b = await admin.post('/api/scanip/save', { agentKey: 'scan-b', ipBegin: '10.0.0.0', ipEnd: '10.0.0.255', remark: 'farm b' });
    expect(b.statusCode).toBe(200);
    const bId = body<ScanIpRange>(b).data.id;
    const aId = (await list('scan-a'))[0]!.id;

    const edit = await save({ scanIpId: bId, ipBegin: '1.1.1.1', ipEnd: '1.1.1.2' });
    expect(edit.statusCode).toBe(404);
    const del = await admin.post('/api/scanip/delete', { agentKey: 'scan-a', scanIpId: `${aId},${bId}` });
    expect(del.statusCode).toBe(404);
    expect(await count('scan-a')).toBe(2);
    expect(await list('scan-b')).toEqual([expect.objectContaining({ id: bId, ipBegin: '10.0.0.0', remark: 'farm b' })]);

    // A member of farm A only: 403 on farm B, and B's ids through farm A are not touched.
    const member = (await createMember(admin, 'scan-op', [82_000, 82_500], ['scan-a'])).client;
    expect((await member.get('/api/scanip/list', { agentKey: 'scan-b' })).statusCode).toBe(403);
    expect((await member.post('/api/scanip/delete', { agentKey: 'scan-b', scanIpId: bId })).statusCode).toBe(403);
    expect((await member.post('/api/scanip/delete', { agentKey: 'scan-a', scanIpId: bId })).statusCode).toBe(404);
    expect(await count('scan-b')).toBe(1);
  });

  it('needs 82000 to list and 82500 to change', async () => {
    const viewer = (await createMember(admin, 'scan-viewer', [82_000], ['scan-a'])).client;
    expect((await viewer.get('/api/scanip/list', { agentKey: 'scan-a' })).statusCode).toBe(200);
    expect((await viewer.post('/api/scanip/save', { agentKey: 'scan-a', ipBegin: '1.1.1.1', ipEnd: '1.1.1.2' })).statusCode).toBe(403);
    expect((await viewer.post('/api/scanip/batchSave', { agentKey: 'scan-a', scanIpList: '1.1.1.1-1.1.1.2' })).statusCode).toBe(403);
    const none = (await createMember(admin, 'scan-none', [1000], ['scan-a'])).client;
    expect((await none.get('/api/scanip/list', { agentKey: 'scan-a' })).statusCode).toBe(403);
  });

  it('the agent reads the saved ranges through its config', async () => {
    await clear('scan-a');
    await admin.post('/api/scanip/batchSave', { agentKey: 'scan-a', scanIpList: '10.20.0.1-10.20.0.254-A\n10.20.1.1-10.20.1.9-B' });
    const res = await t.app.inject({ method: 'GET', url: '/api/agent-uplink/config', headers: { authorization: `Bearer scan-a.${secret}` } });
    expect(res.statusCode).toBe(200);
    expect(body<{ scanRanges: unknown[] }>(res).data.scanRanges).toEqual([
      { ipBegin: '10.20.0.1', ipEnd: '10.20.0.254' },
      { ipBegin: '10.20.1.1', ipEnd: '10.20.1.9' },
    ]);
    // A user session cannot read the agent's config.
    expect((await admin.get('/api/agent-uplink/config')).statusCode).toBe(401);
  });

  it('serialises concurrent saves: two overlapping ranges never both land', async () => {
    await clear('scan-b');
    const results = await Promise.all([
      admin.post('/api/scanip/save', { agentKey: 'scan-b', ipBegin: '10.30.0.1', ipEnd: '10.30.0.100' }),
      admin.post('/api/scanip/save', { agentKey: 'scan-b', ipBegin: '10.30.0.50', ipEnd: '10.30.0.150' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(await count('scan-b')).toBe(1);
  });
});
