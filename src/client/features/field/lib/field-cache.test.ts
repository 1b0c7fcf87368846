import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MinerSyncRow } from '@shared/schemas/sync';
import { resetOfflineDbForTests } from '@client/lib/offline/db';
import { RECENT_LIMIT, findBySn, getCachedMiner, recentMiners, recordVisit, searchCache } from './field-cache';
import { putTestMiners, testMinerRow } from '@client/lib/offline/test-miner-row';

function row(i: number, over: Partial<MinerSyncRow> = {}): MinerSyncRow {
  return {
    ...testMinerRow({ id: `m${i}`, ip: `10.0.${Math.floor(i / 256)}.${i % 256}`, sn: `SMTTB${String(i).padStart(12, '0')}`, gHSav: 199_000, fanMin: 5000, fanMax: 5200, takenAt: '2026-11-22T05:00:00.000Z', marksVersion: '1', version: String(i + 1) }),
    ...over,
  };
}

beforeEach(async () => {
  resetOfflineDbForTests();
  await putTestMiners([...Array.from({ length: 40 }, (_, i) => ({ ...row(i), agentKey: 'farm-a' })), { ...row(1, { id: 'other' }), agentKey: 'farm-b' }]);
});

describe('field cache', () => {
  it('finds by SN prefix (any case) and by IP prefix, in the farm only', async () => {
    const bySn = await searchCache('farm-a', 'smttb00000000003');
    expect(bySn.map((m) => m.id)).toEqual(['m30', 'm31', 'm32', 'm33', 'm34', 'm35', 'm36', 'm37', 'm38', 'm39']);
    const byIp = await searchCache('farm-a', '10.0.0.1', 5);
    expect(byIp.map((m) => m.ip)).toEqual(['10.0.0.1', '10.0.0.10', '10.0.0.11', '10.0.0.12', '10.0.0.13']);
    expect(await searchCache('farm-a', '   ')).toEqual([]);
    expect((await searchCache('farm-b', 'SMTTB')).map((m) => m.id)).toEqual(['other']);
  });

  it('finds the exact SN and the miner by id', async () => {
    expect((await findBySn('farm-a', ' smttb000000000007 '))?.id).toBe('m7');
    expect(await findBySn('farm-a', 'SMTTB000000009999')).toBeUndefined();
    expect((await getCachedMiner('farm-a', 'm3'))?.sn).toBe('SMTTB000000000003');
  });

  it('keeps the last 20 visits per farm, newest first, a revisit moves to the top', async () => {
    for (let i = 0; i < 25; i += 1) await recordVisit('farm-a', `m${i}`, 1000 + i);
    await recordVisit('farm-a', 'm10', 5000);
    await recordVisit('farm-b', 'other', 6000);
    const recent = await recentMiners('farm-a');
    expect(recent).toHaveLength(RECENT_LIMIT);
    expect(recent[0]?.minerId).toBe('m10');
    expect(recent[1]?.minerId).toBe('m24');
    expect(recent.map((r) => r.minerId)).not.toContain('m4');
    expect(recent[0]?.miner?.sn).toBe('SMTTB000000000010');
    expect((await recentMiners('farm-b')).map((r) => r.minerId)).toEqual(['other']);
  });
});
