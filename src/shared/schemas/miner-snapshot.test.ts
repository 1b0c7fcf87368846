import { describe, expect, it } from 'vitest';
import { AgentConfig, AgentTask, SnapshotBatch, parseAgentAuthorization } from './agent-uplink';
import { MinerSnapshot } from './miner-snapshot';

const snap = {
  ip: '10.0.0.5', mac: '02:55:97:22:3A:72', sn: 'THQING0BDJAB024NF', make: 'Antminer', model: 'S21', family: 'antminer-stock',
  firmwareVersion: 'Thu Jul 11 16:38:25 CST 2024', compileTime: '2024-07-11T16:38:25+08:00', rt5s: 201233.41, rate30m: 199876, avg: 200114.77, ideal: 200000,
  boards: [{ index: 0, chips: 108, expectedChips: 108, tempPcb: [52, 52, 67, 67], tempChip: [57, 57, 72, 72], tempPic: [47, 47, 62, 62], rateGhs: 67012.55, hwErrors: 3, freqMhz: 490 }],
  fans: [4320, 4380, 4290, 4350],
  pools: [{ url: 'stratum+tcp://btc.example-pool.com:3333', user: 'farm1.a', status: 'alive', active: true, accepted: 10, rejected: 0 }],
  workMode: 'normal', elapsedSec: 86412, powerW: 3510, errorCodes: [], online: true, missedPolls: 0,
  state: { online: true, qualified: true, unqualified: false, zeroHashrate: false, cannotStart: false, illegalPool: false, abnormalIdeal: false, sleeping: false, lowPower: false },
  faultLabels: [], takenAt: '2026-01-01T00:00:00.000Z',
};

describe('shared schemas', () => {
  it('MinerSnapshot accepts a full snapshot and rejects unknown labels / >3 pools', () => {
    expect(MinerSnapshot.parse(snap)).toEqual(snap);
    expect(MinerSnapshot.safeParse({ ...snap, faultLabels: ['smoke'] }).success).toBe(false);
    expect(MinerSnapshot.safeParse({ ...snap, pools: [snap.pools[0], snap.pools[0], snap.pools[0], snap.pools[0]] }).success).toBe(false);
  });
  it('AgentConfig fills defaults', () => {
    const c = AgentConfig.parse({});
    expect(c).toMatchObject({ pollIntervalSec: 60, offlineAfterMissed: 3, batch: { packetSize: 50, pauseMs: 3000 }, poolWhitelist: [] });
  });
  it('AgentTask validates params per op', () => {
    expect(AgentTask.safeParse({ id: 't1', op: 'adjust-hashrate', params: { percent: 80 }, targets: [{ ip: '10.0.0.1' }] }).success).toBe(true);
    expect(AgentTask.safeParse({ id: 't1', op: 'adjust-hashrate', params: { percent: 40 }, targets: [] }).success).toBe(false);
    expect(AgentTask.parse({ id: 't2', op: 'reboot', targets: [] }).params).toEqual({});
    expect(AgentTask.parse({ id: 't3', op: 'set-pools', params: { pools: [{ url: 'stratum+tcp://a:1', user: 'u' }] }, targets: [] }).params).toMatchObject({ workerSuffix: 'none', pools: [{ password: 'x' }] });
  });
  it('SnapshotBatch and the Authorization header', () => {
    expect(SnapshotBatch.safeParse({ agentVersion: '1', batchSeq: 1, cycleStartedAt: 'x', cycleDurationMs: 1, snapshots: [snap] }).success).toBe(true);
    expect(parseAgentAuthorization('Bearer farm01.s3cr.et')).toEqual({ agentKey: 'farm01', secret: 's3cr.et' });
    expect(parseAgentAuthorization('Basic x')).toBeNull();
  });
});
