/**
 * "Duplicate SN" follows the SNs we record (migration 202611230540): two miners whose firmware reports one SN (a
 * control board moved between miners in a repair) are both labelled by the agent; once the right SN is set by hand
 * on one of them (POST /api/miner/updateSn), neither is a duplicate — at once, and through every later reading, which
 * still reports the shared SN with the agent's label. A real duplicate (no SN set by hand) keeps its label, and the
 * phones are not sent the miners again every cycle for a label the rows do not keep.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { cycleReadings, minerIp } from '../support/miner-snapshots';
import { type Client, type TestApp, body, createFarm, createTestApp, listMiners, setupAdmin, uploadCycle } from './harness';

const SWAPPED = 'SWAPPEDBOARD00001';
const CLONED = 'CLONEDBOARD000002';

describe('"Duplicate SN" follows an SN set by hand', () => {
  let t: TestApp;
  let admin: Client;
  let farm: { agentKey: string; secret: string };
  let seq = 0;

  /** A cycle of 8 miners as the agent labels it: 1 and 3 report SWAPPED, 5 and 6 report CLONED. */
  const cycle = () =>
    uploadCycle(t.app, farm, ++seq, cycleReadings(8, new Date(Date.UTC(2026, 10, 28, 8, seq)).toISOString(), (s: MinerSnapshot, i: number) => {
      const sn = i === 1 || i === 3 ? SWAPPED : i === 5 || i === 6 ? CLONED : null;
      if (sn) {
        s.sn = sn;
        s.faultLabels = [...s.faultLabels.filter((f) => f !== 'duplicate-sn'), 'duplicate-sn'];
      }
    }));
  const duplicates = async () => (await listMiners(admin, farm.agentKey, { faultType: 'duplicate-sn' })).list.map((m) => m.ip).sort();
  const counted = async () => body<{ faults: Record<string, number> }>(await admin.get('/api/miner/stat', { agentKey: farm.agentKey })).data.faults['duplicate-sn'];
  const syncVersions = async () => {
    const { rows } = await sql<{ ip: string; sync_version: string }>`select ip, sync_version::text from miners where agent_key = ${farm.agentKey} order by ip`.execute(t.db);
    return Object.fromEntries(rows.map((r) => [r.ip, r.sync_version]));
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    farm = await createFarm(admin, 'sn-duplicate');
    await cycle();
  }, 60_000);
  afterAll(async () => t.close());

  it('labels both miners reporting one SN until one of them gets its SN by hand, then neither, through later readings', async () => {
    const [one, three, five, six] = [minerIp(1), minerIp(3), minerIp(5), minerIp(6)];
    expect(await duplicates()).toEqual([one, three, five, six].sort());
    expect(await counted()).toBe(4);

    const res = await admin.post('/api/miner/updateSn', { agentKey: farm.agentKey, ip: three, sn: 'RIGHTSN0000000003' });
    expect(res.statusCode, res.body).toBe(200);
    // At once, on both: the one set by hand and the one that shared its SN.
    expect(await duplicates()).toEqual([five, six].sort());
    expect(await counted()).toBe(2);

    await cycle(); // the firmware of both still reports SWAPPED, and the agent still labels them
    expect(await duplicates()).toEqual([five, six].sort());
    expect(await counted()).toBe(2);
    const detail = body<{ sn: string; faultLabels: string[] }>(await admin.get('/api/miner/detail', { agentKey: farm.agentKey, ip: one })).data;
    expect(detail.sn).toBe(SWAPPED);
    expect(detail.faultLabels).not.toContain('duplicate-sn');
    // The counters' bits follow the labels (generated from them).
    const { rows } = await sql<{ ip: string; fault_bits: number }>`select ip, fault_bits from miners where agent_key = ${farm.agentKey} and ip in (${one}, ${three}, ${five})`.execute(t.db);
    expect(Object.fromEntries(rows.map((r) => [r.ip, r.fault_bits & 64]))).toEqual({ [one]: 0, [three]: 0, [five]: 64 });

    // The same readings again: nothing the phones show of the two changed, so they are not sent to them again (others
    // may be: each miner is sent again every so often, at a time spread by its IP).
    const before = await syncVersions();
    await cycle();
    const after = await syncVersions();
    expect([after[one], after[three]]).toEqual([before[one], before[three]]);
  });

  it('a hand-set SN shared with another miner is what the technician read: the label is not added', async () => {
    const res = await admin.post('/api/miner/updateSn', { agentKey: farm.agentKey, ip: minerIp(0), sn: CLONED });
    expect(res.statusCode, res.body).toBe(200);
    await cycle();
    expect(await duplicates()).toEqual([minerIp(5), minerIp(6)].sort());
  });
});
