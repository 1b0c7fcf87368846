/**
 * Sub-areas and sub-IP segments: the 5-level rule (a 6th refused with "level limit of 5", also by a move),
 * "delete sub-levels first", leaf-only segments ("select leaf node"), segment parsing and overlap (nothing
 * saved on any bad line), miner counts from the miners' IPs, the area option list and the SQL filter the
 * miner list uses, permissions and other farms.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotBatch } from '@shared/schemas/agent-uplink';
import type { Page } from '@shared/schemas/common';
import type { SubArea, SubIpSegment } from '@shared/schemas/sub-areas';
import { subAreaMinerFilter } from '@server/domains/sub-areas/sub-areas.repository';
import { minerIp, minerSnapshot } from '../support/miner-snapshots';
import { type Client, type TestApp, body, createFarm, createMember, createTestApp, setupAdmin, uploadBatch } from './harness';

const KEY = 'area-a';
const OTHER = 'area-b';

describe('sub-areas and sub-IP', () => {
  let t: TestApp;
  let admin: Client;

  const list = async (agentKey = KEY) => body<SubArea[]>(await admin.get('/api/minerv2/agentSubArea/list', { agentKey })).data;
  const save = (payload: Record<string, unknown>, c: Client = admin) => c.post('/api/minerv2/agentSubArea/save', { agentKey: KEY, ...payload });
  const create = async (name: string, parentId?: number) => {
    const res = await save({ name, ...(parentId ? { parentId } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return body<SubArea>(res).data;
  };
  const areaCount = async () => Number((await t.db.selectFrom('sub_areas').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const segCount = async () => Number((await t.db.selectFrom('sub_area_segments').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    const farm = await createFarm(admin, KEY);
    await createFarm(admin, OTHER);
    const takenAt = new Date().toISOString();
    const batch: SnapshotBatch = {
      agentVersion: '1.4.2',
      batchSeq: 1,
      cycleStartedAt: takenAt,
      cycleDurationMs: 5000,
      snapshots: Array.from({ length: 10 }, (_, i) => minerSnapshot(i, { takenAt })),
    };
    const res = await uploadBatch(t.app, farm, batch);
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(async () => t.close());

  it('builds a tree of 5 levels and refuses a 6th with "level limit of 5"', async () => {
    const l1 = await create('Hall A');
    expect(l1.id).toBeGreaterThanOrEqual(1);
    expect(l1.level).toBe(1);
    const l2 = await create('Row 1', l1.id);
    const l3 = await create('Rack 1', l2.id);
    const l4 = await create('Shelf 1', l3.id);
    const l5 = await create('Slot 1', l4.id);
    expect(l5).toMatchObject({ level: 5, path: ['Hall A', 'Row 1', 'Rack 1', 'Shelf 1', 'Slot 1'] });
    const before = await areaCount();
    const sixth = await save({ name: 'Too deep', parentId: l5.id });
    expect(sixth.statusCode).toBe(400);
    expect(body(sixth).msg).toBe('level limit of 5');
    const zh = await admin.request({ method: 'POST', url: '/api/minerv2/agentSubArea/save', payload: { agentKey: KEY, name: 'x', parentId: l5.id }, headers: { I18N: 'zh-CN' } });
    expect(body(zh).msg).toBe('最多5级');
    expect(await areaCount()).toBe(before);
  });

  it('rejects bad names and duplicates among siblings, renames, and saves nothing on bad input', async () => {
    const before = await areaCount();
    for (const [payload, msg] of [
      [{ name: '' }, 'enter the sub-area name'],
      [{ name: 'x'.repeat(51) }, 'the sub-area name has at most 50 characters'],
      [{ name: 'hall a' }, 'a sub-area with this name already exists at this level'],
      [{ name: 'Orphan', parentId: 999999 }, 'the parent sub-area does not exist'],
      [{ name: 'Bad parent', parentId: 'abc' }, 'Invalid id'],
    ] as const) {
      const res = await save(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(body(res).msg).toBe(msg);
    }
    expect(await areaCount()).toBe(before);
    const hall = (await list()).find((a) => a.name === 'Hall A')!;
    const renamed = await save({ id: hall.id, name: 'Hall North' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await list()).find((a) => a.id === hall.id)!.name).toBe('Hall North');
    expect((await list()).find((a) => a.level === 5)!.path[0]).toBe('Hall North');
  });

  it('moves a subtree, refusing a move that makes a 6th level or goes into itself', async () => {
    const areas = await list();
    const row = areas.find((a) => a.name === 'Row 1')!;
    const slot = areas.find((a) => a.name === 'Slot 1')!;
    const b = await create('Hall B');
    const b2 = await create('Row B', b.id);
    // Row 1 holds 4 levels (Row, Rack, Shelf, Slot): under Row B (level 2) the slot would be level 6.
    const deep = await admin.post('/api/minerv2/agentSubArea/move', { agentKey: KEY, id: row.id, parentId: b2.id });
    expect(deep.statusCode).toBe(400);
    expect(body(deep).msg).toBe('level limit of 5');
    const self = await admin.post('/api/minerv2/agentSubArea/move', { agentKey: KEY, id: row.id, parentId: slot.id });
    expect(body(self).msg).toBe('a sub-area cannot be moved into itself or one of its sub-levels');
    expect((await list()).find((a) => a.id === row.id)!.parentId).toBe(row.parentId);
    const ok = await admin.post('/api/minerv2/agentSubArea/move', { agentKey: KEY, id: row.id, parentId: b.id });
    expect(ok.statusCode, ok.body).toBe(200);
    const after = await list();
    expect(after.find((a) => a.id === row.id)).toMatchObject({ parentId: b.id, level: 2 });
    expect(after.find((a) => a.id === slot.id)).toMatchObject({ level: 5, path: ['Hall B', 'Row 1', 'Rack 1', 'Shelf 1', 'Slot 1'] });
    // To the top level: every level goes up by one.
    await admin.post('/api/minerv2/agentSubArea/move', { agentKey: KEY, id: row.id, parentId: '' });
    expect((await list()).find((a) => a.id === slot.id)!.level).toBe(4);
  });

  it('assigns IP segments to leaves only, refuses bad lines and overlaps, counts miners', async () => {
    const areas = await list();
    const slot = areas.find((a) => a.name === 'Slot 1')!;
    const shelf = areas.find((a) => a.name === 'Shelf 1')!;
    const nonLeaf = await admin.post('/api/minerv2/agentSubIp/save', { agentKey: KEY, areaId: shelf.id, segments: '10.0.0.0/24' });
    expect(nonLeaf.statusCode).toBe(400);
    expect(body(nonLeaf).msg).toBe('select leaf node');

    const bad = await admin.post('/api/minerv2/agentSubIp/save', { agentKey: KEY, areaId: slot.id, segments: '10.0.0.1-10.0.0.4\n10.0.0.300\n\n10.1.0.0/8\n10.0.0.3' });
    expect(bad.statusCode).toBe(400);
    expect(body<{ fields: Record<string, string> }>(bad).data.fields.segments!.split('\n')).toEqual([
      'Line 2: Enter a correct IP address',
      'Line 4: A range may hold at most 65,536 addresses (a /16)',
      'Line 5: Overlaps line 1',
    ]);
    expect(await segCount()).toBe(0);

    const good = await admin.post('/api/minerv2/agentSubIp/save', { agentKey: KEY, areaId: slot.id, segments: `${minerIp(0)}-${minerIp(3)}\n10.0.0.9/31`, remark: 'front' });
    expect(good.statusCode, good.body).toBe(200);
    expect(body(good).data).toEqual({ saved: 2 });

    const overlap = await admin.post('/api/minerv2/agentSubIp/save', { agentKey: KEY, areaId: slot.id, segments: minerIp(2) });
    expect(overlap.statusCode).toBe(400);
    expect(body(overlap).msg).toBe(`overlaps the IP segment ${minerIp(0)}-${minerIp(3)} already assigned`);
    expect(await segCount()).toBe(2);

    const page = body<Page<SubIpSegment>>(await admin.get('/api/minerv2/agentSubIp/list', { agentKey: KEY })).data;
    expect(page.total).toBe(2);
    expect(page.list[0]).toMatchObject({ segment: `${minerIp(0)}-${minerIp(3)}`, amount: 4, minerCount: 4, remark: 'front', areaPath: 'Hall B / Row 1 / Rack 1 / Shelf 1 / Slot 1'.replace('Hall B / ', '') });
    expect(page.list[1]).toMatchObject({ segment: '10.0.0.8/31', ipBegin: '10.0.0.8', ipEnd: '10.0.0.9', amount: 2, minerCount: 2 });

    const tree = await list();
    expect(tree.find((a) => a.id === slot.id)).toMatchObject({ segmentCount: 2, minerCount: 6 });
    expect(tree.find((a) => a.name === 'Row 1')!.minerCount).toBe(6);

    // A leaf holding segments gets no sub-levels.
    const child = await save({ name: 'Under slot', parentId: slot.id });
    expect(body(child).msg).toBe('this sub-area holds IP segments; only a sub-area without IP segments can have sub-levels');

    // Edit one segment.
    const first = page.list[0]!;
    const edit = await admin.post('/api/minerv2/agentSubIp/save', { agentKey: KEY, id: first.id, areaId: slot.id, segments: `${minerIp(0)}-${minerIp(1)}` });
    expect(edit.statusCode, edit.body).toBe(200);
    const edited = body<Page<SubIpSegment>>(await admin.get('/api/minerv2/agentSubIp/list', { agentKey: KEY, areaId: String(slot.id) })).data;
    expect(edited.list[0]).toMatchObject({ id: first.id, minerCount: 2 });
  });

  it('filters miners by sub-area in SQL (the hook for the miner list) and lists area options', async () => {
    const areas = await list();
    const row = areas.find((a) => a.name === 'Row 1')!;
    const hallB = areas.find((a) => a.name === 'Hall B')!;
    const ips = async (areaId: number) =>
      (await t.db.selectFrom('miners as m').select('m.ip').where('m.agent_key', '=', KEY).where(subAreaMinerFilter(areaId)).orderBy(sql`m.ip::inet`).execute()).map((r) => r.ip);
    expect(await ips(row.id)).toEqual([minerIp(0), minerIp(1), '10.0.0.8', '10.0.0.9']);
    expect(await ips(hallB.id)).toEqual([]);
    const opts = body<{ text: string; value: string }[]>(await admin.get('/api/options/area', { agentKey: KEY })).data;
    expect(opts.find((o) => o.value === String(row.id))!.text).toBe('Row 1');
    expect(opts.some((o) => o.text === 'Row 1 / Rack 1 / Shelf 1 / Slot 1')).toBe(true);
  });

  it('deletes leaves only ("delete sub-levels first"), removing their segments', async () => {
    const areas = await list();
    const shelf = areas.find((a) => a.name === 'Shelf 1')!;
    const slot = areas.find((a) => a.name === 'Slot 1')!;
    const before = await areaCount();
    const refused = await admin.post('/api/minerv2/agentSubArea/delete', { agentKey: KEY, id: shelf.id });
    expect(refused.statusCode).toBe(400);
    expect(body(refused).msg).toBe('delete sub-levels first');
    expect(await areaCount()).toBe(before);
    const del = await admin.post('/api/minerv2/agentSubArea/delete', { agentKey: KEY, id: slot.id });
    expect(del.statusCode, del.body).toBe(200);
    expect(body(del).data).toEqual({ segments: 2 });
    expect(await segCount()).toBe(0);
    expect(await areaCount()).toBe(before - 1);
    expect((await admin.post('/api/minerv2/agentSubArea/delete', { agentKey: KEY, id: slot.id })).statusCode).toBe(404);
  });

  it('deletes segments all or nothing', async () => {
    const leaf = await create('Spare');
    await admin.post('/api/minerv2/agentSubIp/save', { agentKey: KEY, areaId: leaf.id, segments: '10.5.0.0/24\n10.5.1.0/24' });
    const page = body<Page<SubIpSegment>>(await admin.get('/api/minerv2/agentSubIp/list', { agentKey: KEY })).data;
    const ids = page.list.map((s) => s.id);
    const bad = await admin.post('/api/minerv2/agentSubIp/delete', { agentKey: KEY, ids: `${ids[0]},00000000-0000-4000-8000-000000000000` });
    expect(bad.statusCode).toBe(404);
    expect(await segCount()).toBe(2);
    expect((await admin.post('/api/minerv2/agentSubIp/delete', { agentKey: KEY, ids: '' })).statusCode).toBe(400);
    const ok = await admin.post('/api/minerv2/agentSubIp/delete', { agentKey: KEY, ids: ids.join(',') });
    expect(body(ok).data).toEqual({ deleted: 2 });
  });

  it('keeps farms apart and checks permissions', async () => {
    const mine = await create('Only A');
    // Another farm's id is not found from this farm.
    const other = await admin.post('/api/minerv2/agentSubArea/save', { agentKey: OTHER, name: 'Child', parentId: mine.id });
    expect(body(other).msg).toBe('the parent sub-area does not exist');
    expect((await admin.post('/api/minerv2/agentSubArea/delete', { agentKey: OTHER, id: mine.id })).statusCode).toBe(404);
    expect(await list(OTHER)).toEqual([]);

    const viewer = await createMember(admin, 'area-viewer', [83000, 83100], [KEY]);
    expect((await viewer.client.get('/api/minerv2/agentSubArea/list', { agentKey: KEY })).statusCode).toBe(200);
    expect((await viewer.client.get('/api/minerv2/agentSubIp/list', { agentKey: KEY })).statusCode).toBe(200);
    const before = await areaCount();
    expect((await save({ name: 'Nope' }, viewer.client)).statusCode).toBe(403);
    expect((await viewer.client.post('/api/minerv2/agentSubIp/save', { agentKey: KEY, areaId: mine.id, segments: '10.9.0.1' })).statusCode).toBe(403);
    // Not a member of the other farm.
    expect((await viewer.client.get('/api/minerv2/agentSubArea/list', { agentKey: OTHER })).statusCode).toBe(403);
    const operator = await createMember(admin, 'area-operator', [83000, 83500], [KEY]);
    expect((await save({ name: 'By operator' }, operator.client)).statusCode).toBe(200);
    expect((await operator.client.post('/api/minerv2/agentSubArea/save', { agentKey: OTHER, name: 'x' })).statusCode).toBe(403);
    expect(await areaCount()).toBe(before + 1);
  });
});
