/** A miner sync row for the offline and field tests (not shipped: only tests import it): an online S21 without marks; `over` sets what a test relies on. */
import type { MinerSyncRow } from '@shared/schemas/sync';
import { writeMiners } from './miner-store';

export function testMinerRow(over: Partial<MinerSyncRow> = {}): MinerSyncRow {
  return {
    id: 'm-1',
    ip: '10.0.0.1',
    sn: 'SN0000000000000001',
    mac: '',
    make: 'Bitmain',
    model: 'S21',
    firmwareVersion: '',
    online: true,
    statuses: ['online', 'qualified'],
    faultLabels: [],
    errorCodes: [],
    gHS5s: 200_000,
    gHSav: 200_000,
    rateIdeal: 200_000,
    tempChipMax: 70,
    tempPcbMax: 60,
    fanMin: 4000,
    fanMax: 4100,
    workMode: 'normal',
    customer: null,
    accident: null,
    accidentNote: null,
    offShelf: false,
    zone: null,
    shelf: null,
    seat: null,
    takenAt: '2026-11-22T00:00:00.000Z',
    marksVersion: '0',
    version: '1',
    ...over,
  };
}

/** Stores cached miner rows (any farms) through the store the sync writes with (miner-store.ts). */
export async function putTestMiners(rows: readonly (MinerSyncRow & { agentKey: string })[]): Promise<void> {
  const farms = new Map<string, (MinerSyncRow & { agentKey: string })[]>();
  for (const r of rows) farms.set(r.agentKey, [...(farms.get(r.agentKey) ?? []), r]);
  for (const [agentKey, list] of farms) await writeMiners(agentKey, list);
}
