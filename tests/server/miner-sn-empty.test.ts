/**
 * A miner whose firmware reports no SN carries the fault "empty-sn" until its SN is set by hand
 * (POST /api/miner/updateSn, migration 202611230530): then the list, the detail, the fault counters and the filter by
 * that fault stop counting it — on the hand-set write itself and on every reading after it, which still reports no SN.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { cycleReadings, minerIp } from '../support/miner-snapshots';
import { type Client, type TestApp, body, createFarm, createTestApp, listMiners, setupAdmin, uploadCycle } from './harness';

describe('an SN set by hand clears "empty SN"', () => {
  let t: TestApp;
  let admin: Client;
  let farm: { agentKey: string; secret: string };
  let seq = 0;

  /** A cycle of 6 miners in which miners 2 and 4 report no SN (the agent then labels them empty-sn). */
  const cycle = () =>
    uploadCycle(t.app, farm, ++seq, cycleReadings(6, new Date(Date.UTC(2026, 10, 28, 8, seq)).toISOString(), (s: MinerSnapshot, i: number) => {
      if (i === 2 || i === 4) {
        s.sn = '';
        s.faultLabels = [...s.faultLabels.filter((f) => f !== 'empty-sn'), 'empty-sn'];
      }
      if (i === 4) s.faultLabels = ['high-temperature', ...s.faultLabels];
    }));
  const faultsOf = async (ip: string) => (await listMiners(admin, farm.agentKey, { keyword: ip })).list.find((m) => m.ip === ip)!.faultLabels;
  const emptySnCount = async () => body<{ faults: Record<string, number> }>(await admin.get('/api/miner/stat', { agentKey: farm.agentKey })).data.faults['empty-sn'];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    farm = await createFarm(admin, 'sn-empty');
    await cycle();
  }, 60_000);
  afterAll(async () => t.close());

  it('drops the label at once and keeps it dropped through later readings; other faults stay', async () => {
    expect(await faultsOf(minerIp(2))).toContain('empty-sn');
    expect(await emptySnCount()).toBe(2);

    const res = await admin.post('/api/miner/updateSn', { agentKey: farm.agentKey, ip: minerIp(4), sn: 'HANDSETSN00000004' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await faultsOf(minerIp(4))).toEqual(['high-temperature']);
    expect(await emptySnCount()).toBe(1);

    await cycle(); // the firmware still reports no SN
    expect(await faultsOf(minerIp(4))).toEqual(['high-temperature']);
    expect(await faultsOf(minerIp(2))).toContain('empty-sn'); // not set by hand: still a fault
    expect(await emptySnCount()).toBe(1);
    const filtered = await listMiners(admin, farm.agentKey, { faultType: 'empty-sn' });
    expect(filtered.list.map((m) => m.ip)).toEqual([minerIp(2)]);
    const detail = body<{ sn: string; faultLabels: string[] }>(await admin.get('/api/miner/detail', { agentKey: farm.agentKey, ip: minerIp(4) })).data;
    expect(detail).toMatchObject({ sn: 'HANDSETSN00000004', faultLabels: ['high-temperature'] });
    // The counters' bits follow the labels (generated from them).
    const { rows } = await sql<{ fault_bits: number }>`select fault_bits from miners where agent_key = ${farm.agentKey} and ip = ${minerIp(4)}`.execute(t.db);
    expect(rows[0]!.fault_bits).toBe(1); // high-temperature only
  });
});
