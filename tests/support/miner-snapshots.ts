/**
 * Deterministic agent uploads for the server tests and the benchmarks: a mixed fleet (Antminer S21 and
 * S19j Pro on stock firmware, Whatsminer M60S, one miner in ten offline with its last good reading, one
 * in ten short of chips) whose every field satisfies the MinerSnapshot contract. Values depend only on
 * the miner index and `rateFactor`, so a test can compute the expected totals itself.
 */
import { gzipSync } from 'node:zlib';
import { AGENT_UPLINK_PREFIX, agentAuthorization, type SnapshotBatch } from '@shared/schemas/agent-uplink';
import type { MinerSnapshot, MinerStateFlags } from '@shared/schemas/miner-snapshot';

export interface SnapshotOptions {
  /** When the reading was taken (ISO 8601). */
  takenAt: string;
  /** Scales every hashrate, so two readings of one miner can be told apart (default 1). */
  rateFactor?: number;
}

/** 10.x.y.z, 250 miners per /24 "rack", starting at 10.0.0.1. */
export function minerIp(index: number): string {
  const rack = Math.floor(index / 250);
  return `10.${Math.floor(rack / 250)}.${rack % 250}.${(index % 250) + 1}`;
}

const hex2 = (n: number) => (n & 255).toString(16).toUpperCase().padStart(2, '0');

function flags(over: Partial<MinerStateFlags>): MinerStateFlags {
  return {
    online: true,
    qualified: true,
    unqualified: false,
    zeroHashrate: false,
    cannotStart: false,
    illegalPool: false,
    abnormalIdeal: false,
    sleeping: false,
    lowPower: false,
    ...over,
  };
}

function pools(index: number): MinerSnapshot['pools'] {
  const worker = `farm.${minerIp(index).replace(/\./g, 'x')}`;
  return [
    { url: 'stratum+tcp://btc.pool-one.example:3333', user: worker, status: 'alive', active: true, accepted: 1200 + (index % 97), rejected: index % 3 },
    { url: 'stratum+tcp://btc.pool-two.example:443', user: worker, status: 'alive', active: false, accepted: 0, rejected: 0 },
    { url: 'stratum+tcp://btc.pool-three.example:25', user: worker, status: 'dead', active: false, accepted: 0, rejected: 0 },
  ];
}

