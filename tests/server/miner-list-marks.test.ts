/**
 * The miner list and detail carry each miner's customer, accident mark (with its note) and zone (spec 3 §3 Miner:
 * customer, "factory (zone)"): the customer set by batchCustomer (a customer of the farm), the accident by
 * batchAccident (a code of MINER_ACCIDENT_TYPES; older free text shown as written), the zone from the farm's
 * sub-area whose IP segment holds the miner's address, as its path "Top / Row / Rack" and its id. Miners without
 * marks or zone have nulls; another farm's marks and segments at the same addresses change nothing; a change of a
 * segment shows on the next read.
 */
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotBatch } from '@shared/schemas/agent-uplink';
import type { MinerDetail, MinerRow } from '@shared/schemas/miner';
import type { Option, Page } from '@shared/schemas/common';
import type { SubArea, SubIpSegment } from '@shared/schemas/sub-areas';
import { minerIp, minerSnapshot } from '../support/miner-snapshots';
import { type Client, type TestApp, body, createCustomer, createFarm, createTestApp, setupAdmin, uploadBatch } from './harness';

const KEY = 'marks-a';
const OTHER = 'marks-b';
const FLEET = 10;
const ip = minerIp;
/** A customer name with what JSON text must escape or a hand-written parser could split on. */
const CUSTOMER = 'Acme "North", Hall [1] {x} \\ 矿';
const NOTE = 'breaker 3, "row B" [left] \\';
const MARK_KEYS = ['customer', 'accident', 'accidentNote', 'zone', 'zoneId'] as const;
type Marks = Pick<MinerRow, (typeof MARK_KEYS)[number]>;
const NONE: Marks = { customer: null, accident: null, accidentNote: null, zone: null, zoneId: null };

