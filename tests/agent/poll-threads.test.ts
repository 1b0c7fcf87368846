import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '@sim/fleet';
import { AgentTask } from '@shared/schemas/agent-uplink';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { runTask } from '@agent/executor';
import type { DriverEnv, IdentifiedMiner } from '@agent/miner-types';
import { packedBatch } from '@agent/packed-snapshots';
import { Poller } from '@agent/poller';
import { ShardedPoller, shardOf } from '@agent/sharded-poller';
import { scanRanges } from '@agent/scanner/scanner';
import { simDriverEnv } from '../support/sim-driver-env';

/**
 * The sharded poller over real sockets against the simulator on 127.57.0.0/24 (a mixed fleet of 90): the fleet moves
 * to two poll threads (the main thread's share and a worker) once it reaches the threshold, with its state; a threaded cycle gives what the main-thread
 * poller gives, in IP order; duplicate serials are found across threads; missed polls and offline still count per
 * miner; operations run on the main thread and their snapshot comes from the owning thread; a dead thread is
 * started again and its share polled in the same cycle.
 */

const CIDR = '127.57.0.0/24';
const opts = { offlineAfterMissed: 2, poolWhitelist: [], concurrency: 40 };
let fleet: Fleet;
let env: DriverEnv;
let found: IdentifiedMiner[];
let threaded: ShardedPoller;
const logs: string[] = [];

async function cycle(p: { pollCycle: Poller['pollCycle'] }): Promise<MinerSnapshot[]> {
  const r = await p.pollCycle({ ...opts, json: true });
  return r.snapshotsJson.map((t) => JSON.parse(t) as MinerSnapshot);
}

beforeAll(async () => {
  fleet = await startFleet({ miners: 90, cidr: CIDR, rpcPort: 0, webPort: 0, whatsminerV3Port: 0, seed: 57, rebootDarkMs: 500 });
  env = simDriverEnv(fleet, { rpcTimeoutMs: 3000, webTimeoutMs: 3000 });
  found = (await scanRanges([{ ipBegin: CIDR }], env, { concurrency: 100 })).miners;
  expect(found.length).toBe(90);
});

afterAll(async () => {
  await threaded?.close();
  await fleet?.close();
});

