import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '@sim/fleet';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import type { IdentifiedMiner } from '@agent/miner-types';
import { Poller } from '@agent/poller';
import { scanRanges } from '@agent/scanner/scanner';
import { simDriverEnv } from '../support/sim-driver-env';

/**
 * The agent loop's cycles (json + pack) over real sockets against the simulator on 127.58.0.0/24: the snapshot texts
 * go straight into the cycle's gzip (snapshot-texts.ts), and the previous cycle's gzip is where a miner's last
 * snapshot comes from: repeated on a missed poll, read by an operation, rewritten when duplicate serials change.
 */

const CIDR = '127.58.0.0/24';
const opts = { offlineAfterMissed: 2, poolWhitelist: [], concurrency: 20 };
let fleet: Fleet;
let found: IdentifiedMiner[];
let poller: Poller;

async function packedCycle(): Promise<MinerSnapshot[]> {
  const r = await poller.pollCycle({ ...opts, json: true, pack: true });
  expect(r.packed.parts).toHaveLength(1);
  const snaps = JSON.parse(`[${zlib.gunzipSync(r.packed.parts[0]!).toString('utf8')}]`) as MinerSnapshot[];
  expect(snaps.length).toBe(r.packed.count);
  expect(new Set(snaps.map((s) => s.ip)).size).toBe(snaps.length);
  return snaps;
}

const byIp = (snaps: MinerSnapshot[], ip: string): MinerSnapshot => snaps.find((s) => s.ip === ip)!;

beforeAll(async () => {
  fleet = await startFleet({ miners: 40, cidr: CIDR, rpcPort: 0, webPort: 0, whatsminerV3Port: 0, seed: 58 });
  const env = simDriverEnv(fleet, { rpcTimeoutMs: 3000, webTimeoutMs: 3000 });
  found = (await scanRanges([{ ipBegin: CIDR }], env, { concurrency: 50 })).miners;
  expect(found.length).toBe(40);
  poller = new Poller(env);
  poller.upsertMiners(found);
});

afterAll(async () => {
  await fleet?.close();
});

describe('packed cycles', () => {
  it('gzips every snapshot once; a missed poll repeats the snapshot kept in the previous cycle’s gzip', async () => {
    const first = await packedCycle();
    expect(first.length).toBe(40);
    expect(first.every((s) => s.online && s.missedPolls === 0)).toBe(true);
    const m = fleet.miners.find((x) => x.ip === found.find((f) => f.family === 'antminer-stock')!.ip)!;
    // between cycles the last snapshot is read back from the sealed gzip
    expect(poller.lastSnapshot(m.ip)).toEqual(byIp(first, m.ip));

    m.injectFault('offline', true);
    const missed = byIp(await packedCycle(), m.ip);
    const before = byIp(first, m.ip);
    expect(missed).toMatchObject({ online: true, missedPolls: 1, sn: before.sn, rt5s: before.rt5s, takenAt: before.takenAt });
    expect(missed.boards).toEqual(before.boards);
    expect(byIp(await packedCycle(), m.ip)).toMatchObject({ online: false, missedPolls: 2, sn: before.sn });
    m.injectFault('offline', false);
    const back = byIp(await packedCycle(), m.ip);
    expect(back).toMatchObject({ online: true, missedPolls: 0 });
    expect(poller.lastSnapshot(m.ip)).toEqual(back);
  });

  it('marks duplicate serials in the gzip, also when they appear or go between cycles', async () => {
    const [x, y] = found.filter((f) => f.family === 'antminer-stock').slice(0, 2).map((f) => fleet.miners.find((s) => s.ip === f.ip)!);
    const ownSerial = (await packedCycle()).find((s) => s.ip === y!.ip)!.sn;
    const twin = 'TWINSERIAL0000058';
    x!.setSerial(twin);
    y!.setSerial(twin);
    poller.invalidateDetail(x!.ip);
    poller.invalidateDetail(y!.ip);
    const dupLabelled = (snaps: MinerSnapshot[]) => snaps.filter((s) => s.faultLabels.includes('duplicate-sn')).map((s) => s.ip).sort();
    // appeared: found at the end of the cycle, the gzip written again with both marked
    const appeared = await packedCycle();
    expect(dupLabelled(appeared)).toEqual([x!.ip, y!.ip].sort());
    expect(poller.lastSnapshot(x!.ip)?.faultLabels).toContain('duplicate-sn');
    // still there: marked as the snapshots are taken
    expect(dupLabelled(await packedCycle())).toEqual([x!.ip, y!.ip].sort());
    // gone: the marks are taken off again
    y!.setSerial(ownSerial);
    poller.invalidateDetail(y!.ip);
    const gone = await packedCycle();
    expect(dupLabelled(gone)).toEqual([]);
    expect(byIp(gone, y!.ip).sn).toBe(ownSerial);
    expect(poller.lastSnapshot(x!.ip)?.faultLabels).not.toContain('duplicate-sn');
  });

  it('seals a cycle that was never finished when the next one starts', async () => {
    // a poll thread's cycle whose `finish` never came (the agent stopped in between)
    const unfinished = await poller.pollCycle({ ...opts, json: true, items: true });
    expect(unfinished.items.length).toBe(40);
    const ip = found[5]!.ip;
    const kept = poller.lastSnapshot(ip);
    expect(kept?.ip).toBe(ip);
    const next = await packedCycle();
    expect(next.length).toBe(40);
    expect(poller.lastSnapshot(ip)).toEqual(byIp(next, ip));
    expect(Date.parse(byIp(next, ip).takenAt)).toBeGreaterThanOrEqual(Date.parse(kept!.takenAt));
  });
});
