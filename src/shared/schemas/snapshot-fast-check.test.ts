import { describe, expect, it } from 'vitest';
import { SnapshotBatch, isExactSnapshotBatch } from './agent-uplink';
import { MinerSnapshot, isExactMinerSnapshot } from './miner-snapshot';

const snap = {
  ip: '10.0.0.5', mac: '02:55:97:22:3A:72', sn: 'THQ', make: 'Antminer', model: 'S21', family: 'antminer-stock',
  firmwareVersion: 'x', compileTime: '2024-07-11T16:38:25+08:00', rt5s: 201233.41, rate30m: 199876, avg: 200114.77, ideal: 200000,
  boards: [
    { index: 0, chips: 108, expectedChips: 108, tempPcb: [52, 67], tempChip: [57, 72], tempPic: [47], rateGhs: 67012.55, hwErrors: 3, freqMhz: 490, sn: 'B1' },
    { index: 1, chips: 60, expectedChips: 108, chipStatus: 'oox', tempPcb: [], tempChip: [], tempPic: [], rateGhs: 0, hwErrors: 0, failed: true },
  ],
  fans: [4320, 0],
  pools: [{ url: 'stratum+tcp://a:3333', user: 'farm1.a', status: 'alive', active: true, accepted: 10, rejected: 0 }],
  workMode: 'normal', elapsedSec: 86412.5, powerW: 3510, blink: false, errorCodes: [{ code: -3, message: 'm' }], online: true, missedPolls: 0,
  state: { online: true, qualified: true, unqualified: false, zeroHashrate: false, cannotStart: false, illegalPool: false, abnormalIdeal: false, sleeping: false, lowPower: false },
  faultLabels: ['missing-chip'], takenAt: '2026-01-01T00:00:00.000Z',
};

const BAD_VALUES: unknown[] = [undefined, null, -1, 1.5, 0, 7, 'x', '', true, [], {}, [1], ['x'], Number.NaN, 2 ** 60];

/** Every path (object key / array index) into a JSON value. */
function paths(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [];
  if (Array.isArray(v)) v.forEach((x, i) => out.push([...at, i], ...paths(x, [...at, i])));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push([...at, k], ...paths(x, [...at, k]));
  return out;
}

function withValue(root: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let o = copy;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined && !Array.isArray(o)) delete o[last];
  else o[last] = value;
  return copy;
}

describe('isExactMinerSnapshot (the ingest fast path)', () => {
  it('accepts a valid snapshot, which zod returns unchanged', () => {
    expect(isExactMinerSnapshot(snap)).toBe(true);
    expect(MinerSnapshot.parse(snap)).toEqual(snap);
  });

  it('never accepts what zod refuses or would change (every field replaced by every kind of bad value)', () => {
    let refused = 0;
    for (const path of paths(snap)) {
      for (const value of BAD_VALUES) {
        const input = withValue(snap, path, value);
        if (!isExactMinerSnapshot(input)) {
          refused++;
          continue;
        }
        const z = MinerSnapshot.safeParse(input);
        expect(z.success, `fast path accepted ${path.join('.')} = ${String(value)}`).toBe(true);
        expect(z.data, `zod would change ${path.join('.')}`).toEqual(input);
      }
    }
    expect(refused).toBeGreaterThan(500);
  });

  it('leaves unknown keys, >3 pools and unknown enum values to zod', () => {
    expect(isExactMinerSnapshot({ ...snap, extra: 1 })).toBe(false);
    expect(isExactMinerSnapshot({ ...snap, boards: [{ ...snap.boards[0], extra: 1 }] })).toBe(false);
    expect(isExactMinerSnapshot({ ...snap, pools: [snap.pools[0], snap.pools[0], snap.pools[0], snap.pools[0]] })).toBe(false);
    expect(isExactMinerSnapshot({ ...snap, faultLabels: ['smoke'] })).toBe(false);
    expect(isExactMinerSnapshot({ ...snap, family: 'other' })).toBe(false);
    expect(isExactMinerSnapshot({ ...snap, state: { ...snap.state, extra: true } })).toBe(false);
  });
});

describe('isExactSnapshotBatch', () => {
  const batch = { agentVersion: '1.0.0', batchSeq: 3, cycleStartedAt: '2026-01-01T00:00:00.000Z', cycleDurationMs: 1200, snapshots: [snap, snap] };
  it('accepts what SnapshotBatch.parse returns unchanged, refuses the rest', () => {
    expect(isExactSnapshotBatch(batch)).toBe(true);
    expect(SnapshotBatch.parse(batch)).toEqual(batch);
    expect(isExactSnapshotBatch({ ...batch, rolledUp: true, rolledUpFrom: 1, rolledUpTo: 3 })).toBe(true);
    for (const bad of [{ batchSeq: 0 }, { batchSeq: 1.5 }, { cycleDurationMs: -1 }, { snapshots: {} }, { rolledUp: 'yes' }, { extra: 1 }, { snapshots: [snap, { ...snap, ip: 5 }] }]) {
      const input = { ...batch, ...bad };
      expect(isExactSnapshotBatch(input)).toBe(false);
    }
    expect(isExactSnapshotBatch(null)).toBe(false);
    expect(isExactSnapshotBatch([])).toBe(false);
  });
});