describe('miner list and detail: customer, accident and zone', () => {
  let t: TestApp;
  let admin: Client;
  let rack: SubArea;
  let hallB: SubArea;

  /** The answer, after checking it is a 200. */
  const ok = async (res: Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> => {
    const r = await res;
    expect(r.statusCode, r.body).toBe(200);
    return r;
  };
  const createArea = async (agentKey: string, name: string, parentId?: number) =>
    body<SubArea>(await ok(admin.post('/api/minerv2/agentSubArea/save', { agentKey, name, ...(parentId ? { parentId } : {}) }))).data;
  const list = async (query: Record<string, string> = {}) => {
    const res = await ok(admin.get('/api/miner/list', { agentKey: KEY, pageSize: '50', ...query }));
    return body<Page<MinerRow>>(res).data;
  };
  const detail = async (i: number) => body<MinerDetail>(await ok(admin.get('/api/miner/detail', { agentKey: KEY, ip: ip(i) }))).data;
  const marksOf = (r: MinerRow): Marks => Object.fromEntries(MARK_KEYS.map((k) => [k, r[k]])) as Marks;
  const byIp = (rows: MinerRow[]) => new Map(rows.map((r) => [r.ip, marksOf(r)]));

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    const takenAt = new Date().toISOString();
    // Both farms have miners at the same addresses.
    for (const [n, agentKey] of [KEY, OTHER].entries()) {
      const farm = await createFarm(admin, agentKey);
      const batch: SnapshotBatch = {
        agentVersion: '1.4.2',
        batchSeq: n + 1,
        cycleStartedAt: takenAt,
        cycleDurationMs: 5000,
        snapshots: Array.from({ length: FLEET }, (_, i) => minerSnapshot(i, { takenAt })),
      };
      const res = await uploadBatch(t.app, farm, batch);
      expect(res.statusCode, res.body).toBe(200);
    }

    // Farm A: customer on miners 0–2, accident on 1 and 3; zones: Hall A / Row 1 / Rack 2 holds 0–3, Hall B holds 5.
    await createCustomer(admin, KEY, CUSTOMER);
    await ok(admin.post('/api/minerv2/batchCustomer', { agentKey: KEY, ips: [ip(0), ip(1), ip(2)].join(','), customer: CUSTOMER }));
    await ok(admin.post('/api/minerv2/batchAccident', { agentKey: KEY, ips: [ip(1), ip(3)].join(','), accident: 'power-failure', note: NOTE }));
    const hallA = await createArea(KEY, 'Hall A');
    const row = await createArea(KEY, 'Row 1', hallA.id);
    rack = await createArea(KEY, 'Rack 2', row.id);
    hallB = await createArea(KEY, 'Hall B');
    await ok(admin.post('/api/minerv2/agentSubIp/save', { agentKey: KEY, areaId: rack.id, segments: `${ip(0)}-${ip(3)}` }));
    await ok(admin.post('/api/minerv2/agentSubIp/save', { agentKey: KEY, areaId: hallB.id, segments: ip(5) }));

    // Farm B: its own customer, accident and a segment over every address; none of it is farm A's.
    await createCustomer(admin, OTHER, 'Other farm Co');
    await ok(admin.post('/api/minerv2/batchCustomer', { agentKey: OTHER, ips: [ip(4), ip(6)].join(','), customer: 'Other farm Co' }));
    await ok(admin.post('/api/minerv2/batchAccident', { agentKey: OTHER, ips: [ip(4), ip(6)].join(','), accident: 'other', note: 'farm b' }));
    const otherHall = await createArea(OTHER, 'Farm B hall');
    await ok(admin.post('/api/minerv2/agentSubIp/save', { agentKey: OTHER, areaId: otherHall.id, segments: `${ip(0)}-${ip(FLEET - 1)}` }));
  }, 60_000);
  afterAll(async () => t.close());

  const expected = (): Map<string, Marks> => {
    const zoneA = { zone: 'Hall A / Row 1 / Rack 2', zoneId: String(rack.id) };
    const accident = { accident: 'power-failure', accidentNote: NOTE };
    const m = new Map<string, Marks>();
    for (let i = 0; i < FLEET; i++) m.set(ip(i), { ...NONE });
    m.set(ip(0), { ...NONE, customer: CUSTOMER, ...zoneA });
    m.set(ip(1), { ...NONE, customer: CUSTOMER, ...accident, ...zoneA });
    m.set(ip(2), { ...NONE, customer: CUSTOMER, ...zoneA });
    m.set(ip(3), { ...NONE, ...accident, ...zoneA });
    m.set(ip(5), { ...NONE, zone: 'Hall B', zoneId: String(hallB.id) });
    return m;
  };

  it('lists each miner with its customer, accident, note, zone path and zone id; nulls without them', async () => {
    const page = await list();
    expect(page.total).toBe(FLEET);
    expect(byIp(page.list)).toEqual(expected());
    // The zone is named as the area dropdown names it, and its id is the dropdown's value (the list's subArea filter).
    const options = body<Option[]>(await ok(admin.get('/api/options/area', { agentKey: KEY }))).data;
    expect(options.find((o) => o.value === String(rack.id))?.text).toBe('Hall A / Row 1 / Rack 2');
    // Every row carries the keys, also when null (not left out).
    for (const r of page.list) for (const k of MARK_KEYS) expect(Object.hasOwn(r, k), `${r.ip} ${k}`).toBe(true);
  });

  it('carries them on every way a page is read: small pages, other sorts, customer, sub-area and accident filters', async () => {
    const want = expected();
    const seen = new Map<string, Marks>();
    for (const p of ['1', '2', '3', '4']) for (const [k, v] of byIp((await list({ pageSize: '3', page: p })).list)) seen.set(k, v);
    expect(seen).toEqual(want);
    expect(byIp((await list({ sort: 'gHS5s', order: 'desc' })).list)).toEqual(want);
    const customer = await list({ customer: CUSTOMER });
    expect(customer.list.map((r) => r.ip).sort()).toEqual([ip(0), ip(1), ip(2)].sort());
    for (const r of customer.list) expect(marksOf(r)).toEqual(want.get(r.ip));
    const zoned = await list({ subArea: String(rack.id) });
    expect(zoned.list.map((r) => r.ip)).toEqual([ip(0), ip(1), ip(2), ip(3)]);
    for (const r of zoned.list) expect(marksOf(r)).toEqual(want.get(r.ip));
    // By accident type (farm B's marks at the same addresses are not farm A's); the counters follow the same filter.
    const marked = await list({ accident: 'power-failure' });
    expect(marked.list.map((r) => r.ip)).toEqual([ip(1), ip(3)]);
    expect(marked.total).toBe(2);
    expect((await list({ accident: 'other' })).total).toBe(0);
    expect(body<{ total: number }>(await ok(admin.get('/api/miner/stat', { agentKey: KEY, accident: 'power-failure' }))).data.total).toBe(2);
  });

  it('answers the same in the miner detail', async () => {
    const want = expected();
    for (const i of [0, 1, 3, 4, 5]) {
      const d = await detail(i);
      expect(marksOf(d), ip(i)).toEqual(want.get(ip(i)));
    }
  });

  it('shows an accident mark stored as free text (before the list of types) as written, and follows segment changes', async () => {
    const freeText = 'flooded, "old" [mark]';
    await sql`update miner_marks set accident = ${freeText}, accident_note = '' where agent_key = ${KEY} and ip = ${ip(3)}`.execute(t.db);
    // Hall B's segment goes; its miner leaves the zone.
    const segments = body<Page<SubIpSegment>>(await ok(admin.get('/api/minerv2/agentSubIp/list', { agentKey: KEY, areaId: String(hallB.id) }))).data;
    expect(segments.list).toHaveLength(1);
    await ok(admin.post('/api/minerv2/agentSubIp/delete', { agentKey: KEY, ids: segments.list[0]!.id }));

    const rows = byIp((await list()).list);
    expect(rows.get(ip(3))).toEqual({ ...NONE, accident: freeText, zone: 'Hall A / Row 1 / Rack 2', zoneId: String(rack.id) });
    expect(rows.get(ip(5))).toEqual(NONE);
    expect(marksOf(await detail(3))).toEqual(rows.get(ip(3)));
    expect(marksOf(await detail(5))).toEqual(NONE);
  });
});
