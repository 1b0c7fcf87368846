/**
 * Batch on/off shelf from a file (/setting/agent/online): a txt or Excel list is uploaded, its rows checked against
 * the farm's miners for the chosen action (change, already, SN mismatch, unknown IP; counted and paged in the
 * database), then applied — off shelf as the records-only batch (batch log, off-shelf records), back on shelf as the
 * off-shelf records' action; SN mismatches only when asked for; applying again changes nothing. Bad input changes
 * nothing; the page's operation key (87500) and membership of the farm are required; a list is its uploader's only.
 */
import writeXlsxFile from 'write-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@shared/schemas/common';
import type { BatchLogRow } from '@shared/schemas/batch-operations';
import type { MinerDetail } from '@shared/schemas/miner';
import type { OffShelfRow } from '@shared/schemas/miner-records';
import type { ShelfImportApplyResult, ShelfImportRowsPage } from '@shared/schemas/shelf-import';
import type { IpListUploadResult } from '@shared/schemas/batch-operations';
import { minerIp, minerSnapshot } from '../support/miner-snapshots';
import { type Client, type TestApp, body, createFarm, createMember, createTestApp, multipart, setupAdmin, uploadBatch } from './harness';

const FLEET = 12;
const ip = (i: number) => minerIp(i);

describe('batch on/off shelf from a file', () => {
  let t: TestApp;
  let admin: Client;
  let viewer: Client;
  let shelfOperator: Client;
  let outsider: Client;
  let farm: { agentKey: string; secret: string };
  let other: { agentKey: string; secret: string };

  const uploadFile = (client: Client, file: { name: string; content: Buffer; type: string }, agentKey = farm.agentKey) => {
    const m = multipart({ agentKey, fileName: file.name }, file);
    return client.request({ method: 'POST', url: '/api/miner/shelfImport/upload', payload: m.payload, headers: m.headers });
  };
  const uploadTxt = async (lines: string[], client: Client = admin) => {
    const res = await uploadFile(client, { name: 'shelf.txt', type: 'text/plain', content: Buffer.from(lines.join('\n')) });
    expect(res.statusCode, res.body).toBe(200);
    return body<IpListUploadResult>(res).data;
  };
  const rows = async (fileId: string, action: string, extra: Record<string, string> = {}, client: Client = admin) => {
    const res = await client.get('/api/miner/shelfImport/rows', { agentKey: farm.agentKey, fileId, action, ...extra });
    expect(res.statusCode, res.body).toBe(200);
    return body<ShelfImportRowsPage>(res).data;
  };
  const apply = async (payload: Record<string, unknown>, client: Client = admin) => {
    const res = await client.post('/api/miner/shelfImport/apply', { agentKey: farm.agentKey, ...payload });
    expect(res.statusCode, res.body).toBe(200);
    return body<ShelfImportApplyResult>(res).data;
  };
  const offShelf = async () =>
    body<Page<OffShelfRow>>(await admin.get('/api/miner/offShelfList', { agentKey: farm.agentKey, pageSize: '100' })).data.list.map((r) => r.ip).sort();
  const snOf = async (i: number) => body<MinerDetail>(await admin.get('/api/miner/detail', { agentKey: farm.agentKey, ip: ip(i) })).data.sn;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    farm = await createFarm(admin, 'shelf-a');
    other = await createFarm(admin, 'shelf-b');
    const takenAt = new Date().toISOString();
    const up = await uploadBatch(t.app, farm, {
      agentVersion: '1.4.2',
      batchSeq: 1,
      cycleStartedAt: takenAt,
      cycleDurationMs: 8000,
      snapshots: Array.from({ length: FLEET }, (_, i) => minerSnapshot(i, { takenAt })),
    });
    expect(up.statusCode, up.body).toBe(200);
    viewer = (await createMember(admin, 'shelfviewer', [10000, 87000], [farm.agentKey])).client;
    shelfOperator = (await createMember(admin, 'shelfimporter', [87000, 87500], [farm.agentKey])).client;
    outsider = (await createMember(admin, 'shelfoutsider', [87000, 87500], [other.agentKey])).client;
  }, 60_000);
  afterAll(async () => t.close());

  it('checks a txt list for taking miners off shelf: changes, unknown IPs, invalid lines, in file order', async () => {
    const list = await uploadTxt([ip(2), ip(0), 'not-an-ip', ip(1), '10.250.0.1', ip(0)]);
    expect(list).toMatchObject({ count: 4, matched: 3, unmatched: ['10.250.0.1'] });
    expect(list.invalid).toEqual([{ line: 3, value: 'not-an-ip' }]);
    const page = await rows(list.fileId, 'off');
    expect(page.summary).toEqual({ change: 3, already: 0, snMismatch: 0, unknown: 1 });
    expect(page.total).toBe(4);
    expect(page.list.map((r) => [r.n, r.ip, r.outcome])).toEqual([
      [1, ip(2), 'change'],
      [2, ip(0), 'change'],
      [3, ip(1), 'change'],
      [4, '10.250.0.1', 'unknown'],
    ]);
    expect(page.list[0]).toMatchObject({ sn: await snOf(2), offShelf: false, online: true, fileSn: '' });
    expect(page.list[3]).toMatchObject({ sn: null, model: null, offShelf: null, online: null });
    // paged and filtered in the database
    const second = await rows(list.fileId, 'off', { page: '2', pageSize: '2' });
    expect(second.list.map((r) => r.n)).toEqual([3, 4]);
    expect((await rows(list.fileId, 'off', { outcome: 'unknown' })).list.map((r) => r.ip)).toEqual(['10.250.0.1']);
    // for putting back on shelf the same miners are already on shelf
    expect((await rows(list.fileId, 'on')).summary).toEqual({ change: 0, already: 3, snMismatch: 0, unknown: 1 });
  });

  it('skips an Excel row whose SN is not the miner\'s unless asked, and applying again changes nothing', async () => {
    const [sn3, sn4] = [await snOf(3), await snOf(4)];
    const xlsx = await writeXlsxFile([
      ['IP', 'SN', 'Customer'],
      [ip(3), sn3.toLowerCase(), 'Acme'],
      [ip(4), 'WRONGSN0000000001', null],
      [ip(5), null, null],
    ]).toBuffer();
    const up = await uploadFile(admin, { name: 'shelf.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', content: xlsx });
    expect(up.statusCode, up.body).toBe(200);
    const { fileId } = body<IpListUploadResult>(up).data;
    const page = await rows(fileId, 'off');
    expect(page.list.map((r) => [r.ip, r.outcome, r.fileSn, r.fileCustomer])).toEqual([
      [ip(3), 'change', sn3.toLowerCase(), 'Acme'], // an SN compares without regard to case
      [ip(4), 'snMismatch', 'WRONGSN0000000001', ''],
      [ip(5), 'change', '', ''],
    ]);
    expect(page.list[1]!.sn).toBe(sn4);

    const before = await offShelf();
    const done = await apply({ fileId, action: 'off' });
    expect(done).toMatchObject({ action: 'off', changed: 2, skipped: 1, summary: { change: 2, already: 0, snMismatch: 1, unknown: 0 } });
    expect(done.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await offShelf()).toEqual([...before, ip(3), ip(5)].sort());
    const log = body<Page<BatchLogRow>>(await admin.get('/api/log/batchList', { agentKey: farm.agentKey })).data.list;
    expect(log[0]).toMatchObject({ taskId: done.taskId, op: 'batchOffline', total: 2, ok: 2 });

    const again = await apply({ fileId, action: 'off' });
    expect(again).toMatchObject({ changed: 0, taskId: null, summary: { change: 0, already: 2, snMismatch: 1, unknown: 0 } });
    expect(await offShelf()).toEqual([...before, ip(3), ip(5)].sort());

    const forced = await apply({ fileId, action: 'off', includeSnMismatch: true });
    expect(forced).toMatchObject({ changed: 1, skipped: 0 });
    expect(await offShelf()).toEqual([...before, ip(3), ip(4), ip(5)].sort());

    // and back on shelf from the same list
    expect((await rows(fileId, 'on')).summary).toEqual({ change: 2, already: 0, snMismatch: 1, unknown: 0 });
    const back = await apply({ fileId, action: 'on', includeSnMismatch: 'true' });
    expect(back).toMatchObject({ action: 'on', changed: 3, taskId: null });
    expect(await offShelf()).toEqual(before);
    const opLog = body<Page<{ action: string }>>(await admin.get('/api/miner/opLog', { agentKey: farm.agentKey, ip: ip(3) })).data.list;
    expect(opLog.map((r) => r.action)).toContain('onShelf');
  });

  it('refuses bad input with a clear, localised message and changes nothing', async () => {
    const { fileId } = await uploadTxt([ip(6), ip(7)]);
    const before = await offShelf();
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ fileId, action: 'sideways' }, 'action'],
      [{ fileId: 'nope', action: 'off' }, 'fileId'],
      [{ action: 'off' }, 'fileId'],
    ];
    for (const [payload, field] of bad) {
      const res = await admin.post('/api/miner/shelfImport/apply', { agentKey: farm.agentKey, ...payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.body).toContain(field);
    }
    const expired = await admin.post('/api/miner/shelfImport/apply', { agentKey: farm.agentKey, fileId: '00000000-0000-4000-8000-000000000000', action: 'off' });
    expect(expired.statusCode).toBe(400);
    expect(body(expired).msg).toBe('The uploaded IP list has expired; upload it again');
    const zh = await t.app.inject({
      method: 'GET',
      url: '/api/miner/shelfImport/rows',
      query: { agentKey: farm.agentKey, fileId: '00000000-0000-4000-8000-000000000000', action: 'off' },
      headers: { cookie: admin.cookie!, I18N: 'zh-CN' },
    });
    expect(zh.statusCode).toBe(400);
    expect(body(zh).msg).not.toBe('The uploaded IP list has expired; upload it again');
    const empty = await uploadFile(admin, { name: 'empty.txt', type: 'text/plain', content: Buffer.from('hello\nworld\n') });
    expect(empty.statusCode).toBe(400);
    expect(body(empty).msg).toBe('The file holds no valid IP address');
    const pdf = await uploadFile(admin, { name: 'list.pdf', type: 'application/pdf', content: Buffer.from('%PDF-1.4') });
    expect(body(pdf).msg).toBe('Unsupported file format: upload a .txt or Excel (.xlsx, .xls) file');
    expect(await offShelf()).toEqual(before);
  });

  it('needs the page\'s operation key and membership of the farm; a list is its uploader\'s only', async () => {
    const { fileId } = await uploadTxt([ip(8), ip(9)]);
    const before = await offShelf();
    // 87000 alone (the page) is not enough to upload, check or apply
    expect((await uploadFile(viewer, { name: 'a.txt', type: 'text/plain', content: Buffer.from(ip(8)) })).statusCode).toBe(403);
    expect((await viewer.get('/api/miner/shelfImport/rows', { agentKey: farm.agentKey, fileId, action: 'off' })).statusCode).toBe(403);
    expect((await viewer.post('/api/miner/shelfImport/apply', { agentKey: farm.agentKey, fileId, action: 'off' })).statusCode).toBe(403);
    // another farm's operator
    expect((await outsider.post('/api/miner/shelfImport/apply', { agentKey: farm.agentKey, fileId, action: 'off' })).statusCode).toBe(403);
    // the admin's list is not another operator's
    const foreign = await shelfOperator.post('/api/miner/shelfImport/apply', { agentKey: farm.agentKey, fileId, action: 'off' });
    expect(body(foreign).msg).toBe('The uploaded IP list has expired; upload it again');
    expect(await offShelf()).toEqual(before);
    // the operation key without the miner keys is enough for the page's own work
    const own = await uploadTxt([ip(8), ip(9)], shelfOperator);
    expect((await rows(own.fileId, 'off', {}, shelfOperator)).summary.change).toBe(2);
    expect((await apply({ fileId: own.fileId, action: 'off' }, shelfOperator)).changed).toBe(2);
    expect(await offShelf()).toEqual([...before, ip(8), ip(9)].sort());
  });
});
