import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MinerSyncRow } from '@shared/schemas/sync';
import { resetOfflineDbForTests } from './db';
import { SN_LOOKUP_MEASURE, findMinerByIp, findMinerBySn, searchMiners } from './miner-lookup';
import { putTestMiners, testMinerRow } from './test-miner-row';

const KEY = 'farm-a';

function miner(i: number, over: Partial<MinerSyncRow & { agentKey: string }> = {}): MinerSyncRow & { agentKey: string } {
  return {
    agentKey: KEY,
    ...testMinerRow({ id: `m-${i}`, ip: `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}`, sn: `JYZZ${String(i).padStart(13, '0')}`, statuses: ['online'], gHS5s: 1, gHSav: 1, rateIdeal: 1, tempChipMax: null, tempPcbMax: null, fanMin: null, fanMax: null, version: String(i) }),
    ...over,
  };
}


beforeEach(async () => {
  resetOfflineDbForTests();
  await putTestMiners(Array.from({ length: 600 }, (_, i) => miner(i)));
  // Another farm with the same SNs and IPs.
  await putTestMiners([miner(1, { agentKey: 'farm-b', id: 'b-1' }), miner(2, { agentKey: 'farm-b', id: 'b-2', sn: 'HTM60S00000000002' })]);
  performance.clearMeasures?.();
});

describe('findMinerBySn', () => {
  it('finds the farm’s miner by exact SN, ignoring case and spaces, and measures the lookup', async () => {
    expect((await findMinerBySn(KEY, 'JYZZ0000000000123'))?.id).toBe('m-123');
    expect((await findMinerBySn(KEY, '  jyzz0000000000123 '))?.id).toBe('m-123');
    expect((await findMinerBySn('farm-b', 'JYZZ0000000000001'))?.id).toBe('b-1');
    expect(await findMinerBySn(KEY, 'HTM60S00000000002')).toBeNull();
    expect(await findMinerBySn(KEY, 'JYZZ000000000012')).toBeNull(); // a prefix is not a match
    expect(await findMinerBySn(KEY, '   ')).toBeNull();
    expect(performance.getEntriesByName(SN_LOOKUP_MEASURE, 'measure')).toHaveLength(5);
  });
});

describe('findMinerByIp', () => {
  it('finds by exact IP within the farm', async () => {
    expect((await findMinerByIp(KEY, '10.0.1.1'))?.id).toBe('m-250');
    expect((await findMinerByIp('farm-b', '10.0.0.2'))?.id).toBe('b-1');
    expect(await findMinerByIp(KEY, '10.0.9.9')).toBeNull();
    expect(await findMinerByIp('farm-c', '10.0.0.2')).toBeNull();
  });
});

describe('searchMiners', () => {
  it('matches SN prefixes case-insensitively, in SN order, up to the limit', async () => {
    const hits = await searchMiners(KEY, 'jyzz000000000001', 5);
    expect(hits.map((m) => m.id)).toEqual(['m-10', 'm-11', 'm-12', 'm-13', 'm-14']);
    expect((await searchMiners(KEY, 'JYZZ')).length).toBe(50);
    expect(await searchMiners(KEY, 'HTM')).toEqual([]);
  });

  it('matches IP prefixes (text of digits and dots), without duplicates, never another farm', async () => {
    const hits = await searchMiners(KEY, '10.0.2.', 500);
    expect(hits).toHaveLength(100);
    expect(hits.every((m) => m.ip.startsWith('10.0.2.') && m.agentKey === KEY)).toBe(true);
    expect((await searchMiners(KEY, '10.0.0.1', 50)).map((m) => m.ip)).toEqual(['10.0.0.1', '10.0.0.10', ...Array.from({ length: 10 }, (_, i) => `10.0.0.10${i}`), '10.0.0.11', ...Array.from({ length: 10 }, (_, i) => `10.0.0.11${i}`), '10.0.0.12', ...Array.from({ length: 10 }, (_, i) => `10.0.0.12${i}`), '10.0.0.13', ...Array.from({ length: 10 }, (_, i) => `10.0.0.13${i}`), '10.0.0.14', ...Array.from({ length: 4 }, (_, i) => `10.0.0.14${i}`)]);
    expect(await searchMiners(KEY, '')).toEqual([]);
    expect(await searchMiners(KEY, '10.0.0.1', 0)).toEqual([]);
  });

  it('an SN that looks like digits finds by SN first, then by IP', async () => {
    await putTestMiners([miner(900, { id: 'm-digits', sn: '10000000000000001', ip: '192.168.0.1' })]);
    const hits = await searchMiners(KEY, '10', 3);
    expect(hits.map((m) => m.id)).toEqual(['m-digits', 'm-0', 'm-9']);
  });
});
