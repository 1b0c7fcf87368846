/**
 * A batch's target miners, resolved in SQL: the given IPs (or an uploaded list's IPs) of the farm, or
 * every miner matching the list filter. At most BATCH_MAX_TARGETS; IPs that are not miners of the farm
 * come back as `missing`.
 */
import { sql } from 'kysely';
import { BATCH_MAX_TARGETS, type BatchFilter } from '@shared/schemas/batch-operations';
import type { CapabilityMiner } from '@shared/miner-capabilities';
import type { FirmwareFamily, WorkMode } from '@shared/schemas/miner-snapshot';
import type { DB } from '../../db/kysely';
import { AppError } from '../../errors';
import { IP_ORDER, minerWhere, statusCondition } from '../miners/miner-sql';
import { hasOffShelf } from '../miners/miner-stamps';
import { loadIpList } from './ip-lists';

export interface TargetMiner extends CapabilityMiner {
  id: string;
  ip: string;
  sn: string;
}

export interface ResolvedTargets {
  miners: TargetMiner[];
  missing: string[];
}

export type TargetSpec = { ips: string[] } | { filter: BatchFilter } | { ipListFileId: string };

interface RawTarget {
  id: string;
  ip: string;
  sn: string;
  family: string;
  model: string;
  compile_time: Date | string | null;
  firmware_version: string;
  rt5s: number;
  work_mode: string;
  online: boolean;
  qualified: boolean;
}

const COLUMNS = sql`m.id, m.ip, m.sn, m.family, m.model, m.compile_time, m.firmware_version, m.rt5s, m.work_mode, m.online,
  ${statusCondition('qualified')} as qualified`;

function toTarget(r: RawTarget): TargetMiner {
  const compile = r.compile_time === null ? null : (r.compile_time instanceof Date ? r.compile_time : new Date(r.compile_time)).toISOString();
  return {
    id: r.id,
    ip: r.ip,
    sn: r.sn,
    family: r.family as FirmwareFamily,
    model: r.model,
    compileTime: compile,
    firmwareVersion: r.firmware_version,
    rt5s: Number(r.rt5s),
    workMode: r.work_mode as WorkMode,
    state: { online: r.online, qualified: r.qualified },
  };
}

export async function resolveTargets(db: DB, agentKey: string, userId: string, spec: TargetSpec): Promise<ResolvedTargets> {
  if ('filter' in spec) {
    const offShelf = await hasOffShelf(db, agentKey); // the list's miners: on shelf
    const { rows } = await sql<RawTarget>`
      select ${COLUMNS} from miners m where ${minerWhere(agentKey, spec.filter, offShelf)} order by ${IP_ORDER} limit ${BATCH_MAX_TARGETS + 1}
    `.execute(db);
    if (rows.length > BATCH_MAX_TARGETS) {
      const { rows: c } = await sql<{ n: number }>`select count(*)::int as n from miners m where ${minerWhere(agentKey, spec.filter, offShelf)}`.execute(db);
      throw new AppError('tooManyTargets', { count: c[0]?.n ?? rows.length, max: BATCH_MAX_TARGETS });
    }
    return { miners: rows.map(toTarget), missing: [] };
  }
  const ips = 'ips' in spec ? spec.ips : await loadIpList(db, agentKey, userId, spec.ipListFileId);
  if (ips.length > BATCH_MAX_TARGETS) throw new AppError('tooManyTargets', { count: ips.length, max: BATCH_MAX_TARGETS });
  const { rows } = await sql<RawTarget>`
    select ${COLUMNS} from miners m where m.agent_key = ${agentKey} and m.ip = any(${ips}::text[]) order by ${IP_ORDER}
  `.execute(db);
  const found = new Set(rows.map((r) => r.ip));
  return { miners: rows.map(toTarget), missing: ips.filter((ip) => !found.has(ip)) };
}
