import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_UPLINK_PREFIX, AgentConfig, type SnapshotBatch, agentAuthorization } from '@shared/schemas/agent-uplink';
import { isEmbedded } from '@server/db/kysely';
import { chunkSizeOf, ingestSnapshots } from '@server/domains/miners/ingest-snapshots';
import { CHUNK, EMBEDDED_CHUNK } from '@server/domains/miners/upload-prepare';
import { type ReadingColumns, fullReading } from '@server/domains/miners/stored-reading';
import { gzipBatch, minerIp, readingTempMax, snapshotBatch } from '../support/miner-snapshots';
import { type Client, type TestApp, body, createFarm, createTestApp, setupAdmin } from './harness';

/** The agent's side of the server: Bearer auth, config, snapshot ingest (dedup, ordering, roll-ups), heartbeat, tasks. */

interface Creds {
  agentKey: string;
  secret: string;
}

const HOUR = '2026-03-10T08:00:00.000Z';
const at = (min: number, sec = 0) => new Date(Date.parse(HOUR) + min * 60_000 + sec * 1000).toISOString();
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));

describe('agent uplink', () => {
  let t: TestApp;
  let admin: Client;
  let farm: Creds;
  let other: Creds;

  const call = (creds: Creds | null, method: 'GET' | 'POST', path: string, payload?: InjectOptions['payload'], headers: Record<string, string> = {}): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method,
      url: `${AGENT_UPLINK_PREFIX}${path}`,
      headers: { ...(creds ? { authorization: agentAuthorization(creds.agentKey, creds.secret) } : {}), ...headers },
      ...(payload === undefined ? {} : { payload }),
    });
  const postJson = (creds: Creds, path: string, data: unknown) => call(creds, 'POST', path, data as InjectOptions['payload']);
  const postGzip = (creds: Creds, batch: SnapshotBatch) =>
    call(creds, 'POST', '/snapshots', gzipBatch(batch), { 'content-type': 'application/json', 'content-encoding': 'gzip' });

  /** Everything an upload writes, for "changed nothing" comparisons. */
  const stored = async (agentKey: string) => ({
    miners: await t.db.selectFrom('miners').selectAll().where('agent_key', '=', agentKey).orderBy('ip').execute(),
    hours: await t.db
      .selectFrom('miner_hours')
      .innerJoin('miners', 'miners.id', 'miner_hours.miner_id')
      .selectAll('miner_hours')
      .select('miners.ip')
      .where('miners.agent_key', '=', agentKey)
      .orderBy('miners.ip')
      .orderBy('miner_hours.at')
      .execute(),
    minutes: await t.db.selectFrom('farm_stats_minute').selectAll().where('agent_key', '=', agentKey).orderBy('at').execute(),
    batches: await t.db.selectFrom('snapshot_batches').selectAll().where('agent_key', '=', agentKey).orderBy('batch_seq').execute(),
    farm: await t.db.selectFrom('farms').select(['miner_count', 'last_online_at']).where('agent_key', '=', agentKey).executeTakeFirstOrThrow(),
  });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    farm = await createFarm(admin, 'uplink-a');
    other = await createFarm(admin, 'uplink-b');
  });
  afterAll(async () => t.close());

  describe('authentication', () => {
    it('refuses a user session on the uplink and an agent token on user endpoints', async () => {
      const cfg = await admin.get(`${AGENT_UPLINK_PREFIX}/config`);
      expect([401, 403]).toContain(cfg.statusCode);
      const snap = await admin.post(`${AGENT_UPLINK_PREFIX}/snapshots`, snapshotBatch({ batchSeq: 900, count: 2, takenAt: at(0) }) as unknown as Record<string, unknown>);
      expect([401, 403]).toContain(snap.statusCode);
      const beat = await admin.post(`${AGENT_UPLINK_PREFIX}/heartbeat`, { agentVersion: 'x', startedAt: at(0), netDelayMs: 1, bufferedBatches: 0, miners: 0 });
      expect([401, 403]).toContain(beat.statusCode);
      expect(await t.db.selectFrom('snapshot_batches').selectAll().execute()).toHaveLength(0);

      const auth = { authorization: agentAuthorization(farm.agentKey, farm.secret) };
      for (const url of ['/api/agent/pagelist', `/api/agent/status?agentKey=${farm.agentKey}`, '/api/userv2/info', `/api/role/userAgentMenus?agentKey=${farm.agentKey}`]) {
        const res = await t.app.inject({ method: 'GET', url, headers: auth });
        expect([401, 403], url).toContain(res.statusCode);
      }
      const write = await t.app.inject({ method: 'POST', url: '/api/agent/rotateSecret', headers: { ...auth, 'x-requested-with': 'XMLHttpRequest' }, payload: { agentKey: farm.agentKey } });
      expect([401, 403]).toContain(write.statusCode);
    });

    it('answers 401 to a wrong secret, an unknown farm or a malformed header', async () => {
      expect((await call({ agentKey: farm.agentKey, secret: `${farm.secret.slice(0, -1)}${farm.secret.endsWith('A') ? 'B' : 'A'}` }, 'GET', '/config')).statusCode).toBe(401);
      expect((await call({ agentKey: other.agentKey, secret: farm.secret }, 'GET', '/config')).statusCode).toBe(401);
      expect((await call({ agentKey: 'no-such-farm', secret: farm.secret }, 'GET', '/config')).statusCode).toBe(401);
      expect((await call(null, 'GET', '/config')).statusCode).toBe(401);
      for (const authorization of [`Bearer ${farm.agentKey}`, `Basic ${farm.agentKey}.${farm.secret}`, `Bearer ${farm.agentKey}.short`, `Bearer ${farm.agentKey}.${farm.secret} x`]) {
        const res = await call(null, 'GET', '/config', undefined, { authorization });
        expect(res.statusCode, authorization).toBe(401);
        expect(body(res).code).toBe('401');
      }
    });

    it('after a secret rotation the old secret fails and the new one works', async () => {
      const rotating = await createFarm(admin, 'uplink-rot');
      expect((await call(rotating, 'GET', '/config')).statusCode).toBe(200);
      const res = await admin.post('/api/agent/rotateSecret', { agentKey: rotating.agentKey });
      const fresh = { agentKey: rotating.agentKey, secret: body<{ secret: string }>(res).data.secret };
      expect((await call(rotating, 'GET', '/config')).statusCode).toBe(401);
      expect((await call(fresh, 'GET', '/config')).statusCode).toBe(200);
      const beat = await postJson(fresh, '/heartbeat', { agentVersion: '1.4.2', startedAt: at(0), netDelayMs: 5, bufferedBatches: 0, miners: 0 });
      expect(beat.statusCode).toBe(200);
    });
  });

  it('GET /config serves the contract defaults to a farm without settings', async () => {
    const res = await call(farm, 'GET', '/config');
    expect(res.statusCode).toBe(200);
    const b = body(res);
    expect(b.code).toBe(0);
    expect(b.data).toEqual(AgentConfig.parse({}));
    expect(b.data).toMatchObject({ pollIntervalSec: 60, offlineAfterMissed: 3, scanEveryCycles: 10, scanRanges: [], poolWhitelist: [] });
  });

  describe('snapshots', () => {
    const N = 50;
    const first = snapshotBatch({ batchSeq: 1, count: N, takenAt: at(1) });

    it('stores a plain-JSON batch once: miners, the farm minute, hourly rows, the farm counters', async () => {
      const before = Date.now();
      const res = await postJson(farm, '/snapshots', first);
      expect(res.statusCode, res.body).toBe(200);
      expect(body(res).data).toEqual({ accepted: N, duplicate: false });

      const s = await stored(farm.agentKey);
      expect(s.miners).toHaveLength(N);
      expect(s.batches).toHaveLength(1);
      expect(s.batches[0]).toMatchObject({ miner_count: N, rolled_up: false });
      expect(Number(s.batches[0]!.batch_seq)).toBe(1);
      expect(s.farm.miner_count).toBe(N);
      expect(new Date(s.farm.last_online_at!).getTime()).toBeGreaterThanOrEqual(before - 1000);

      // Columns of one miner of each kind follow its reading.
      for (const snap of first.snapshots.slice(0, 10)) {
        const m = s.miners.find((r) => r.ip === snap.ip)!;
        expect(m).toMatchObject({ sn: snap.sn, mac: snap.mac, make: snap.make, model: snap.model, family: snap.family, online: snap.online, missed_polls: snap.missedPolls, work_mode: snap.workMode });
        expect(m.rt5s).toBeCloseTo(snap.rt5s, 6);
        expect(m.ideal).toBe(snap.ideal);
        expect(m.temp_max).toBe(readingTempMax(snap));
        expect(m.fault_labels).toEqual(snap.faultLabels);
        expect(m.state).toEqual(snap.state);
        expect(Number(m.elapsed_sec)).toBe(snap.elapsedSec);
        expect(new Date(m.taken_at).toISOString()).toBe(snap.takenAt);
        // The row keeps the reading's fields in its columns and the rest in snapshot; put together, it is the reading as sent.
        expect(fullReading(m as unknown as ReadingColumns)).toEqual(snap);
        expect(m.snapshot).not.toHaveProperty('rt5s');
      }

      // The farm's minute: totals of the cycle.
      expect(s.minutes).toHaveLength(1);
      const minute = s.minutes[0]!;
      const online = first.snapshots.filter((x) => x.online);
      const temps = first.snapshots.map(readingTempMax).filter((v): v is number => v !== null);
      expect(new Date(minute.at).toISOString()).toBe(at(1));
      expect(minute.total).toBe(N);
      expect(minute.online).toBe(online.length);
      expect(minute.online).toBe(45);
      expect(minute.qualified).toBe(first.snapshots.filter((x) => x.state.qualified).length);
      expect(close(minute.real_ghs, online.reduce((a, x) => a + x.rt5s, 0))).toBe(true);
      expect(close(minute.ideal_ghs, first.snapshots.reduce((a, x) => a + x.ideal, 0))).toBe(true);
      expect(minute.temp_max).toBe(Math.max(...temps));
      expect(close(minute.temp_avg!, temps.reduce((a, v) => a + v, 0) / temps.length)).toBe(true);

      // One hourly row per miner, one sample each.
      expect(s.hours).toHaveLength(N);
      for (const h of s.hours) {
        const snap = first.snapshots.find((x) => x.ip === h.ip)!;
        expect(new Date(h.at).toISOString()).toBe(HOUR);
        expect(h).toMatchObject({ samples: 1, online_samples: snap.online ? 1 : 0, temp_max: readingTempMax(snap) });
        expect(close(h.real_sum, snap.rt5s)).toBe(true);
        expect(close(h.ideal_sum, snap.ideal)).toBe(true);
      }
    });

    it('acknowledges a repeated batchSeq as duplicate and changes nothing (JSON or gzip)', async () => {
      const before = await stored(farm.agentKey);
      const again = await postJson(farm, '/snapshots', first);
      expect(body(again).data).toEqual({ accepted: 0, duplicate: true });
      // Same seq, different content: still the stored batch.
      const altered = await postGzip(farm, snapshotBatch({ batchSeq: 1, count: N + 5, takenAt: at(9), rateFactor: 0.5 }));
      expect(altered.statusCode).toBe(200);
      expect(body(altered).data).toEqual({ accepted: 0, duplicate: true });
      expect(await stored(farm.agentKey)).toEqual(before);
    });

    it('accepts gzip and sums a second reading into the same hour', async () => {
      const second = snapshotBatch({ batchSeq: 2, count: N, takenAt: at(2), rateFactor: 1.02 });
      const res = await postGzip(farm, second);
      expect(res.statusCode, res.body).toBe(200);
      expect(body(res).data).toEqual({ accepted: N, duplicate: false });
      const s = await stored(farm.agentKey);
      expect(s.minutes.map((m) => new Date(m.at).toISOString())).toEqual([at(1), at(2)]);
      expect(close(s.minutes[1]!.real_ghs, second.snapshots.filter((x) => x.online).reduce((a, x) => a + x.rt5s, 0))).toBe(true);
      expect(s.hours).toHaveLength(N);
      for (const h of s.hours) {
        const a = first.snapshots.find((x) => x.ip === h.ip)!;
        const b = second.snapshots.find((x) => x.ip === h.ip)!;
        expect(h.samples).toBe(2);
        expect(h.online_samples).toBe((a.online ? 1 : 0) + (b.online ? 1 : 0));
        expect(close(h.real_sum, a.rt5s + b.rt5s)).toBe(true);
        expect(close(h.ideal_sum, a.ideal + b.ideal)).toBe(true);
      }
      const m = s.miners.find((r) => r.ip === minerIp(0))!;
      expect(m.rt5s).toBeCloseTo(second.snapshots[0]!.rt5s, 6);
      expect(new Date(m.taken_at).toISOString()).toBe(at(2));
    });

    it('never lets an older reading overwrite a newer one; the late batch still lands in history', async () => {
      const before = await stored(farm.agentKey);
      // A late roll-up of readings from the previous hour for every miner, plus 5 miners never seen before.
      const late = { ...snapshotBatch({ batchSeq: 3, indexes: [...Array.from({ length: N }, (_, i) => i), 60, 61, 62, 63, 64], takenAt: at(-30), rateFactor: 0.7 }), rolledUp: true, rolledUpFrom: 3, rolledUpTo: 3 };
      const res = await postGzip(farm, late);
      expect(body(res).data).toEqual({ accepted: N + 5, duplicate: false });
      const s = await stored(farm.agentKey);
      const byIp = new Map(before.miners.map((m) => [m.ip, m]));
      for (const m of s.miners) {
        const old = byIp.get(m.ip);
        if (!old) continue;
        expect(m.rt5s).toBe(old.rt5s);
        expect(m.snapshot).toEqual(old.snapshot);
        expect(new Date(m.taken_at).toISOString()).toBe(at(2));
        expect(m.version).toBe(old.version);
      }
      expect(s.miners).toHaveLength(N + 5);
      expect(s.farm.miner_count).toBe(N + 5);
      expect(s.batches.at(-1)).toMatchObject({ rolled_up: true, miner_count: N + 5 });
      // Previous hour: one sample per miner of the late batch; this hour untouched.
      const prevHour = s.hours.filter((h) => new Date(h.at).toISOString() === at(-60));
      expect(prevHour).toHaveLength(N + 5);
      expect(prevHour.every((h) => h.samples === 1)).toBe(true);
      expect(s.hours.filter((h) => new Date(h.at).toISOString() === HOUR)).toEqual(before.hours);
      expect(s.minutes.map((m) => new Date(m.at).toISOString())).toEqual([at(-30), at(1), at(2)]);

      // Mixed batch: even miners newer, odd miners older than what is stored.
      const newer = snapshotBatch({ batchSeq: 4, indexes: [0, 2, 4], takenAt: at(3), rateFactor: 1.1 });
      const older = snapshotBatch({ batchSeq: 4, indexes: [1, 3, 5], takenAt: at(1, 30), rateFactor: 0.2 });
      const mixed = { ...newer, snapshots: [...newer.snapshots, ...older.snapshots] };
      expect(body(await postJson(farm, '/snapshots', mixed)).data).toEqual({ accepted: 6, duplicate: false });
      const after = await stored(farm.agentKey);
      const row = (i: number) => after.miners.find((m) => m.ip === minerIp(i))!;
      for (const i of [0, 2, 4]) expect(new Date(row(i).taken_at).toISOString()).toBe(at(3));
      for (const i of [1, 3, 5]) {
        expect(new Date(row(i).taken_at).toISOString()).toBe(at(2));
        expect(row(i).rt5s).toBe(byIp.get(minerIp(i))!.rt5s);
      }
    });

    it('keeps the current hour on the miner row and writes its history row when the next hour starts', async () => {
      // Its own farm: 3 miners read twice in 08:00, a late reading of 08:05 (older than the stored one: straight to the
      // history), then a reading of 09:01, which closes 08:00.
      const hours = await createFarm(admin, 'uplink-hours');
      const history = async () =>
        (await sql<{ ip: string; at: Date; samples: number; real_sum: number; ideal_sum: number; temp_max: number | null; online_samples: number }>`
          select m.ip, h.at, h.samples, h.real_sum, h.ideal_sum, h.temp_max, h.online_samples
          from miner_stats_hour h join miners m on m.id = h.miner_id where m.agent_key = ${hours.agentKey} order by m.ip, h.at
        `.execute(t.db)).rows;
      const batches = [
        snapshotBatch({ batchSeq: 1, count: 3, takenAt: at(10) }),
        snapshotBatch({ batchSeq: 2, count: 3, takenAt: at(20), rateFactor: 1.1 }),
        { ...snapshotBatch({ batchSeq: 3, count: 3, takenAt: at(5), rateFactor: 0.9 }), rolledUp: true, rolledUpFrom: 3, rolledUpTo: 3 },
      ];
      for (const b of batches.slice(0, 2)) expect(body(await postGzip(hours, b)).data).toEqual({ accepted: 3, duplicate: false });
      expect(await history()).toEqual([]); // the hour is open: on the rows only
      expect((await stored(hours.agentKey)).hours.map((h) => h.samples)).toEqual([2, 2, 2]);

      expect(body(await postGzip(hours, batches[2]!)).data).toEqual({ accepted: 3, duplicate: false });
      expect((await history()).map((h) => h.samples)).toEqual([1, 1, 1]); // the late readings
      expect((await stored(hours.agentKey)).hours.map((h) => h.samples)).toEqual([3, 3, 3]);

      const next = snapshotBatch({ batchSeq: 4, count: 3, takenAt: at(61), rateFactor: 1.2 });
      expect(body(await postGzip(hours, next)).data).toEqual({ accepted: 3, duplicate: false });
      expect(body(await postGzip(hours, next)).data).toEqual({ accepted: 0, duplicate: true });
      const rows = await history();
      expect(rows).toHaveLength(3);
      for (const h of rows) {
        const readings = batches.map((b) => b.snapshots.find((x) => x.ip === h.ip)!);
        expect(new Date(h.at).toISOString()).toBe(HOUR);
        expect(h.samples).toBe(3);
        expect(close(h.real_sum, readings.reduce((a, x) => a + x.rt5s, 0))).toBe(true);
        expect(close(h.ideal_sum, readings.reduce((a, x) => a + x.ideal, 0))).toBe(true);
        expect(h.online_samples).toBe(readings.filter((x) => x.online).length);
        expect(h.temp_max).toBe(Math.max(...readings.map((x) => readingTempMax(x)!)));
      }
      const seen = (await stored(hours.agentKey)).hours;
      expect(seen.map((h) => [h.ip, new Date(h.at).toISOString(), h.samples])).toEqual(
        [0, 1, 2].flatMap((i) => [[minerIp(i), HOUR, 3], [minerIp(i), at(60), 1]]),
      );
      const m = await t.db.selectFrom('miners').select(['stat_hour_at', 'stat_hour_samples', 'stat_hour_temp_max']).where('agent_key', '=', hours.agentKey).where('ip', '=', minerIp(0)).executeTakeFirstOrThrow();
      expect({ at: new Date(m.stat_hour_at!).toISOString(), samples: m.stat_hour_samples, tempMax: m.stat_hour_temp_max }).toEqual({ at: at(60), samples: 1, tempMax: readingTempMax(next.snapshots[0]!) });
    });

    it('refuses a malformed batch with 400 and stores nothing; the seq stays usable', async () => {
      const before = await stored(farm.agentKey);
      const good = snapshotBatch({ batchSeq: 5, count: 3, takenAt: at(4) });
      const bad: unknown[] = [
        { ...good, snapshots: [{ ...good.snapshots[0], faultLabels: ['smoke'] }, ...good.snapshots.slice(1)] },
        { ...good, snapshots: [{ ...good.snapshots[0], ip: undefined }] },
        { ...good, snapshots: [{ ...good.snapshots[0], rt5s: -1 }] },
        { ...good, snapshots: [{ ...good.snapshots[0], pools: [...good.snapshots[0]!.pools, ...good.snapshots[0]!.pools] }] },
        { ...good, batchSeq: 0 },
        { ...good, batchSeq: 'five' },
        { ...good, snapshots: 'none' },
        { batchSeq: 5 },
      ];
      for (const payload of bad) {
        const res = await postJson(farm, '/snapshots', payload);
        expect(res.statusCode, JSON.stringify(payload).slice(0, 200)).toBe(400);
        expect(body(res).code).not.toBe(0);
      }
      const gz = await postGzip(farm, bad[0] as SnapshotBatch);
      expect(gz.statusCode).toBe(400);
      const notJson = await call(farm, 'POST', '/snapshots', gzipSync('{"batchSeq": 5, '), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      expect(notJson.statusCode).toBe(400);
      const notGzip = await call(farm, 'POST', '/snapshots', Buffer.from('definitely not gzip'), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      expect(notGzip.statusCode).toBeGreaterThanOrEqual(400);
      expect(notGzip.statusCode).toBeLessThan(500);
      expect(await stored(farm.agentKey)).toEqual(before);

      expect(body(await postJson(farm, '/snapshots', good)).data).toEqual({ accepted: 3, duplicate: false });
    });

    it('takes the latest of two readings of one ip in the same upload, once', async () => {
      const ip = minerIp(70);
      const a = snapshotBatch({ batchSeq: 7, indexes: [70], takenAt: at(7), rateFactor: 1.05 }).snapshots[0]!;
      const b = snapshotBatch({ batchSeq: 7, indexes: [70], takenAt: at(6), rateFactor: 0.5 }).snapshots[0]!;
      const res = await postJson(farm, '/snapshots', { ...snapshotBatch({ batchSeq: 7, count: 0, takenAt: at(7) }), snapshots: [a, b] });
      expect(res.statusCode, res.body).toBe(200);
      expect(body(res).data).toEqual({ accepted: 2, duplicate: false });
      const s = await stored(farm.agentKey);
      const m = s.miners.find((r) => r.ip === ip)!;
      expect(new Date(m.taken_at).toISOString()).toBe(at(7));
      expect(m.rt5s).toBe(a.rt5s);
      const hour = s.hours.filter((h) => h.ip === ip);
      expect(hour).toHaveLength(1);
      expect(hour[0]).toMatchObject({ samples: 1 });
      expect(s.minutes.find((x) => new Date(x.at).toISOString() === at(7))).toMatchObject({ total: 1, online: 1 });
    });

    it('keeps farms apart: the same ips on another farm are other miners', async () => {
      const mine = await stored(farm.agentKey);
      const res = await postGzip(other, snapshotBatch({ batchSeq: 1, count: 10, takenAt: at(5) }));
      expect(body(res).data).toEqual({ accepted: 10, duplicate: false });
      const b = await stored(other.agentKey);
      expect(b.miners).toHaveLength(10);
      expect(b.farm.miner_count).toBe(10);
      expect(await stored(farm.agentKey)).toEqual(mine);
      expect(mine.farm.miner_count).toBe(mine.miners.length);
    });

    it('accepts an empty cycle and counts it once', async () => {
      const res = await postJson(farm, '/snapshots', snapshotBatch({ batchSeq: 6, count: 0, takenAt: at(6) }));
      expect(body(res).data).toEqual({ accepted: 0, duplicate: false });
      expect(body(await postJson(farm, '/snapshots', snapshotBatch({ batchSeq: 6, count: 0, takenAt: at(6) }))).data).toEqual({ accepted: 0, duplicate: true });
    });

    it('applies a batch a chunk per transaction (PGlite): a batch cut short is finished by its retry, each reading counted once', async () => {
      const cut = await createFarm(admin, 'uplink-cut');
      const one = snapshotBatch({ batchSeq: 1, count: 50, takenAt: at(1) });
      const two = snapshotBatch({ batchSeq: 2, count: 50, takenAt: at(2), rateFactor: 1.02 });
      expect(await ingestSnapshots(t.db, cut.agentKey, one, { chunkSize: 7, chunkTransactions: true })).toEqual({ accepted: 50, duplicate: false });
      // The second cycle stops after 3 of its 8 chunks (a crash): 21 miners have it, the batch is not complete.
      await expect(ingestSnapshots(t.db, cut.agentKey, two, { chunkSize: 7, failAfterChunks: 3, chunkTransactions: true })).rejects.toThrow();
      const half = await stored(cut.agentKey);
      expect(half.hours.filter((h) => h.samples === 2)).toHaveLength(21);
      expect(half.batches.map((b) => b.complete)).toEqual([true, false]);
      expect(half.minutes).toHaveLength(1);
      // The agent's retry of the same upload, and a second copy of it at the same time: the rest is applied once (a
      // copy that meets a chunk the other applied fails; the agent's next retry of it answers duplicate).
      const retry = { chunkSize: 7, chunkTransactions: true };
      const retries = await Promise.allSettled([ingestSnapshots(t.db, cut.agentKey, two, retry), ingestSnapshots(t.db, cut.agentKey, two, retry)]);
      expect(retries.filter((r) => r.status === 'fulfilled').map((r) => r.value)).toContainEqual({ accepted: 50, duplicate: false });
      const s = await stored(cut.agentKey);
      expect(s.hours).toHaveLength(50);
      for (const h of s.hours) {
        const a = one.snapshots.find((x) => x.ip === h.ip)!;
        const b = two.snapshots.find((x) => x.ip === h.ip)!;
        expect(h.samples).toBe(2);
        expect(close(h.real_sum, a.rt5s + b.rt5s)).toBe(true);
      }
      expect(s.minutes.map((m) => m.total)).toEqual([50, 50]);
      expect(s.batches.map((b) => b.complete)).toEqual([true, true]);
      expect(await t.db.selectFrom('snapshot_batch_chunks').selectAll().where('agent_key', '=', cut.agentKey).execute()).toEqual([]);
      expect(body(await postJson(cut, '/snapshots', two)).data).toEqual({ accepted: 0, duplicate: true });
      expect(await stored(cut.agentKey)).toEqual(s);

      // In one transaction (PostgreSQL's way), a batch cut short leaves nothing, and its retry applies it whole.
      const three = snapshotBatch({ batchSeq: 3, count: 50, takenAt: at(3) });
      await expect(ingestSnapshots(t.db, cut.agentKey, three, { chunkSize: 7, failAfterChunks: 3, chunkTransactions: false })).rejects.toThrow();
      expect(await stored(cut.agentKey)).toEqual(s);
      expect(await ingestSnapshots(t.db, cut.agentKey, three, { chunkSize: 7, chunkTransactions: false })).toEqual({ accepted: 50, duplicate: false });
      expect((await stored(cut.agentKey)).hours.every((h) => h.samples === 3)).toBe(true);
    });

    it('cuts an upload in chunks of the database: 1,000 miners on PGlite (shorter waits for the console), 2,000 on PostgreSQL', async () => {
      const f = await createFarm(admin, 'uplink-chunk-size');
      const size = chunkSizeOf(t.db);
      expect(size).toBe(isEmbedded(t.db) ? EMBEDDED_CHUNK : CHUNK);
      expect(EMBEDDED_CHUNK).toBe(1000);
      expect(CHUNK).toBe(2000);
      // One miner more than a chunk, cut after the first chunk: exactly one chunk's miners are stored.
      const batch = snapshotBatch({ batchSeq: 1, count: size + 1, takenAt: at(1) });
      await expect(ingestSnapshots(t.db, f.agentKey, batch, { failAfterChunks: 1, chunkTransactions: true })).rejects.toThrow();
      expect((await stored(f.agentKey)).miners).toHaveLength(size);
    });
  });

  it('POST /heartbeat shows the farm online with its delay, version and host info', async () => {
    const hb = await createFarm(admin, 'uplink-hb');
    expect(body(await admin.get('/api/agent/status', { agentKey: hb.agentKey })).data).toMatchObject({ isOnline: false, netDelay: 0 });
    const host = { hostname: 'farm-nuc-01', os: 'Linux 6.1.0-18-amd64', cpuCores: 4, memoryMb: 7842, diskFreeMb: 90112, uptimeSec: 86400, ip: '192.168.1.20' };
    const res = await postJson(hb, '/heartbeat', { agentVersion: '1.4.2', startedAt: at(0), netDelayMs: 42.4, bufferedBatches: 0, miners: 1200, host });
    expect(res.statusCode, res.body).toBe(200);
    expect(Number.isNaN(Date.parse(body<{ serverTime: string }>(res).data.serverTime))).toBe(false);

    const status = body<{ isOnline: boolean; netDelay: number; lastOnlineAt: string }>(await admin.get('/api/agent/status', { agentKey: hb.agentKey })).data;
    expect(status).toMatchObject({ isOnline: true, netDelay: 42 });
    expect(Date.now() - Date.parse(status.lastOnlineAt)).toBeLessThan(60_000);
    expect(body(await admin.get('/api/agent/info', { agentKey: hb.agentKey })).data).toMatchObject({ version: '1.4.2' });
    const detail = body(await admin.get('/api/agent/hostInfo/detail', { agentKey: hb.agentKey })).data;
    expect(detail).toMatchObject({ agentKey: hb.agentKey, isOnline: true, netDelay: 42, version: '1.4.2', ...host });

    // Without host: the stored host info stays.
    await postJson(hb, '/heartbeat', { agentVersion: '1.4.3', startedAt: at(0), netDelayMs: 7, bufferedBatches: 2, miners: 1200 });
    expect(body(await admin.get('/api/agent/hostInfo/detail', { agentKey: hb.agentKey })).data).toMatchObject({ netDelay: 7, version: '1.4.3', hostname: 'farm-nuc-01' });
    expect((await postJson(hb, '/heartbeat', { agentVersion: '1', startedAt: at(0), netDelayMs: -1, bufferedBatches: 0, miners: 0 })).statusCode).toBe(400);
  });

  describe('tasks', () => {
    const insertTask = async (agentKey: string, ips: string[], createdAt?: Date) =>
      t.db
        .insertInto('agent_tasks')
        .values({
          agent_key: agentKey,
          op: 'set-pools',
          params: JSON.stringify({ pools: [{ url: 'stratum+tcp://btc.pool-one.example:3333', user: 'farm', password: 'x' }], workerSuffix: 'ip' }),
          targets: JSON.stringify(ips.map((ip) => ({ ip }))),
          target_count: ips.length,
          created_by: null,
          ...(createdAt ? { created_at: createdAt } : {}),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    const task = (id: string) => t.db.selectFrom('agent_tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const results = (id: string) => t.db.selectFrom('agent_task_results').select(['ip', 'ok', 'reason']).where('task_id', '=', id).orderBy('ip').execute();

    it('hands out pending tasks oldest first and marks them running', async () => {
      const { id: later } = await insertTask(farm.agentKey, [minerIp(2)]);
      const { id: earlier } = await insertTask(farm.agentKey, [minerIp(0), minerIp(1)], new Date(Date.now() - 60_000));
      await insertTask(other.agentKey, [minerIp(0)]);
      const res = await call(farm, 'GET', '/tasks');
      expect(res.statusCode).toBe(200);
      const list = body<{ id: string; op: string; params: unknown; targets: unknown; createdAt: string }[]>(res).data;
      expect(list.map((x) => x.id)).toEqual([earlier, later]);
      expect(list[0]).toMatchObject({
        op: 'set-pools',
        params: { pools: [{ url: 'stratum+tcp://btc.pool-one.example:3333', user: 'farm', password: 'x' }], workerSuffix: 'ip' },
        targets: [{ ip: minerIp(0) }, { ip: minerIp(1) }],
      });
      const row = await task(earlier);
      expect(row.status).toBe('running');
      expect(row.picked_at).not.toBeNull();
      // Picked again (the agent restarted): still handed out, picked_at kept.
      const again = body<{ id: string }[]>(await call(farm, 'GET', '/tasks')).data;
      expect(again.map((x) => x.id)).toEqual([earlier, later]);
      expect(new Date((await task(earlier)).picked_at!).getTime()).toBe(new Date(row.picked_at!).getTime());
    });

    it('merges results per ip and closes the task on done', async () => {
      const { id } = await insertTask(farm.agentKey, [minerIp(10), minerIp(11), minerIp(12)]);
      await call(farm, 'GET', '/tasks');
      const part = await postJson(farm, `/tasks/${id}/results`, { results: [{ ip: minerIp(10), ok: true }, { ip: minerIp(11), ok: false, reason: 'unreachable' }], done: false });
      expect(part.statusCode, part.body).toBe(200);
      expect(body(part).data).toEqual({ received: 2 });
      expect((await task(id)).status).toBe('running');

      const last = await postJson(farm, `/tasks/${id}/results`, { results: [{ ip: minerIp(11), ok: true }, { ip: minerIp(12), ok: false, reason: 'auth-failed:root' }], done: true });
      expect(body(last).data).toEqual({ received: 2 });
      expect(await results(id)).toEqual([
        { ip: minerIp(10), ok: true, reason: null },
        { ip: minerIp(11), ok: true, reason: null },
        { ip: minerIp(12), ok: false, reason: 'auth-failed:root' },
      ]);
      const row = await task(id);
      expect(row.status).toBe('done');
      expect(row.done_at).not.toBeNull();
      const open = body<{ id: string }[]>(await call(farm, 'GET', '/tasks')).data;
      expect(open.map((x) => x.id)).not.toContain(id);
      expect((await task(id)).status).toBe('done');
    });

    it("refuses another farm's task, an unknown id and a malformed report", async () => {
      const { id } = await insertTask(farm.agentKey, [minerIp(20)]);
      const foreign = await postJson(other, `/tasks/${id}/results`, { results: [{ ip: minerIp(20), ok: true }], done: true });
      expect(foreign.statusCode).toBe(404);
      expect((await postJson(farm, `/tasks/${randomUUID()}/results`, { results: [], done: true })).statusCode).toBe(404);
      expect((await postJson(farm, '/tasks/not-a-uuid/results', { results: [], done: true })).statusCode).toBe(400);
      expect((await postJson(farm, `/tasks/${id}/results`, { results: [{ ip: minerIp(20) }], done: true })).statusCode).toBe(400);
      expect(await results(id)).toEqual([]);
      expect((await task(id)).status).toBe('pending');
      expect(body<{ id: string }[]>(await call(other, 'GET', '/tasks')).data.map((x) => x.id)).not.toContain(id);
    });
  });

  it("leaves the miners taken off shelf out of the farm's minute (through the upload route and a direct ingest)", async () => {
    const shelf = await createFarm(admin, 'uplink-shelf');
    const minutes = () => t.db.selectFrom('farm_stats_minute').selectAll().where('agent_key', '=', shelf.agentKey).orderBy('at').execute();
    const onShelfTotals = (b: SnapshotBatch, off: Set<string>) => {
      const on = b.snapshots.filter((x) => !off.has(x.ip));
      return { total: on.length, online: on.filter((x) => x.online).length, real: on.filter((x) => x.online).reduce((a, x) => a + x.rt5s, 0), ideal: on.reduce((a, x) => a + x.ideal, 0) };
    };
    const first = snapshotBatch({ batchSeq: 1, count: 8, takenAt: at(1) });
    expect((await postGzip(shelf, first)).statusCode).toBe(200);
    expect((await minutes())[0]).toMatchObject({ total: 8 });

    // Two miners go to the repair room; the agent still polls them.
    const off = new Set([minerIp(2), minerIp(5)]);
    const res = await admin.post('/api/minerv2/batchOffline', { agentKey: shelf.agentKey, ips: [...off].join(',') });
    expect(res.statusCode, res.body).toBe(200);
    const second = snapshotBatch({ batchSeq: 2, count: 8, takenAt: at(2), rateFactor: 1.01 });
    expect((await postGzip(shelf, second)).statusCode).toBe(200);
    const third = snapshotBatch({ batchSeq: 3, count: 8, takenAt: at(3), rateFactor: 0.99 });
    expect(await ingestSnapshots(t.db, shelf.agentKey, third)).toEqual({ accepted: 8, duplicate: false });
    const rows = await minutes();
    expect(rows).toHaveLength(3);
    for (const [row, batch] of [[rows[1]!, second], [rows[2]!, third]] as const) {
      const want = onShelfTotals(batch, off);
      expect(row).toMatchObject({ total: 6, online: want.online });
      expect(close(row.real_ghs, want.real)).toBe(true);
      expect(close(row.ideal_ghs, want.ideal)).toBe(true);
    }
    // The dashboard's figures of the same cycle count the same miners.
    const index = body<{ total: number; online: number }>(await admin.get('/api/miner/indexStat', { agentKey: shelf.agentKey })).data;
    expect(index).toMatchObject({ total: 6, online: rows[2]!.online });
  });

  it('stores nothing for a farm deleted while its agent still uploads', async () => {
    const gone = await createFarm(admin, 'uplink-gone');
    await admin.post('/api/agent/deletev2', { agentKey: gone.agentKey });
    expect((await postGzip(gone, snapshotBatch({ batchSeq: 1, count: 2, takenAt: at(0) }))).statusCode).toBe(401);
    const n = await sql<{ n: number }>`select count(*)::int as n from snapshot_batches where agent_key = ${gone.agentKey}`.execute(t.db);
    expect(n.rows[0]!.n).toBe(0);
  });
});
