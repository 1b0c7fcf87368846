/**
 * Offline-outbox writes on a miner: notes and fault marks (append-only, keyed by the client's UUIDv7) and the
 * customer change guarded by the marks version. Bad input → 400 and nothing written; replays (with and without
 * Idempotency-Key) store once; another body under the same id/key → 422; a stale baseVersion → 409 with the
 * current value; a miners-only role and another farm's member → 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION } from '@shared/menu-catalogue';
import type { SnapshotBatch } from '@shared/schemas/agent-uplink';
import type { Page } from '@shared/schemas/common';
import type { ChangeMinerCustomerResult, MinerCustomerConflict, MinerNote } from '@shared/schemas/miner-notes';
import { uuid7 } from '../../src/client/lib/offline/uuid7';
import { minerIp, minerSnapshot } from '../support/miner-snapshots';
import { type Client, type TestApp, body, createFarm, createMember, createTestApp, setupAdmin, uploadBatch } from './harness';

const KEY = 'notes-a';
const OTHER = 'notes-b';
const ip = minerIp(0);

const hostingResult = JSON.stringify([{ type: 'Antminer S21', coinType: 'BTC', hashRate: 200, hashRateUnit: 'TH/s', minerModel: 'S21', minerNum: 10 }]);
const customer = (name: string) => ({ agentKey: KEY, name, contract: 'Li Wei', email: 'ops@acme.example', mobile: '', areaCode: '', electricUnit: 'CNY', electricPrice: '0.35', hostingResult });

describe('miner notes and customer changes from the outbox', () => {
  let t: TestApp;
  let admin: Client;

  const noteCount = async () => Number((await t.db.selectFrom('miner_notes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const marks = () => t.db.selectFrom('miner_marks').selectAll().where('agent_key', '=', KEY).where('ip', '=', ip).executeTakeFirst();
  const note = (extra: Record<string, unknown> = {}) => ({ agentKey: KEY, id: uuid7(), ip, kind: 'note', text: 'fan 2 noisy', createdAt: new Date().toISOString(), ...extra });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    const farm = await createFarm(admin, KEY);
    await createFarm(admin, OTHER);
    const takenAt = new Date().toISOString();
    const batch: SnapshotBatch = { agentVersion: '1.4.2', batchSeq: 1, cycleStartedAt: takenAt, cycleDurationMs: 5000, snapshots: [0, 1].map((i) => minerSnapshot(i, { takenAt })) };
    const res = await uploadBatch(t.app, farm, batch);
    expect(res.statusCode, res.body).toBe(200);
    for (const name of ['Acme Hosting', 'Beta Mining']) expect((await admin.post('/api/customer/save', customer(name))).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 400 with a localised reason to bad notes and writes nothing', async () => {
    const bad: Record<string, unknown>[] = [
      { id: 'not-a-uuid' },
      { ip: '10.0.0.300' },
      { kind: 'rumour' },
      { kind: 'fault' },
      { kind: 'fault', faultType: 'gremlins' },
      { text: 'x'.repeat(501) },
      { text: '   ' },
      { createdAt: 'yesterday' },
      { agentKey: '' },
    ];
    for (const extra of bad) {
      const res = await admin.post('/api/miner/notes', note(extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(body(res).code).toBe(1001);
    }
    const fault = await admin.post('/api/miner/notes', note({ kind: 'fault' }));
    expect(body<unknown>(fault).msg).toBe('Choose the fault');
    const unknownMiner = await admin.post('/api/miner/notes', note({ ip: '10.250.250.250' }));
    expect(unknownMiner.statusCode).toBe(404);
    expect(body(unknownMiner).msg).toBe('No miner with this IP address on the farm');
    expect(await noteCount()).toBe(0);
    expect(await marks()).toBeUndefined();
  });

  it('stores a replayed note once, with and without the Idempotency-Key; another body under the same id → 422', async () => {
    const n = note();
    const answers: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await admin.post('/api/miner/notes', n, { 'idempotency-key': n.id });
      expect(res.statusCode, res.body).toBe(200);
      answers.push(JSON.stringify(body<MinerNote>(res).data));
    }
    for (let i = 0; i < 3; i += 1) {
      const res = await admin.post('/api/miner/notes', n);
      expect(res.statusCode, res.body).toBe(200);
      answers.push(JSON.stringify(body<MinerNote>(res).data));
    }
    expect(new Set(answers).size).toBe(1);
    expect(JSON.parse(answers[0]!)).toMatchObject({ id: n.id, kind: 'note', text: 'fan 2 noisy', authorName: 'admin', faultType: null });
    expect(await noteCount()).toBe(1);

    const changed = await admin.post('/api/miner/notes', { ...n, text: 'something else' });
    expect(changed.statusCode).toBe(422);
    expect(body(changed).msg).toBe('This request key was already used for a different request');
    const changedKeyed = await admin.post('/api/miner/notes', { ...n, text: 'something else' }, { 'idempotency-key': n.id });
    expect(changedKeyed.statusCode).toBe(422);
    expect(await noteCount()).toBe(1);
  });

  it('a fault sets the accident mark like batchAccident; the list pages newest first', async () => {
    const older = note({ createdAt: new Date(Date.now() - 60_000).toISOString(), text: 'older' });
    expect((await admin.post('/api/miner/notes', older)).statusCode).toBe(200);
    const fault = note({ kind: 'fault', faultType: 'fan-speed-abnormal', text: 'fan 1 stopped' });
    const res = await admin.post('/api/miner/notes', fault, { 'idempotency-key': fault.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(await marks()).toMatchObject({ accident: 'fan-speed-abnormal', accident_note: 'fan 1 stopped' });
    const page = body<Page<MinerNote>>(await admin.get('/api/miner/notes', { agentKey: KEY, ip, page: '1', pageSize: '2' })).data;
    expect(page.total).toBe(3);
    expect(page.list.map((x) => x.id)).toEqual([fault.id, page.list[1]!.id]);
    expect(page.list[0]).toMatchObject({ kind: 'fault', faultType: 'fan-speed-abnormal', authorName: 'admin' });
    const last = body<Page<MinerNote>>(await admin.get('/api/miner/notes', { agentKey: KEY, ip, page: '2', pageSize: '2' })).data;
    expect(last.list.map((x) => x.text)).toEqual(['older']);
    expect((await admin.get('/api/miner/notes', { agentKey: KEY, ip: 'nope' })).statusCode).toBe(400);
    // The accident types beyond the fault labels (/api/options/accidentList) too; free text is refused, nothing stored.
    const power = note({ kind: 'fault', faultType: 'power-failure', text: 'PDU 4 tripped' });
    expect((await admin.post('/api/miner/notes', power)).statusCode).toBe(200);
    expect(await marks()).toMatchObject({ accident: 'power-failure', accident_note: 'PDU 4 tripped' });
    const free = await admin.post('/api/miner/notes', note({ kind: 'fault', faultType: 'flooded', text: 'water' }));
    expect(free.statusCode).toBe(400);
    expect(body<{ fields: Record<string, string> }>(free).data.fields.faultType).toBe('Choose an accident type from the list');
    expect(await marks()).toMatchObject({ accident: 'power-failure' });
  });

  it('changes the customer against the marks version; stale → 409 with the current value; keyed replay → stored answer', async () => {
    const before = await marks();
    const base = String(before?.version ?? '0');
    const unknown = await admin.post('/api/miner/customer', { agentKey: KEY, ip, customer: 'Nobody Ltd', baseVersion: base });
    expect(unknown.statusCode).toBe(400);
    expect(body(unknown).msg).toBe('No customer with this name on the farm');
    expect((await admin.post('/api/miner/customer', { agentKey: KEY, ip, customer: 'Acme Hosting', baseVersion: 'x' })).statusCode).toBe(400);
    expect((await marks())?.customer ?? null).toBeNull();

    const key = uuid7();
    const change = { agentKey: KEY, ip, customer: 'Acme Hosting', baseVersion: base };
    const first = await admin.post('/api/miner/customer', change, { 'idempotency-key': key });
    expect(first.statusCode, first.body).toBe(200);
    const v1 = body<ChangeMinerCustomerResult>(first).data.marksVersion;
    expect(v1).not.toBe(base);
    for (let i = 0; i < 2; i += 1) {
      const again = await admin.post('/api/miner/customer', change, { 'idempotency-key': key });
      expect(again.statusCode).toBe(200);
      expect(body<ChangeMinerCustomerResult>(again).data.marksVersion).toBe(v1);
    }
    // Without a key, a replay of an applied change finds its customer in place: the current version, no 409.
    const unkeyed = await admin.post('/api/miner/customer', change);
    expect(unkeyed.statusCode).toBe(200);
    expect(body<ChangeMinerCustomerResult>(unkeyed).data.marksVersion).toBe(v1);

    const stale = await admin.post('/api/miner/customer', { ...change, customer: 'Beta Mining' }, { 'idempotency-key': uuid7() });
    expect(stale.statusCode).toBe(409);
    expect(body(stale).msg).toBe('The record was changed by someone else; reload and try again');
    expect(body<MinerCustomerConflict>(stale).data).toEqual({ current: { customer: 'Acme Hosting', marksVersion: v1 } });
    expect((await marks())?.customer).toBe('Acme Hosting');

    const cleared = await admin.post('/api/miner/customer', { ...change, customer: null, baseVersion: v1 });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect((await marks())?.customer).toBeNull();
    // A miner without marks has version '0'.
    const fresh = await admin.post('/api/miner/customer', { agentKey: KEY, ip: minerIp(1), customer: 'Beta Mining', baseVersion: '0' });
    expect(fresh.statusCode, fresh.body).toBe(200);
  });

  it('refuses writes to a role with only the miners key and to a member of another farm', async () => {
    const { client: viewer } = await createMember(admin, 'notes-viewer', [PERMISSION.miners], [KEY]);
    const n = note();
    expect((await viewer.post('/api/miner/notes', n)).statusCode).toBe(403);
    expect((await viewer.post('/api/miner/customer', { agentKey: KEY, ip, customer: null, baseVersion: '0' })).statusCode).toBe(403);
    expect((await viewer.get('/api/miner/notes', { agentKey: KEY, ip })).statusCode).toBe(200);

    const { client: stranger } = await createMember(admin, 'notes-stranger', [PERMISSION.miners, PERMISSION.minerOperations], [OTHER]);
    expect((await stranger.post('/api/miner/notes', n)).statusCode).toBe(403);
    expect((await stranger.post('/api/miner/customer', { agentKey: KEY, ip, customer: null, baseVersion: '0' })).statusCode).toBe(403);
    expect((await stranger.get('/api/miner/notes', { agentKey: KEY, ip })).statusCode).toBe(403);
    const rows = await t.db.selectFrom('miner_notes').select('id').where('id', '=', n.id).execute();
    expect(rows).toHaveLength(0);
  });
});
