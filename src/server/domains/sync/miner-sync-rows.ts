/**
 * Miner rows of the sync feed (MinerSyncRow): the compact projection the technician's phone keeps, with the list's
 * status and rounding rules, plus the farm's marks of the miner (customer, accident, off shelf) and their version.
 * Temperatures and fans come from columns stored with the snapshot (migration 202611230105, the same expressions
 * as the list's COLUMN_SQL): the compressed snapshot itself is never read here, which keeps a 20,000-row feed cheap.
 */
import { sql } from 'kysely';
import { minerStatuses } from '@shared/miner-labels';
import type { MinerSyncRow } from '@shared/schemas/sync';
import type { DB } from '../../db/kysely';
import { iso, round } from '../miners/miner-sql';

interface RawMinerSyncRow {
  id: string;
  ip: string;
  sn: string;
  mac: string;
  make: string;
  model: string;
  firmware_version: string;
  online: boolean;
  state: Record<string, boolean> | null;
  fault_labels: string[];
  rt5s: number;
  avg: number;
  ideal: number;
  temp_chip_max: number | null;
  temp_pcb_max: number | null;
  fan_min: number | null;
  fan_max: number | null;
  work_mode: string;
  taken_at: Date | string;
  version: string;
  customer: string | null;
  accident: string | null;
  accident_note: string | null;
  off_shelf: boolean;
  marks_version: string;
}

export function toMinerSyncRow(r: RawMinerSyncRow): MinerSyncRow {
  return {
    id: r.id,
    ip: r.ip,
    sn: r.sn.toUpperCase(),
    mac: r.mac,
    make: r.make,
    model: r.model,
    firmwareVersion: r.firmware_version,
    online: r.online,
    statuses: minerStatuses(r.online, r.state ?? {}),
    faultLabels: r.fault_labels,
    gHS5s: r.rt5s,
    gHSav: r.avg,
    rateIdeal: r.ideal,
    tempChipMax: round(r.temp_chip_max),
    tempPcbMax: round(r.temp_pcb_max),
    fanMin: r.fan_min,
    fanMax: r.fan_max,
    workMode: r.work_mode,
    customer: r.customer,
    accident: r.accident,
    accidentNote: r.accident_note,
    offShelf: r.off_shelf,
    // No shelves yet: the shelf feature fills these.
    shelf: null,
    seat: null,
    takenAt: iso(r.taken_at) ?? '',
    marksVersion: r.marks_version,
    version: r.version,
  };
}

export async function readMinerSyncRows(db: DB, agentKey: string, since: string, upTo: string, take: number): Promise<MinerSyncRow[]> {
  const { rows } = await sql<RawMinerSyncRow>`
    select m.id, m.ip, m.sn, m.mac, m.make, m.model, m.firmware_version, m.online, m.state, m.fault_labels,
           m.rt5s, m.avg, m.ideal,
           m.sync_temp_chip_max as temp_chip_max, m.sync_temp_pcb_max as temp_pcb_max,
           m.sync_fan_min as fan_min, m.sync_fan_max as fan_max,
           m.work_mode, m.taken_at, m.version::text as version,
           k.customer, k.accident, k.accident_note, coalesce(k.off_shelf, false) as off_shelf,
           coalesce(k.version::text, '0') as marks_version
    from miners m
    left join miner_marks k on k.agent_key = m.agent_key and k.ip = m.ip
    where m.agent_key = ${agentKey} and m.version > ${since}::bigint and m.version <= ${upTo}::bigint
    order by m.version
    limit ${take}
  `.execute(db);
  return rows.map(toMinerSyncRow);
}