describe('poll threads', () => {
  it('polls on the main thread below the threshold and moves the fleet, with its state, to the threads at it', async () => {
    threaded = new ShardedPoller(env, { threads: 2, shardFromMiners: 80, log: (l) => logs.push(l) });
    threaded.upsertMiners(found.slice(0, 60));
    expect(threaded.threadCount).toBe(0);
    const first = await cycle(threaded);
    expect(first.length).toBe(60);
    const offline = fleet.miners.find((m) => m.ip === found[0]!.ip)!;
    offline.injectFault('offline', true);
    const missed = await cycle(threaded);
    expect(missed.find((s) => s.ip === offline.ip)).toMatchObject({ online: true, missedPolls: 1 });

    threaded.upsertMiners(found);
    expect(threaded.threadCount).toBe(2);
    expect(threaded.size).toBe(90);
    expect(logs).toEqual(['90 miners: polling in 2 threads']);
    // what the main thread knew came along: the last snapshot, and the missed poll (the second one makes it offline)
    expect((await threaded.lastSnapshot(offline.ip))?.missedPolls).toBe(1);
    const after = await cycle(threaded);
    expect(after.find((s) => s.ip === offline.ip)).toMatchObject({ online: false, missedPolls: 2 });
    offline.injectFault('offline', false);
    const back = await cycle(threaded);
    expect(back.find((s) => s.ip === offline.ip)).toMatchObject({ online: true, missedPolls: 0 });
    // two poll threads: the main thread's share and one worker (the only one reporting a heap of its own)
    const r = await threaded.pollCycle({ ...opts, json: true });
    expect(r.ok + r.failed).toBe(90);
    expect(r.threadHeapBytes).toHaveLength(1);
  });

  it('gives the main-thread poller’s snapshots, in IP order, with every miner in exactly one thread', async () => {
    const shares = [0, 0];
    for (const m of found) shares[shardOf(m.ip, 2)]!++;
    expect(Math.min(...shares)).toBeGreaterThan(20);

    const local = new Poller(env);
    local.upsertMiners(found);
    const [a, b] = await Promise.all([cycle(threaded), cycle(local)]);
    expect(a.map((s) => s.ip)).toEqual(b.map((s) => s.ip));
    const order = [...a.map((s) => s.ip)].sort((x, y) => ipKey(x) - ipKey(y));
    expect(a.map((s) => s.ip)).toEqual(order);
    const view = (s: MinerSnapshot) => ({ ip: s.ip, sn: s.sn, mac: s.mac, model: s.model, family: s.family, online: s.online, labels: s.faultLabels });
    expect(a.map(view)).toEqual(b.map(view));
    expect(a.every((s) => s.online && s.missedPolls === 0)).toBe(true);
  });

  it('finds a serial shared by miners of different threads', async () => {
    const x = fleet.miners.find((m) => m.ip === found.find((f) => shardOf(f.ip, 2) === 0 && f.family === 'antminer-stock')!.ip)!;
    const y = fleet.miners.find((m) => m.ip === found.find((f) => shardOf(f.ip, 2) === 1 && f.family === 'antminer-stock')!.ip)!;
    const twin = 'TWINSERIAL0000057';
    x.setSerial(twin);
    y.setSerial(twin);
    threaded.invalidateDetail(x.ip);
    threaded.invalidateDetail(y.ip);
    const r = await threaded.pollCycle({ ...opts, json: true });
    const snaps = r.snapshotsJson.map((t) => JSON.parse(t) as MinerSnapshot);
    expect(r.detailReads).toBeGreaterThanOrEqual(2);
    for (const ip of [x.ip, y.ip]) expect(snaps.find((s) => s.ip === ip)).toMatchObject({ sn: twin, faultLabels: expect.arrayContaining(['duplicate-sn']) });
    expect(snaps.filter((s) => s.faultLabels.includes('duplicate-sn')).length).toBe(2);
  });

  it('packs for the spool in the threads: one gzip per share, every miner of the share once, duplicates marked', async () => {
    const r = await threaded.pollCycle({ ...opts, json: true, pack: true });
    expect(r.snapshotsJson).toEqual([]);
    const packed = r.packed;
    expect(packed.count).toBe(90);
    expect(packed.parts).toHaveLength(2);
    packed.parts.forEach((part, i) => {
      const share = JSON.parse(`[${zlib.gunzipSync(part).toString('utf8')}]`) as MinerSnapshot[];
      // in the order the miners answered (written to the gzip as they do: snapshot-texts.ts)
      const ips = share.map((s) => s.ip);
      expect(new Set(ips).size).toBe(ips.length);
      expect(ips.every((ip) => shardOf(ip, 2) === i)).toBe(true);
    });
    const batch = JSON.parse(zlib.gunzipSync(packedBatch('{"snapshots":[', packed, ']}')).toString('utf8')) as { snapshots: MinerSnapshot[] };
    expect(batch.snapshots.map((s) => s.ip).sort()).toEqual(found.map((f) => f.ip).sort());
    // the twins of the test before, one in each share, are still marked in both
    expect(batch.snapshots.filter((s) => s.faultLabels.includes('duplicate-sn')).map((s) => s.sn)).toEqual(['TWINSERIAL0000057', 'TWINSERIAL0000057']);
  });

  it('runs an operation on the main thread with the snapshot of the owning thread', async () => {
    const target = found.find((f) => f.family === 'antminer-stock')!;
    const sim = fleet.miners.find((m) => m.ip === target.ip)!;
    const task = AgentTask.parse({ id: 'blink-threads', op: 'blink-on', params: {}, targets: [{ ip: target.ip }, { ip: '127.57.0.250' }] });
    const touched: string[] = [];
    const results = await runTask(
      task,
      {
        env: () => env,
        handle: (ip) => threaded.handle(ip),
        snapshot: (ip) => threaded.lastSnapshot(ip),
        remove: (ip) => void threaded.removeMiner(ip),
        touched: (ip) => {
          touched.push(ip);
          threaded.invalidateDetail(ip);
        },
      },
      { pacing: { packetSize: 10, pauseMs: 0, concurrency: 5 } },
    );
    expect(results).toEqual([
      { ip: target.ip, ok: true },
      { ip: '127.57.0.250', ok: false, reason: 'unknown-miner' },
    ]);
    expect(sim.blink).toBe(true);
    expect(touched).toEqual([target.ip]);
    const snaps = await cycle(threaded);
    expect(snaps.find((s) => s.ip === target.ip)?.blink).toBe(true);
  });

  it('starts a dead poll thread again and still polls its share in the same cycle', async () => {
    const shards = (threaded as unknown as { shards: Array<{ terminate(): Promise<number> }> }).shards;
    await shards[1]!.terminate();
    const r = await threaded.pollCycle({ ...opts, json: true });
    expect(r.snapshotsJson.length).toBe(90);
    expect(r.ok).toBe(90);
    expect(threaded.threadCount).toBe(2);
    expect(logs.some((l) => /^poll thread 1 started again with \d+ miners$/.test(l))).toBe(true);
  });
});

function ipKey(ip: string): number {
  return ip.split('.').reduce((acc, p) => acc * 256 + Number(p), 0);
}
