import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MinerSyncRow } from '@shared/schemas/sync';
import { type HashfieldDb, resetOfflineDbForTests } from './db';
import { findMinerByIp, findMinerBySn, searchMiners } from './miner-lookup';
import { MINER_BUCKETS, allMiners, bucketOf, clearMiners, countMiners, getMiner, getMiners, readMinerKeys, updateMinerByIp, writeMiners } from './miner-store';
import { testMinerRow } from './test-miner-row';

const KEY = 'farm-a';

function miner(i: number, over: Partial<MinerSyncRow> = {}, agentKey = KEY): MinerSyncRow & { agentKey: string } {
  return { agentKey, ...testMinerRow({ id: `m-${i}`, ip: `10.1.0.${i}`, sn: `SN${String(i).padStart(15, '0')}`, version: String(i) }), ...over };
}

let db: HashfieldDb;

beforeEach(() => {
  db = resetOfflineDbForTests();
});

describe('miner store', () => {
  it('spreads a farm over at most MINER_BUCKETS records and reads each miner back', async () => {
    const rows = Array.from({ length: 500 }, (_, i) => miner(i));
    await writeMiners(KEY, rows);
    const buckets = await db.minerBuckets.count();
    expect(buckets).toBeGreaterThan(MINER_BUCKETS / 2);
    expect(buckets).toBeLessThanOrEqual(MINER_BUCKETS);
    expect(await countMiners(KEY)).toBe(500);
    expect(await getMiner(KEY, 'm-321')).toEqual(rows[321]);
    expect((await getMiners(KEY, ['m-3', 'nope', 'm-499'])).map((m) => m?.id)).toEqual(['m-3', undefined, 'm-499']);
    expect(await allMiners(KEY)).toHaveLength(500);
    expect(bucketOf('m-321')).toBe(bucketOf('m-321'));
  });

  it('rewrites the lookup keys only when a miner comes, goes or changes SN or IP', async () => {
    await writeMiners(KEY, [miner(1), miner(2), miner(3)]);
    const first = (await readMinerKeys(KEY))!.gen;

    // New readings only: the keys stay as they were.
    await writeMiners(KEY, [miner(1, { gHS5s: 1, version: '10' }), miner(2, { online: false, version: '11' })]);
    expect((await readMinerKeys(KEY))!.gen).toBe(first);
    expect(await getMiner(KEY, 'm-2')).toMatchObject({ online: false, version: '11' });

    // An SN change and a new IP move the lookups; a removed miner leaves them.
    await writeMiners(KEY, [miner(1, { sn: 'NEWSN000000000001', version: '12' }), miner(3, { ip: '10.9.9.9', version: '13' })], ['m-2']);
    const keys = (await readMinerKeys(KEY))!;
    expect(keys.gen).not.toBe(first);
    expect(keys.sn).toEqual(['NEWSN000000000001', 'SN000000000000003']);
    expect(keys.ip).toEqual(['10.1.0.1', '10.9.9.9']);
    expect(await findMinerBySn(KEY, 'SN000000000000001')).toBeNull();
    expect((await findMinerBySn(KEY, 'newsn000000000001'))?.id).toBe('m-1');
    expect(await findMinerByIp(KEY, '10.1.0.3')).toBeNull();
    expect((await findMinerByIp(KEY, '10.9.9.9'))?.id).toBe('m-3');
    expect(await getMiner(KEY, 'm-2')).toBeUndefined();
    expect(await countMiners(KEY)).toBe(2);
  });

  it('keeps miners without an SN out of the SN keys but findable by IP; equal SNs resolve to the lowest id', async () => {
    await writeMiners(KEY, [miner(1, { sn: '' }), miner(2, { sn: 'DUP00000000000000' }), miner(3, { sn: 'DUP00000000000000' })]);
    expect((await readMinerKeys(KEY))!.sn).toEqual(['DUP00000000000000', 'DUP00000000000000']);
    expect((await findMinerBySn(KEY, 'DUP00000000000000'))?.id).toBe('m-2');
    expect((await findMinerByIp(KEY, '10.1.0.1'))?.id).toBe('m-1');
    expect((await searchMiners(KEY, 'dup')).map((m) => m.id)).toEqual(['m-2', 'm-3']);
  });

  it('deletes a bucket that became empty; a clear drops one farm only', async () => {
    await writeMiners(KEY, [miner(1)]);
    await writeMiners('farm-b', [miner(1, {}, 'farm-b'), miner(2, {}, 'farm-b')]);
    await writeMiners(KEY, [], ['m-1']);
    expect(await db.minerBuckets.where('[agentKey+bucket]').between([KEY, 0], [KEY, MINER_BUCKETS]).count()).toBe(0);
    expect(await countMiners(KEY)).toBe(0);
    expect(await searchMiners(KEY, 'SN')).toEqual([]);

    await writeMiners(KEY, [miner(5)]);
    await clearMiners(KEY);
    expect(await allMiners(KEY)).toEqual([]);
    expect(await readMinerKeys(KEY)).toBeNull();
    expect((await allMiners('farm-b')).map((m) => m.id).sort()).toEqual(['m-1', 'm-2']);
    expect((await findMinerBySn('farm-b', 'SN000000000000002'))?.agentKey).toBe('farm-b');
  });

  it('updates the miner holding an IP and answers the row before the change', async () => {
    await writeMiners(KEY, [miner(1, { customer: null, marksVersion: '3' }), miner(2)]);
    const before = await updateMinerByIp(KEY, '10.1.0.1', (row) => ({ customer: 'Acme', marksVersion: String(Number(row.marksVersion) + 1) }));
    expect(before).toMatchObject({ id: 'm-1', customer: null, marksVersion: '3' });
    expect(await getMiner(KEY, 'm-1')).toMatchObject({ customer: 'Acme', marksVersion: '4', agentKey: KEY });
    expect(await updateMinerByIp(KEY, '10.1.0.99', () => ({ customer: 'X' }))).toBeUndefined();
    expect(await updateMinerByIp('farm-b', '10.1.0.1', () => ({ customer: 'X' }))).toBeUndefined();
  });

  it('a lookup after another connection rewrote the keys sees the new keys (the cache follows the gen)', async () => {
    await writeMiners(KEY, [miner(1)]);
    expect((await findMinerBySn(KEY, 'SN000000000000001'))?.id).toBe('m-1');
    // Written behind the cache's back, as another tab would: the head's gen changes with the keys.
    const keys = (await readMinerKeys(KEY))!;
    await db.minerIndex.bulkPut([
      { ...keys, gen: 'other-tab', sn: ['SN000000000000009'], snId: ['m-1'] },
      { agentKey: KEY, part: 'head', gen: 'other-tab', count: 1 },
    ]);
    expect(await findMinerBySn(KEY, 'SN000000000000001')).toBeNull();
    expect((await findMinerBySn(KEY, 'SN000000000000009'))?.id).toBe('m-1');
  });
});