/** One miner's reading. Kind by index % 10: 0–5 S21, 6–7 M60S, 8 offline S21, 9 S19j Pro missing chips. */
export function minerSnapshot(index: number, opts: SnapshotOptions): MinerSnapshot {
  const f = opts.rateFactor ?? 1;
  const kind = index % 10;
  const wobble = 1 + ((index * 37) % 11) / 100 - 0.05;
  const ip = minerIp(index);
  const mac = `02:48:${hex2(index >> 16)}:${hex2(index >> 8)}:${hex2(index)}:${hex2(kind)}`;
  const base: Pick<MinerSnapshot, 'ip' | 'mac' | 'firmwareVersion' | 'compileTime' | 'errorCodes' | 'faultLabels' | 'takenAt'> = {
    ip,
    mac,
    firmwareVersion: '',
    compileTime: null,
    errorCodes: [],
    faultLabels: [],
    takenAt: opts.takenAt,
  };
  const temp = 60 + (index % 15);

  if (kind === 6 || kind === 7) {
    const ideal = 186_000;
    const rt = Math.round(ideal * wobble * f * 100) / 100;
    return {
      ...base,
      sn: `HTM60S${String(index).padStart(8, '0')}`,
      make: 'MicroBT',
      model: 'M60S VK40',
      family: 'whatsminer',
      firmwareVersion: '20240305.22.REL',
      rt5s: rt,
      rate30m: Math.round(rt * 0.99),
      avg: Math.round(rt * 0.995),
      ideal,
      boards: [0, 1, 2].map((b) => ({ index: b, chips: 156, expectedChips: 156, tempPcb: [temp - 4, temp - 2], tempChip: [temp + b], tempPic: [], rateGhs: Math.round((rt / 3) * 100) / 100, hwErrors: 0, freqMhz: 585 })),
      fans: [4680 + (index % 40), 4710 + (index % 40)],
      pools: pools(index),
      workMode: 'normal',
      elapsedSec: 172_800 + index,
      powerW: 3344,
      online: true,
      missedPolls: 0,
      state: flags({ qualified: rt >= ideal * 0.8, unqualified: rt > 0 && rt < ideal * 0.8 }),
    };
  }

  if (kind === 9) {
    const ideal = 104_000;
    const rt = Math.round(ideal * 0.66 * f * 100) / 100;
    return {
      ...base,
      sn: `JYZZ${String(index).padStart(10, '0')}`,
      make: 'Bitmain',
      model: 'S19j Pro',
      family: 'antminer-stock',
      firmwareVersion: 'Mon Dec 26 17:14:35 CST 2022',
      compileTime: '2022-12-26T09:14:35.000Z',
      rt5s: rt,
      rate30m: rt,
      avg: rt,
      ideal,
      boards: [
        { index: 0, chips: 126, expectedChips: 126, tempPcb: [temp - 8, temp - 6], tempChip: [temp], tempPic: [], rateGhs: Math.round((rt / 2) * 100) / 100, hwErrors: 12, freqMhz: 525 },
        { index: 1, chips: 64, expectedChips: 126, chipStatus: `${'o'.repeat(64)}${'x'.repeat(62)}`, tempPcb: [temp - 7], tempChip: [temp + 3], tempPic: [], rateGhs: Math.round((rt / 2) * 100) / 100, hwErrors: 812, freqMhz: 525 },
        { index: 2, chips: 0, expectedChips: 126, tempPcb: [], tempChip: [], tempPic: [], rateGhs: 0, hwErrors: 0, failed: true },
      ],
      fans: [5520, 5490, 5610, 5580],
      pools: pools(index),
      workMode: 'normal',
      elapsedSec: 3_600 + index,
      powerW: 2950,
      errorCodes: [{ code: 0, message: 'chain 2 not found' }],
      online: true,
      missedPolls: 0,
      state: flags({ qualified: false, unqualified: true }),
      faultLabels: ['missing-chip', 'missing-hashboard'],
    };
  }

  // Antminer S21 (kind 8: unreachable for 3 polls — last good reading, rates reported as 0).
  const offline = kind === 8;
  const ideal = 200_000;
  const rt = offline ? 0 : Math.round(ideal * wobble * f * 100) / 100;
  return {
    ...base,
    sn: `SMTTB${String(index).padStart(12, '0')}`,
    make: 'Bitmain',
    model: 'S21',
    family: 'antminer-stock',
    firmwareVersion: 'Thu Jul 11 16:38:25 CST 2024',
    compileTime: '2024-07-11T08:38:25.000Z',
    rt5s: rt,
    rate30m: offline ? 0 : Math.round(rt * 0.998),
    avg: offline ? 0 : Math.round(rt * 1.001),
    ideal,
    boards: [0, 1, 2].map((b) => ({
      index: b,
      chips: 108,
      expectedChips: 108,
      tempPcb: [temp - 5, temp - 5, temp + 10, temp + 10],
      tempChip: [temp, temp, temp + 15, temp + 15 - b],
      tempPic: [temp - 10, temp - 10, temp + 5, temp + 5],
      rateGhs: Math.round((rt / 3) * 100) / 100,
      hwErrors: (index + b) % 7,
      freqMhz: 490,
      sn: `BHB${String(index * 3 + b).padStart(9, '0')}`,
    })),
    fans: [4320, 4380, 4290, 4350].map((v) => v + (index % 30)),
    pools: pools(index),
    workMode: 'normal',
    elapsedSec: 86_400 + index,
    powerW: 3510,
    online: !offline,
    missedPolls: offline ? 3 : 0,
    state: flags(offline ? { online: false, qualified: false, zeroHashrate: true } : {}),
  };
}

/** Miners 0 … n-1 read at `takenAt`, each a copy of its own that `tweak` may change (one cycle's readings in a test). */
export function cycleReadings(n: number, takenAt: string, tweak: (s: MinerSnapshot, i: number) => void = () => {}): MinerSnapshot[] {
  return Array.from({ length: n }, (_, i) => {
    const s = structuredClone(minerSnapshot(i, { takenAt }));
    tweak(s, i);
    return s;
  });
}

export interface BatchOptions extends SnapshotOptions {
  batchSeq: number;
  /** Miners 0 … count-1 (or the given indexes). */
  count?: number;
  indexes?: number[];
  /** Default: takenAt. */
  cycleStartedAt?: string;
}

export function snapshotBatch(opts: BatchOptions): SnapshotBatch {
  const indexes = opts.indexes ?? Array.from({ length: opts.count ?? 50 }, (_, i) => i);
  return {
    agentVersion: '1.4.2',
    batchSeq: opts.batchSeq,
    cycleStartedAt: opts.cycleStartedAt ?? opts.takenAt,
    cycleDurationMs: 8_000 + indexes.length,
    snapshots: indexes.map((i) => minerSnapshot(i, opts)),
  };
}

/** The upload as the agent sends it: gzip-compressed JSON. */
export function gzipBatch(batch: SnapshotBatch): Buffer {
  return gzipSync(JSON.stringify(batch));
}

/** Posts a batch to a running server as the farm's agent does (gzip'd JSON); throws unless it was stored. */
export async function uploadBatch(baseUrl: string, agentKey: string, secret: string, batch: SnapshotBatch): Promise<void> {
  const res = await fetch(`${baseUrl}${AGENT_UPLINK_PREFIX}/snapshots`, {
    method: 'POST',
    headers: { authorization: agentAuthorization(agentKey, secret), 'content-type': 'application/json', 'content-encoding': 'gzip' },
    body: new Uint8Array(gzipBatch(batch)),
  });
  if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
}

/** Highest board temperature (chip and PCB sensors) of a reading, null without sensors. */
export function readingTempMax(s: MinerSnapshot): number | null {
  const all = s.boards.flatMap((b) => [...b.tempChip, ...b.tempPcb]);
  return all.length ? Math.max(...all) : null;
}
