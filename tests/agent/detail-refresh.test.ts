import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet, type SimMiner } from '@sim/fleet';
import type { AgentTask } from '@shared/schemas/agent-uplink';
import { runTask } from '@agent/executor';
import { DEFAULT_DETAIL_EVERY_CYCLES, detailStamp, type DriverEnv } from '@agent/miner-types';
import { simDriverEnv } from '../support/sim-driver-env';
import { Poller } from '@agent/poller';
import { scanRanges } from '@agent/scanner/scanner';

/**
 * When the agent re-reads a miner's slow details (MAC, SN, LED, network mode), over real sockets against the
 * simulator on 127.34.0.0/24: on first sight; not on the steady cycles in between; at once (same poll) when the
 * unit's elapsed went down, its identity changed or it comes back after being offline; after an operation; and
 * every `detailEveryCycles` at the latest. The serial is changed behind the agent's back, so the snapshot's `sn`
 * shows whether the details were read again.
 */

const CIDR = '127.34.0.0/24';
const OFFLINE_AFTER = 2;
const opts = { offlineAfterMissed: OFFLINE_AFTER, poolWhitelist: [] };
let fleet: Fleet;
let env: DriverEnv;
let poller: Poller;
const used = new Set<string>();

/** A stock Antminer with a 2023+ build (its get_system_info carries the serial) whose first periodic refresh is ≥ 10 polls away. */
function stockMiner(): SimMiner {
  const m = fleet.miners.find(
    (x) =>
      !used.has(x.ip) &&
      x.family === 'antminer-stock' &&
      x.firmware.date >= '20230701' &&
      -detailStamp({ id: { ip: x.ip } as never, cycle: 0 }, DEFAULT_DETAIL_EVERY_CYCLES) < DEFAULT_DETAIL_EVERY_CYCLES - 10,
  );
  if (!m) throw new Error('fleet lacks a suitable stock Antminer');
  used.add(m.ip);
  return m;
}

async function sn(m: SimMiner, p = poller): Promise<string | undefined> {
  const s = await p.pollOne(m.ip, opts);
  return s?.missedPolls === 0 ? s.sn : undefined;
}

/** First sight (details read), then a serial change the steady polls must not notice. */
async function settled(m: SimMiner): Promise<string> {
  expect(await sn(m)).toBe(m.sn);
  const before = m.sn;
  m.setSerial(`${before}-NEW`);
  for (let i = 0; i < 3; i++) expect(await sn(m)).toBe(before);
  return m.sn;
}

beforeAll(async () => {
  fleet = await startFleet({ miners: 60, cidr: CIDR, rpcPort: 0, webPort: 0, whatsminerV3Port: 0, seed: 34, rebootDarkMs: 500, mix: { 'antminer-stock': 1 } });
  env = simDriverEnv(fleet, { rpcTimeoutMs: 3000, webTimeoutMs: 3000, detailEveryCycles: DEFAULT_DETAIL_EVERY_CYCLES });
  poller = new Poller(env);
  const r = await scanRanges([{ ipBegin: CIDR }], env, { concurrency: 100 });
  expect(r.miners.length).toBe(fleet.miners.length);
  poller.upsertMiners(r.miners);
});

afterAll(async () => {
  await fleet?.close();
});

describe('detail refresh', () => {
  it('reads details on first sight and not on the steady polls after it', async () => {
    const m = stockMiner();
    const newSn = await settled(m);
    expect(await sn(m)).not.toBe(newSn);
    expect(poller.lastSnapshot(m.ip)?.mac).toBe(m.mac.toUpperCase());
  });

  it('re-reads them in the same poll when the elapsed time went down (reboot / process restart)', async () => {
    const m = stockMiner();
    const newSn = await settled(m);
    m.bootAt -= 120_000; // elapsed ≥ 2 min, so the restart below brings it down
    expect(await sn(m)).not.toBe(newSn);
    m.restartProcess();
    expect(await sn(m)).toBe(newSn);
  });

  it('re-reads them in the same poll when the identity in the CGMiner reply changed (re-flashed or another unit)', async () => {
    const m = stockMiner();
    const newSn = await settled(m);
    m.firmware = { ...m.firmware, compileTime: 'Fri Nov 14 10:00:00 CST 2025', date: '20251114' };
    const s = await poller.pollOne(m.ip, opts);
    expect(s?.firmwareVersion).toBe('Fri Nov 14 10:00:00 CST 2025');
    expect(s?.sn).toBe(newSn);
  });

  it('re-reads them when a miner answers again after having been reported offline', async () => {
    const m = stockMiner();
    const newSn = await settled(m);
    m.setQuirk('reset');
    for (let i = 0; i < OFFLINE_AFTER; i++) await poller.pollOne(m.ip, opts);
    expect(poller.lastSnapshot(m.ip)?.online).toBe(false);
    m.setQuirk('none');
    expect(await sn(m)).toBe(newSn);
  });

  it('a single missed poll (still online) does not force a refresh', async () => {
    const m = stockMiner();
    const newSn = await settled(m);
    m.setQuirk('reset');
    await poller.pollOne(m.ip, opts);
    expect(poller.lastSnapshot(m.ip)?.online).toBe(true);
    m.setQuirk('none');
    expect(await sn(m)).not.toBe(newSn);
  });

  it('re-reads them after an operation ran on the miner', async () => {
    const m = stockMiner();
    const newSn = await settled(m);
    expect(poller.lastSnapshot(m.ip)?.blink).toBe(false);
    const task = { id: 'detail-refresh-blink', op: 'blink-on', params: {}, targets: [{ ip: m.ip }] } as AgentTask;
    const deps = { env: () => poller.getEnv(), handle: (ip: string) => poller.handle(ip), snapshot: (ip: string) => poller.lastSnapshot(ip), remove: () => undefined, touched: (ip: string) => poller.invalidateDetail(ip) };
    const [res] = await runTask(task, deps, { pacing: { packetSize: 1, pauseMs: 0, concurrency: 1 } });
    expect(res?.ok).toBe(true);
    const s = await poller.pollOne(m.ip, opts);
    expect(s?.blink).toBe(true);
    expect(s?.sn).toBe(newSn);
  });

  it('re-reads them every detailEveryCycles at the latest, spread over the cycles', async () => {
    const every = 4;
    const p = new Poller({ ...env, detailEveryCycles: every });
    const ms = fleet.miners.filter((x) => !used.has(x.ip) && x.firmware.date >= '20230701').slice(0, 12);
    expect(ms.length).toBe(12);
    const r = await scanRanges(ms.map((x) => ({ ipBegin: x.ip })), env, { concurrency: 20 });
    p.upsertMiners(r.miners);
    await p.pollCycle({ ...opts, concurrency: 20 });
    for (const x of ms) x.setSerial(`${x.sn}-P`);
    // each miner picks up its new serial within `every` cycles, not all in the same one
    const firstSeen = new Map<string, number>();
    for (let c = 1; c <= every; c++) {
      const out = await p.pollCycle({ ...opts, concurrency: 20 });
      for (const s of out.snapshots) if (s.sn.endsWith('-P') && !firstSeen.has(s.ip)) firstSeen.set(s.ip, c);
    }
    expect(firstSeen.size).toBe(ms.length);
    expect(new Set(firstSeen.values()).size).toBeGreaterThan(1);
  });
});
