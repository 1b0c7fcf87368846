/**
 * Off-shelf maintenance (/unshelve-miner/maintain): miners taken off shelf await repair, get a status and a note
 * (counted per status, filtered, searched, paged in the database; each change in the miner's operation log;
 * idempotent), go back on shelf when repaired — not while scrapped — and the repair ends there. Bad input changes
 * nothing; 88000 reads, 88500 changes; another farm's member gets 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@shared/schemas/common';
import type { MaintenanceChangeResult, MaintenancePage } from '@shared/schemas/off-shelf-maintenance';
import type { MinerOpLogRow, OffShelfRow } from '@shared/schemas/miner-records';
import { minerIp, minerSnapshot } from '../support/miner-snapshots';
import { Client, type TestApp, body, createFarm, createMember, createTestApp, setupAdmin, uploadBatch } from './harness';

const ip = (i: number) => minerIp(i);
const OFF = [1, 2, 3, 4, 5].map(ip);

describe('off-shelf maintenance', () => {
  let t: TestApp;
  let admin: Client;
  let viewer: Client;
  let technician: Client;
  let outsider: Client;
  let farm: { agentKey: string; secret: string };

  const list = async (query: Record<string, string> = {}, client: Client = admin) => {
    const res = await client.get('/api/miner/maintain/list', { agentKey: farm.agentKey, ...query });
    expect(res.statusCode, res.body).toBe(200);
    return body<MaintenancePage>(res).data;
  };
  const setStatus = async (payload: Record<string, unknown>, client: Client = admin) => {
    const res = await client.post('/api/miner/maintain/status', { agentKey: farm.agentKey, ...payload });
    expect(res.statusCode, res.body).toBe(200);
    return body<MaintenanceChangeResult>(res).data;
  };
  const statusOf = async (minerIp: string) => (await list()).list.find((r) => r.ip === minerIp)?.repairStatus;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    farm = await createFarm(admin, 'maint-a');
    const other = await createFarm(admin, 'maint-b');
    const takenAt = new Date().toISOString();
    const up = await uploadBatch(t.app, farm, { agentVersion: '1.4.2', batchSeq: 1, cycleStartedAt: takenAt, cycleDurationMs: 8000, snapshots: Array.from({ length: 10 }, (_, i) => minerSnapshot(i, { takenAt })) });
    expect(up.statusCode, up.body).toBe(200);
    const off = await admin.post('/api/minerv2/batchOffline', { agentKey: farm.agentKey, ips: OFF.join(',') });
    expect(off.statusCode, off.body).toBe(200);
    viewer = (await createMember(admin, 'maintviewer', [88000], [farm.agentKey])).client;
    technician = (await createMember(admin, 'mainttech', [88000, 88500], [farm.agentKey])).client;
    outsider = (await createMember(admin, 'maintoutsider', [88000, 88500], [other.agentKey])).client;
  }, 60_000);
  afterAll(async () => t.close());

  it('lists the miners taken off shelf as awaiting repair, with counts per status', async () => {
    const page = await list();
    expect(page.total).toBe(5);
    expect(page.counts).toEqual({ awaiting: 5, onsite: 0, outsourced: 0, pendingShelf: 0, scrapped: 0 });
    expect(page.list.map((r) => r.ip).sort()).toEqual([...OFF].sort());
    expect(page.list[0]).toMatchObject({ repairStatus: 'awaiting', repairNote: '', repairAt: null, repairBy: null, present: true });
    expect(page.list[0]!.offShelfAt).not.toBeNull();
  });

  it('sets a status and a note, logs each change once, filters, searches and pages', async () => {
    const r = await setStatus({ ips: [ip(1), ip(2), ip(7)], status: 'onsite', note: 'fan 2 replaced' });
    expect(r).toEqual({ changed: [ip(1), ip(2)].sort(), refused: [{ ip: ip(7), reason: 'notOffShelf' }] });
    // the same again changes and logs nothing
    expect(await setStatus({ ips: [ip(1), ip(2)], status: 'onsite', note: 'fan 2 replaced' })).toEqual({ changed: [], refused: [] });
    // a new note alone is a change; leaving the note out keeps it
    expect((await setStatus({ ips: [ip(2)], status: 'onsite', note: 'waiting for a fan' })).changed).toEqual([ip(2)]);
    expect((await setStatus({ ips: [ip(3)], status: 'outsourced' })).changed).toEqual([ip(3)]);
    expect((await setStatus({ ips: [ip(3)], status: 'scrapped' })).changed).toEqual([ip(3)]);

    const page = await list();
    expect(page.counts).toEqual({ awaiting: 2, onsite: 2, outsourced: 0, pendingShelf: 0, scrapped: 1 });
    const one = page.list.find((r) => r.ip === ip(2))!;
    expect(one).toMatchObject({ repairStatus: 'onsite', repairNote: 'waiting for a fan', repairBy: 'admin' });
    expect(one.repairAt).not.toBeNull();

    expect((await list({ status: 'onsite' })).list.map((r) => r.ip).sort()).toEqual([ip(1), ip(2)].sort());
    expect((await list({ keyword: 'waiting' })).list.map((r) => r.ip)).toEqual([ip(2)]);
    const paged = await list({ pageSize: '2', page: '3' });
    expect(paged).toMatchObject({ total: 5, curPage: 3 });
    expect(paged.list).toHaveLength(1);

    // the off-shelf records show it too
    const records = body<Page<OffShelfRow>>(await admin.get('/api/miner/offShelfList', { agentKey: farm.agentKey, pageSize: '100' })).data.list;
    expect(Object.fromEntries(records.map((r) => [r.ip, r.repairStatus]))).toMatchObject({ [ip(1)]: 'onsite', [ip(3)]: 'scrapped', [ip(5)]: 'awaiting' });

    const log = body<Page<MinerOpLogRow>>(await admin.get('/api/miner/opLog', { agentKey: farm.agentKey, ip: ip(1) })).data.list;
    expect(log.filter((e) => e.action === 'repairStatus').map((e) => e.detail)).toEqual([{ status: 'onsite', note: 'fan 2 replaced' }]);
  });

  it('puts repaired miners back on shelf, refuses a scrapped one, and the repair ends there', async () => {
    await setStatus({ ips: [ip(1)], status: 'pendingShelf' });
    const res = await admin.post('/api/miner/maintain/onShelf', { agentKey: farm.agentKey, ips: [ip(1), ip(3), ip(8)] });
    expect(res.statusCode, res.body).toBe(200);
    expect(body<MaintenanceChangeResult>(res).data).toEqual({ changed: [ip(1)], refused: [{ ip: ip(3), reason: 'scrapped' }, { ip: ip(8), reason: 'notOffShelf' }] });
    expect(await statusOf(ip(1))).toBeUndefined();
    expect(await statusOf(ip(3))).toBe('scrapped');
    // back in the on-shelf list
    const miners = body<{ list: { ip: string }[] }>(await admin.get('/api/miner/list', { agentKey: farm.agentKey, pageSize: '100' })).data.list.map((m) => m.ip);
    expect(miners).toContain(ip(1));
    // taken off shelf again it awaits repair anew, its old note gone
    await admin.post('/api/minerv2/batchOffline', { agentKey: farm.agentKey, ips: ip(1) });
    expect((await list()).list.find((r) => r.ip === ip(1))).toMatchObject({ repairStatus: 'awaiting', repairNote: '', repairAt: null });
  });

  it('refuses bad input with a clear, localised message and changes nothing', async () => {
    const before = await list();
    for (const [payload, text] of [
      [{ ips: [ip(4)], status: 'fixed' }, 'Choose a repair status'],
      [{ ips: [], status: 'onsite' }, 'ips'],
      [{ ips: [ip(4)], status: 'onsite', note: 'x'.repeat(501) }, 'note'],
    ] as const) {
      const res = await admin.post('/api/miner/maintain/status', { agentKey: farm.agentKey, ...payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.body).toContain(text);
    }
    const zh = new Client(t.app, 'zh-CN');
    zh.cookie = admin.cookie;
    expect(body(await zh.post('/api/miner/maintain/status', { agentKey: farm.agentKey, ips: [ip(4)], status: 'fixed' })).msg).toContain('请选择维修状态');
    expect((await admin.get('/api/miner/maintain/list', { agentKey: farm.agentKey, status: 'fixed' })).statusCode).toBe(400);
    expect(await list()).toEqual(before);
  });

  it('reads with 88000, changes with 88500, only on the member\'s farms; the options name the statuses', async () => {
    expect((await list({}, viewer)).total).toBe(5);
    expect((await viewer.post('/api/miner/maintain/status', { agentKey: farm.agentKey, ips: [ip(4)], status: 'onsite' })).statusCode).toBe(403);
    expect((await viewer.post('/api/miner/maintain/onShelf', { agentKey: farm.agentKey, ips: [ip(4)] })).statusCode).toBe(403);
    expect((await outsider.get('/api/miner/maintain/list', { agentKey: farm.agentKey })).statusCode).toBe(403);
    expect((await outsider.post('/api/miner/maintain/status', { agentKey: farm.agentKey, ips: [ip(4)], status: 'onsite' })).statusCode).toBe(403);
    expect((await setStatus({ ips: [ip(4)], status: 'outsourced' }, technician)).changed).toEqual([ip(4)]);
    const options = body<{ text: string; value: string }[]>(await viewer.get('/api/options/repairStatus')).data;
    expect(options.map((o) => o.value)).toEqual(['awaiting', 'onsite', 'outsourced', 'pendingShelf', 'scrapped']);
    expect(options[3]!.text).toBe('Repaired, pending shelf');
  });
});
