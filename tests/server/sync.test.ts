/**
 * Delta sync (GET /api/sync/<collection>): a fleet uploaded through the agent uplink is paged out completely
 * with a correct `more`; the cursor then answers nothing until an ingest, a change of marks (batchCustomer), a
 * deletion or a customer change, and then exactly those; rows and tombstones interleave without skipping;
 * pruned tombstones force a reset; format=columns answers the same pages compactly; farm membership, permissions
 * and bad parameters are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION } from '@shared/menu-catalogue';
import type { SnapshotBatch } from '@shared/schemas/agent-uplink';
import type { MinerRow } from '@shared/schemas/miner';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import type { CustomerSyncRow, MinerSyncRow, SyncColumnsPage, SyncPage } from '@shared/schemas/sync';
import { sql } from 'kysely';
import { minerSyncSource } from '@server/domains/sync/miner-sync-rows';
import { pruneSyncTombstones } from '@server/domains/sync/prune-tombstones';
import { readSyncPage, settledVersion } from '@server/domains/sync/sync-feed';
import { minerIp, minerSnapshot } from '../support/miner-snapshots';
import { type Client, type TestApp, body, createCustomer, createFarm, createMember, createTestApp, setupAdmin, uploadBatch } from './harness';

const FLEET = 25;
const T0 = Date.now() - 3_600_000;
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

describe('delta sync', () => {
  let t: TestApp;
  let admin: Client;
  let member: Client;
  let minersOnly: Client;
  let farmA: { agentKey: string; secret: string };
  let farmB: { agentKey: string; secret: string };
  let seq = 0;
  /** Cursor after the complete first sync of farm A's miners. */
  let cursor = '';

  const upload = async (creds: { agentKey: string; secret: string }, snapshots: MinerSnapshot[]) => {
    seq += 1;
    const batch: SnapshotBatch = { agentVersion: '1.4.2', batchSeq: seq, cycleStartedAt: snapshots[0]!.takenAt, cycleDurationMs: 8000, snapshots };
    const res = await uploadBatch(t.app, creds, batch);
    expect(res.statusCode, res.body).toBe(200);
  };

  const page = async <Row = MinerSyncRow>(query: Record<string, string>, client: Client = admin, collection = 'miners') => {
    const res = await client.get(`/api/sync/${collection}`, { agentKey: farmA.agentKey, ...query });
    expect(res.statusCode, res.body).toBe(200);
    return body<SyncPage<Row>>(res).data;
  };

  /** Every page from `since` until more is false. */
  const drain = async (since: string | undefined, limit: number, collection = 'miners') => {
    const pages: SyncPage<MinerSyncRow>[] = [];
    let c = since;
    for (let i = 0; i < 100; i++) {
      const p = await page({ ...(c === undefined ? {} : { since: c }), limit: String(limit) }, admin, collection);
      pages.push(p);
      c = p.cursor;
      if (!p.more) break;
    }
    return { pages, cursor: c ?? '', rows: pages.flatMap((p) => p.rows), deleted: pages.flatMap((p) => p.deleted) };
  };

  const minerId = async (ip: string) => (await t.db.selectFrom('miners').select('id').where('agent_key', '=', farmA.agentKey).where('ip', '=', ip).executeTakeFirstOrThrow()).id;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    farmA = await createFarm(admin, 'sync-a');
    farmB = await createFarm(admin, 'sync-b');
    member = (await createMember(admin, 'sync-member', [PERMISSION.miners, PERMISSION.customers], ['sync-a'])).client;
    minersOnly = (await createMember(admin, 'sync-miners-only', [PERMISSION.miners], ['sync-a'])).client;
    const fleet = Array.from({ length: FLEET }, (_, i) => minerSnapshot(i, { takenAt: at(0) }));
    // A lower-case SN from odd firmware: the feed upper-cases it.
    fleet[3] = { ...fleet[3]!, sn: 'jyzz0000000003abc' };
    await upload(farmA, fleet);
    await upload(
      farmB,
      [0, 1, 2].map((i) => ({ ...minerSnapshot(i, { takenAt: at(0) }), ip: `172.16.0.${i + 1}` })),
    );
  }, 180_000);
  afterAll(async () => t.close());

  it('first sync returns every miner of the farm in version-ordered pages with a correct `more`', async () => {
    const { pages, rows, deleted, cursor: c } = await drain(undefined, 10);
    expect(pages.map((p) => [p.rows.length, p.more])).toEqual([
      [10, true],
      [10, true],
      [5, false],
    ]);
    expect(deleted).toEqual([]);
    expect(new Set(rows.map((r) => r.ip))).toEqual(new Set(Array.from({ length: FLEET }, (_, i) => minerIp(i))));
    const versions = rows.map((r) => BigInt(r.version));
    expect(versions.every((v, i) => i === 0 || v > versions[i - 1]!)).toBe(true);
    expect(c).toBe(rows.at(-1)!.version);
    expect(pages[0]!.cursor).toBe(pages[0]!.rows.at(-1)!.version);
    cursor = c;
  });

  it('rows carry the list figures, marks, the zone and an upper-case SN', async () => {
    // A zone over the first four miners (sub-areas change no miner row: the cursor tests below are unaffected).
    const hall = body<{ id: number }>(await admin.post('/api/minerv2/agentSubArea/save', { agentKey: farmA.agentKey, name: 'Hall A' })).data;
    const rack = body<{ id: number }>(await admin.post('/api/minerv2/agentSubArea/save', { agentKey: farmA.agentKey, name: 'Rack 3', parentId: hall.id })).data;
    expect((await admin.post('/api/minerv2/agentSubIp/save', { agentKey: farmA.agentKey, areaId: rack.id, segments: `${minerIp(0)}-${minerIp(3)}` })).statusCode).toBe(200);
    const { rows } = await drain(undefined, 5000);
    const list = body<{ list: MinerRow[] }>(await admin.get('/api/miner/list', { agentKey: farmA.agentKey, pageSize: '100' })).data.list;
    expect(list).toHaveLength(FLEET);
    for (const l of list) {
      const r = rows.find((x) => x.id === l.id)!;
      expect(r).toEqual({
        id: l.id,
        ip: l.ip,
        sn: l.sn.toUpperCase(),
        mac: l.mac,
        make: l.make,
        model: l.model,
        firmwareVersion: l.firmwareVersion,
        online: l.online,
        statuses: l.statuses,
        faultLabels: l.faultLabels,
        errorCodes: l.errorCodes,
        gHS5s: l.gHS5s,
        gHSav: l.gHSav,
        rateIdeal: l.rateIdeal,
        tempChipMax: l.tempChipMax,
        tempPcbMax: l.tempPcbMax,
        fanMin: l.fanMin,
        fanMax: l.fanMax,
        workMode: l.workMode,
        customer: null,
        accident: null,
        accidentNote: null,
        offShelf: false,
        zone: l.zone,
        shelf: null,
        seat: null,
        takenAt: l.takenAt,
        marksVersion: '0',
        version: r.version,
      });
    }
    expect(rows.find((r) => r.ip === minerIp(3))!.sn).toBe('JYZZ0000000003ABC');
    expect(rows.filter((r) => r.zone !== null).map((r) => [r.ip, r.zone])).toEqual([0, 1, 2, 3].map((i) => [minerIp(i), 'Hall A / Rack 3']));
    expect(rows.some((r) => r.statuses.includes('offline'))).toBe(true);
  });

  it('a second sync with the cursor returns nothing and keeps the cursor', async () => {
    const p = await page({ since: cursor });
    expect(p).toEqual({ rows: [], deleted: [], cursor, more: false });
  });

  it('after an ingest, only the miners read again', async () => {
    await upload(
      farmA,
      [4, 7, 11].map((i) => minerSnapshot(i, { takenAt: at(1), rateFactor: 0.5 })),
    );
    const { rows, deleted, cursor: c } = await drain(cursor, 2);
    expect(rows.map((r) => r.ip).sort()).toEqual([minerIp(11), minerIp(4), minerIp(7)].sort());
    expect(deleted).toEqual([]);
    const s = minerSnapshot(7, { takenAt: at(1), rateFactor: 0.5 });
    expect(rows.find((r) => r.ip === minerIp(7))!.gHS5s).toBe(s.rt5s);
    cursor = c;
    // Farm B's ingest is not farm A's change.
    await upload(farmB, [{ ...minerSnapshot(0, { takenAt: at(2) }), ip: '172.16.0.1' }]);
    expect((await page({ since: cursor })).rows).toEqual([]);
  });

  it('a steady agent cycle moves no miner; a change in substance moves that miner; readings come again every 10 minutes, spread by IP', async () => {
    const farmC = await createFarm(admin, 'sync-c');
    const feed = async (since: string) => {
      const res = await admin.get('/api/sync/miners', { agentKey: farmC.agentKey, since, limit: '5000' });
      expect(res.statusCode, res.body).toBe(200);
      return body<SyncPage<MinerSyncRow>>(res).data;
    };
    const ips = (p: SyncPage<MinerSyncRow>) => p.rows.map((r) => r.ip).sort();
    const cycle = (minutes: number, over: (i: number) => Partial<MinerSnapshot> = () => ({})) =>
      upload(
        farmC,
        Array.from({ length: 8 }, (_, i) => ({ ...minerSnapshot(i, { takenAt: at(minutes) }), ...over(i) })),
      );
    // A new miner's first refresh is due 10 minutes after its first reading less a spread of 0–599 s by its IP.
    const spread = async (fromSec: number, toSec: number) =>
      (
        await sql<{ ip: string }>`select ip from miners where agent_key = ${farmC.agentKey} and abs(hashtext(ip)) % 600 >= ${fromSec} and abs(hashtext(ip)) % 600 < ${toSec}`.execute(
          t.db,
        )
      ).rows.map((r) => r.ip);
    await cycle(0);
    let c = (await feed('0')).cursor;
    expect(new Set((await sql<{ s: number }>`select abs(hashtext(ip)) % 600 as s from miners where agent_key = ${farmC.agentKey}`.execute(t.db)).rows.map((r) => Math.floor(r.s / 60))).size).toBeGreaterThan(3);
    const versions = async () => (await t.db.selectFrom('miners').select('version').where('agent_key', '=', farmC.agentKey).orderBy('ip').execute()).map((r) => r.version);
    const before = await versions();

    // The next cycle, the same readings with 1 % of noise: every row is new for the list (version); for the phones
    // only the miners whose refresh is due in the period's last minute.
    await cycle(1, (i) => ({ rt5s: minerSnapshot(i, { takenAt: at(1) }).rt5s * 1.01 }));
    expect((await versions()).every((v, i) => BigInt(v) > BigInt(before[i]!))).toBe(true);
    const dueAt1 = await spread(540, 600);
    let p = await feed(c);
    expect(ips(p)).toEqual([...dueAt1].sort());
    c = p.cursor;

    // Miner 1 goes offline, miner 2's hashrate halves, miner 3 gets a fault label, miner 4 moves 3 %: 1, 2 and 3
    // (and the refreshes due in the minute before).
    const changed = [minerIp(1), minerIp(2), minerIp(3)];
    await cycle(2, (i) => {
      const s = minerSnapshot(i, { takenAt: at(2) });
      if (i === 1) return { online: false, missedPolls: 3, rt5s: 0, state: { ...s.state, online: false, qualified: false, zeroHashrate: true } };
      if (i === 2) return { rt5s: s.rt5s * 0.5 };
      if (i === 3) return { faultLabels: ['fan-speed-abnormal'] };
      if (i === 4) return { rt5s: s.rt5s * 1.03 };
      return {};
    });
    const dueAt2 = await spread(480, 540);
    p = await feed(c);
    expect(ips(p)).toEqual([...new Set([...changed, ...dueAt2])].sort());
    expect(p.rows.find((r) => r.ip === minerIp(1))!.statuses).toContain('offline');
    expect(p.rows.find((r) => r.ip === minerIp(3))!.faultLabels).toEqual(['fan-speed-abnormal']);
    c = p.cursor;

    // Ten minutes on: miners 1–3 back to normal (a change again), and every miner not sent since its first reading.
    await cycle(10);
    p = await feed(c);
    const rest = Array.from({ length: 8 }, (_, i) => minerIp(i)).filter((ip) => !changed.includes(ip) && !dueAt1.includes(ip) && !dueAt2.includes(ip));
    expect(rest.length).toBeGreaterThan(0);
    expect(ips(p)).toEqual([...changed, ...rest].sort());
    expect(p.rows.every((r) => r.takenAt === at(10))).toBe(true);
    c = p.cursor;

    // An SN set by hand: the miner is sent at once; the SN its agent still reports is no change in the next cycle.
    const handSet = await admin.post('/api/miner/updateSn', { agentKey: farmC.agentKey, ip: minerIp(6), sn: 'SMTTB0000000HAND6' });
    expect(handSet.statusCode, handSet.body).toBe(200);
    p = await feed(c);
    expect(p.rows.map((r) => [r.ip, r.sn])).toEqual([[minerIp(6), 'SMTTB0000000HAND6']]);
    c = p.cursor;
    await cycle(10.5);
    expect((await feed(c)).rows).toEqual([]);

    // The open card's row (GET /api/sync/miners/row): the feed's row, with readings the feed holds back.
    const row = async (id: string, agentKey = farmC.agentKey, client = admin) => client.get('/api/sync/miners/row', { agentKey, id });
    const id5 = (await t.db.selectFrom('miners').select('id').where('agent_key', '=', farmC.agentKey).where('ip', '=', minerIp(5)).executeTakeFirstOrThrow()).id;
    await cycle(11, (i) => ({ rt5s: minerSnapshot(i, { takenAt: at(11) }).rt5s * 0.99 }));
    const liveRes = await row(id5);
    expect(liveRes.statusCode, liveRes.body).toBe(200);
    const live = body<{ row: MinerSyncRow | null }>(liveRes).data.row!;
    expect(live.takenAt).toBe(at(11));
    expect(live.gHS5s).toBe(minerSnapshot(5, { takenAt: at(11) }).rt5s * 0.99);
    const { rows: fullC } = await (async () => {
      const res = await admin.get('/api/sync/miners', { agentKey: farmC.agentKey, limit: '5000' });
      return body<SyncPage<MinerSyncRow>>(res).data;
    })();
    expect(live).toEqual(fullC.find((r) => r.id === id5));
    // Another farm's miner is not this farm's; a member of farm A only may not ask farm C; a bad id is refused.
    const idA = await minerId(minerIp(0));
    expect(body<{ row: MinerSyncRow | null }>(await row(idA)).data.row).toBeNull();
    expect(body<{ row: MinerSyncRow | null }>(await row(idA, farmA.agentKey)).data.row!.ip).toBe(minerIp(0));
    expect((await row(id5, farmC.agentKey, member)).statusCode).toBe(403);
    const bad = await row('not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(body<{ fields: Record<string, string> }>(bad).data.fields.id).toBe('Invalid id');
  });

  it('after a change of customer (batchCustomer), only that miner, with its marks and marksVersion', async () => {
    // A customer of the farm (batchCustomer names one), removed again so the customers feed below starts empty.
    const acme = await createCustomer(admin, farmA.agentKey, 'ACME');
    const res = await admin.post('/api/minerv2/batchCustomer', { agentKey: farmA.agentKey, ips: `${minerIp(5)},${minerIp(6)}`, customer: 'ACME' });
    expect(res.statusCode, res.body).toBe(200);
    await t.db.deleteFrom('customers').where('id', '=', acme).execute();
    const { rows, cursor: c } = await drain(cursor, 100);
    expect(rows.map((r) => r.ip).sort()).toEqual([minerIp(5), minerIp(6)].sort());
    for (const r of rows) {
      expect(r.customer).toBe('ACME');
      expect(r.marksVersion).not.toBe('0');
    }
    const marks = await t.db.selectFrom('miner_marks').select(['ip', 'version']).where('agent_key', '=', farmA.agentKey).where('ip', '=', minerIp(5)).executeTakeFirstOrThrow();
    expect(rows.find((r) => r.ip === minerIp(5))!.marksVersion).toBe(String(marks.version));
    cursor = c;
  });

  it('a deleted miner appears in `deleted`', async () => {
    const id = await minerId(minerIp(9));
    await t.db.deleteFrom('miners').where('id', '=', id).execute();
    const p = await page({ since: cursor });
    expect(p.rows).toEqual([]);
    expect(p.deleted).toEqual([id]);
    expect(p.more).toBe(false);
    expect(BigInt(p.cursor) > BigInt(cursor)).toBe(true);
    cursor = p.cursor;
    // A first sync never sees the deleted miner as a row.
    const all = await drain(undefined, 5000);
    expect(all.rows.map((r) => r.id)).not.toContain(id);
  });

  it('rows and tombstones interleave in version order: limit 1 steps through each change once', async () => {
    const idA = await minerId(minerIp(12));
    const idB = await minerId(minerIp(13));
    // Readings 10 minutes after the first: due for the phones again (SYNC_READINGS_REFRESH_MINUTES) though unchanged.
    await t.db.deleteFrom('miners').where('id', '=', idA).execute();
    await upload(farmA, [minerSnapshot(14, { takenAt: at(10) })]);
    await t.db.deleteFrom('miners').where('id', '=', idB).execute();
    await upload(farmA, [minerSnapshot(15, { takenAt: at(10) })]);
    const { pages, cursor: c } = await drain(cursor, 1);
    expect(pages.map((p) => ({ rows: p.rows.map((r) => r.ip), deleted: p.deleted, more: p.more }))).toEqual([
      { rows: [], deleted: [idA], more: true },
      { rows: [minerIp(14)], deleted: [], more: true },
      { rows: [], deleted: [idB], more: true },
      { rows: [minerIp(15)], deleted: [], more: false },
    ]);
    // The same changes in one page.
    const one = await page({ since: cursor, limit: '50' });
    expect(one.rows.map((r) => r.ip)).toEqual([minerIp(14), minerIp(15)]);
    expect(one.deleted).toEqual([idA, idB]);
    expect(one.cursor).toBe(c);
    expect(one.more).toBe(false);
    // Cut at 3: the 4th change waits for the next page, nothing lost.
    const three = await page({ since: cursor, limit: '3' });
    expect(three.rows.map((r) => r.ip)).toEqual([minerIp(14)]);
    expect(three.deleted).toEqual([idA, idB]);
    expect(three.more).toBe(true);
    const rest = await page({ since: three.cursor, limit: '3' });
    expect(rest.rows.map((r) => r.ip)).toEqual([minerIp(15)]);
    expect(rest.more).toBe(false);
    cursor = c;
  });

  it('versions a writer still holds uncommitted are never passed by the cursor', async () => {
    const seqBefore = (await sql<{ v: string }>`select last_value::text as v from row_version_seq`.execute(t.db)).rows[0]!.v;
    await t.db.transaction().execute(async (trx) => {
      // The writer in flight: a change of marks (its versions are visible to itself, not yet to anyone else).
      await trx.updateTable('miner_marks').set({ customer: 'Pending Ltd' }).where('agent_key', '=', farmA.agentKey).where('ip', '=', minerIp(5)).execute();
      expect(await settledVersion(trx)).toBe(seqBefore);
      const inFlight = await readSyncPage(trx, 'miners', { agentKey: farmA.agentKey, since: cursor, limit: 100 }, minerSyncSource);
      expect(inFlight).toEqual({ rows: [], deleted: [], cursor, more: false });
    });
    // Committed: the lock is gone and the change is handed out.
    expect(BigInt(await settledVersion(t.db))).toBeGreaterThan(BigInt(seqBefore));
    const p = await page({ since: cursor });
    expect(p.rows.map((r) => [r.ip, r.customer])).toEqual([[minerIp(5), 'Pending Ltd']]);
    cursor = p.cursor;
  });

  it('customers: created, renamed and deleted customers reach the feed', async () => {
    const insert = async (name: string) =>
      (
        await t.db
          .insertInto('customers')
          .values({ agent_key: farmA.agentKey, name, contract: 'Ann', email: 'ann@example.com', electric_unit: 'USD', electric_price: '0.0500', hosting_result: '[]' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const a = await insert('Alpha Hosting');
    const b = await insert('Beta Hosting');
    const first = await page<CustomerSyncRow>({}, member, 'customers');
    expect(first.rows.map((r) => [r.id, r.name])).toEqual([
      [a, 'Alpha Hosting'],
      [b, 'Beta Hosting'],
    ]);
    expect(first.more).toBe(false);
    await t.db.updateTable('customers').set({ name: 'Alpha Hosting Ltd' }).where('id', '=', a).execute();
    await t.db.deleteFrom('customers').where('id', '=', b).execute();
    const next = await page<CustomerSyncRow>({ since: first.cursor }, member, 'customers');
    expect(next.rows.map((r) => [r.id, r.name])).toEqual([[a, 'Alpha Hosting Ltd']]);
    expect(next.deleted).toEqual([b]);
    expect((await page<CustomerSyncRow>({ since: next.cursor }, member, 'customers')).rows).toEqual([]);
  });

  it('format=columns: the same rows, tombstones, cursors and more as objects, each row an array in `columns` order', async () => {
    const columnsPage = async (query: Record<string, string>, collection = 'miners') => {
      const res = await admin.get(`/api/sync/${collection}`, { agentKey: farmA.agentKey, format: 'columns', ...query });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      return body<SyncColumnsPage>(res).data;
    };
    const asObjects = (p: SyncColumnsPage) => p.rows.map((values) => Object.fromEntries(p.columns.map((c, i) => [c, values[i]])));
    // Paged from the beginning with a small limit: page by page identical to the objects feed.
    let since: string | undefined;
    let pages = 0;
    const deleted: string[] = [];
    for (;;) {
      const q = { limit: '7', ...(since === undefined ? {} : { since }) };
      const [objects, columns] = await Promise.all([page(q), columnsPage(q)]);
      const { columns: names, rows, ...rest } = columns;
      if (objects.rows[0]) expect(names).toEqual(Object.keys(objects.rows[0]));
      expect(rows.every((r) => r.length === names.length)).toBe(true);
      expect(asObjects(columns)).toEqual(objects.rows);
      expect({ ...rest, rows: objects.rows }).toEqual(objects);
      deleted.push(...columns.deleted);
      pages++;
      since = columns.cursor;
      if (!columns.more) break;
    }
    expect(pages).toBeGreaterThan(2);
    // The three miners deleted above came as tombstones, like in the objects feed.
    expect(deleted).toHaveLength(3);
    // Up to date: nothing, the cursor kept.
    expect(await columnsPage({ since: since! })).toEqual({ columns: expect.any(Array), rows: [], deleted: [], cursor: since, more: false });
    // Customers too.
    const customers = await columnsPage({}, 'customers');
    expect(customers.columns).toEqual(['id', 'name', 'version']);
    expect(asObjects(customers)).toEqual((await page<CustomerSyncRow>({}, admin, 'customers')).rows);
    // Columns named once: the answer is far smaller than the objects one.
    const big = { limit: '5000' };
    const objectsBytes = (await admin.get('/api/sync/miners', { agentKey: farmA.agentKey, ...big })).body.length;
    const columnsBytes = (await admin.get('/api/sync/miners', { agentKey: farmA.agentKey, format: 'columns', ...big })).body.length;
    expect(columnsBytes).toBeLessThan(objectsBytes * 0.7);
  });

  it('pruned tombstones: an older cursor restarts from the beginning with reset, a newer one does not', async () => {
    const old = cursor;
    const id = await minerId(minerIp(16));
    await t.db.deleteFrom('miners').where('id', '=', id).execute();
    const after = await page({ since: old });
    expect(after.deleted).toEqual([id]);
    expect(after.reset).toBeUndefined();
    // 31 days later the tombstone is pruned.
    expect(await pruneSyncTombstones(t.db, new Date(Date.now() + 31 * 86_400_000))).toBeGreaterThanOrEqual(1);
    const stale = await page({ since: old, limit: '5000' });
    expect(stale.reset).toBe(true);
    expect(stale.rows).toHaveLength(FLEET - 4);
    expect(stale.rows.map((r) => r.id)).not.toContain(id);
    // A current cursor is not reset; rows older than the pruned mark come once more, with new versions.
    const fresh = await page({ since: after.cursor, limit: '5000' });
    expect(fresh.reset).toBeUndefined();
    expect(fresh.deleted).toEqual([]);
    expect(fresh.rows.map((r) => r.id)).not.toContain(id);
    expect((await page({ since: fresh.cursor })).rows).toEqual([]);
    // No cursor = everything anyway, no reset flag — also paged: no later page's cursor falls below the mark.
    expect((await page({ limit: '1' })).reset).toBeUndefined();
    const scratch = await drain(undefined, 3);
    expect(scratch.pages.every((p) => p.reset === undefined)).toBe(true);
    expect(scratch.pages.at(-1)!.more).toBe(false);
    expect(scratch.rows).toHaveLength(FLEET - 4);
  });

  it('rows built in SQL keep the JavaScript rules: statuses in catalogue order, temperatures rounded half up to 2 digits, ISO takenAt', async () => {
    const ip = minerIp(18);
    await t.db
      .updateTable('miners')
      .set({ online: true, state: JSON.stringify({ lowPower: true, qualified: true, sleeping: false, zeroHashrate: 'yes' }), taken_at: new Date('2026-11-22T03:04:05.678Z') })
      .where('agent_key', '=', farmA.agentKey)
      .where('ip', '=', ip)
      .execute();
    const rows = (await drain(undefined, 5000)).rows;
    const r = rows.find((x) => x.ip === ip)!;
    expect(r.statuses).toEqual(['online', 'qualified', 'lowPower']);
    expect(r.takenAt).toBe('2026-11-22T03:04:05.678Z');
    const { rows: raw } = await sql<{ ip: string; chip: number | null }>`select ip, sync_temp_chip_max as chip from miners where agent_key = ${farmA.agentKey}`.execute(t.db);
    for (const m of raw) expect(rows.find((x) => x.ip === m.ip)!.tempChipMax, m.ip).toBe(m.chip === null ? null : Math.round(m.chip * 100) / 100);
  });

  it("a member of farm A asking with farm B's agentKey gets 403; customers need 61000", async () => {
    expect((await member.get('/api/sync/miners', { agentKey: farmA.agentKey })).statusCode).toBe(200);
    for (const c of ['miners', 'customers']) {
      const res = await member.get(`/api/sync/${c}`, { agentKey: farmB.agentKey });
      expect(res.statusCode, c).toBe(403);
      expect(body(res).code).toBe(4031);
    }
    expect((await minersOnly.get('/api/sync/miners', { agentKey: farmA.agentKey })).statusCode).toBe(200);
    expect((await minersOnly.get('/api/sync/customers', { agentKey: farmA.agentKey })).statusCode).toBe(403);
    const anon = await t.app.inject({ method: 'GET', url: `/api/sync/miners?agentKey=${farmA.agentKey}` });
    expect(anon.statusCode).toBe(401);
  });

  it('a bad cursor or limit gets 400 with a localised message; an unknown collection 404', async () => {
    for (const since of ['abc', '-1', '1.5', '99999999999999999999', '9223372036854775808']) {
      const res = await admin.get('/api/sync/miners', { agentKey: farmA.agentKey, since });
      expect(res.statusCode, since).toBe(400);
      expect(body<{ fields: Record<string, string> }>(res).data.fields.since).toBe('The sync cursor must be a version number from a previous answer');
    }
    expect((await admin.get('/api/sync/miners', { agentKey: farmA.agentKey, since: '9223372036854775807' })).statusCode).toBe(200);
    for (const limit of ['0', '5001', 'x']) {
      const res = await admin.get('/api/sync/miners', { agentKey: farmA.agentKey, limit });
      expect(res.statusCode, limit).toBe(400);
      expect(Object.keys(body<{ fields: Record<string, string> }>(res).data.fields)).toEqual(['limit']);
    }
    const badFormat = await admin.get('/api/sync/miners', { agentKey: farmA.agentKey, format: 'csv' });
    expect(badFormat.statusCode).toBe(400);
    expect(body<{ fields: Record<string, string> }>(badFormat).data.fields.format).toBe('format must be objects or columns');
    const zh = await t.app.inject({ method: 'GET', url: `/api/sync/miners?agentKey=${farmA.agentKey}&since=x`, headers: { cookie: admin.cookie!, I18N: 'zh-CN' } });
    expect(body(zh).msg).toBe('同步游标必须是上一次应答中的版本号');
    const unknown = await admin.get('/api/sync/assets', { agentKey: farmA.agentKey });
    expect(unknown.statusCode).toBe(404);
    expect(body(unknown).msg).toBe('Not found');
  });
});
