import { describe, expect, it } from 'vitest';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { minerSnapshot } from '../../../../tests/support/miner-snapshots';
import { listFigures, listFiguresText, parseListFigures } from './miner-sql';
import { type ReadingColumns, fullReading, storedReading } from './stored-reading';

/** The miners row columns the ingest writes from a reading (ingest-snapshots.ts), with `snapshot` as stored. */
function row(s: MinerSnapshot, snapshot: unknown): ReadingColumns {
  return {
    ip: s.ip, mac: s.mac, make: s.make, model: s.model, family: s.family, firmware_version: s.firmwareVersion, rt5s: s.rt5s, rate30m: s.rate30m,
    avg: s.avg, ideal: s.ideal, work_mode: s.workMode, online: s.online, missed_polls: s.missedPolls, state: s.state, fault_labels: s.faultLabels, snapshot,
  };
}

describe('stored reading', () => {
  const readings = Array.from({ length: 20 }, (_, i) => minerSnapshot(i, { takenAt: '2026-03-10T08:00:00.000Z' }));

  it('keeps only what has no column, and puts the reading back together exactly', () => {
    for (const s of readings) {
      const rest = JSON.parse(storedReading(s)) as Record<string, unknown>;
      for (const k of ['ip', 'mac', 'make', 'model', 'rt5s', 'state', 'faultLabels', 'workMode']) expect(rest).not.toHaveProperty(k);
      // The reported SN stays (miners.sn follows an SN override), and so do the times as the agent wrote them.
      expect(rest).toMatchObject({ sn: s.sn, takenAt: s.takenAt, compileTime: s.compileTime, elapsedSec: s.elapsedSec, boards: s.boards, pools: s.pools });
      expect(JSON.stringify(rest).length).toBeLessThan(JSON.stringify(s).length * 0.8);
      expect(fullReading(row(s, rest))).toEqual(s);
    }
  });

  it('reads a row that still holds the whole reading (written before) the same way', () => {
    const s = readings[3]!;
    expect(fullReading(row(s, JSON.parse(JSON.stringify(s))))).toEqual(s);
  });

  it('keeps the optional fields a reading has, and adds none it has not', () => {
    const s = { ...readings[1]!, powerW: 3250, blink: true, networkMode: 'dhcp' } as MinerSnapshot;
    expect(fullReading(row(s, JSON.parse(storedReading(s))))).toEqual(s);
    const bare = { ...readings[2]! };
    delete bare.powerW;
    expect(fullReading(row(bare, JSON.parse(storedReading(bare))))).not.toHaveProperty('powerW');
  });
});

describe('list figures as stored', () => {
  it('reads back the array the ingest stores, and the object form rows kept before', () => {
    for (let i = 0; i < 20; i++) {
      const s = minerSnapshot(i, { takenAt: '2026-03-10T08:00:00.000Z' });
      const text = listFiguresText(s);
      expect(text.startsWith('[')).toBe(true);
      expect(parseListFigures(text)).toEqual(listFigures(s));
      expect(parseListFigures(JSON.stringify(listFigures(s)))).toEqual(listFigures(s));
    }
  });
});
