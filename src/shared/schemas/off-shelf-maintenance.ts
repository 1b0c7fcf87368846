/**
 * Off-shelf maintenance (spec 3 §2 /unshelve-miner/maintain): the farm's miners taken off shelf with where their
 * repair stands (REPAIR_STATUSES, shared/miner-labels.ts), counted per status; setting a status (and a note) on a
 * selection; putting repaired miners back on shelf (a scrapped one must be given another status first).
 */
import { z } from 'zod';
import { REPAIR_STATUSES, type RepairStatus } from '../miner-labels';
import type { Page } from './common';

const agentKey = z.string().min(1, 'validation.agentKeyRequired').max(64);
const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const ips = z.array(z.string().trim().min(1, 'validation.required').max(64)).min(1, 'validation.required').max(10_000);

export const MaintenanceQuery = z.object({
  agentKey,
  status: z.preprocess(blank, z.enum(REPAIR_STATUSES, { message: 'validation.invalid' }).optional()),
  keyword: z.preprocess(blank, z.string().trim().max(64).optional()),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
});
export type MaintenanceQuery = z.infer<typeof MaintenanceQuery>;

export interface MaintenanceRow {
  ip: string;
  sn: string;
  model: string;
  customer: string;
  offShelfAt: string | null;
  repairStatus: RepairStatus;
  repairNote: string;
  /** When and by whom the status was last set (null: never, the miner awaits repair since it left the shelf). */
  repairAt: string | null;
  repairBy: string | null;
  /** The farm still has a miner at that IP, and whether the agent reads it. */
  present: boolean;
  online: boolean;
}

export interface MaintenancePage extends Page<MaintenanceRow> {
  /** The farm's off-shelf miners per status (the search applies, the status filter does not). */
  counts: Record<RepairStatus, number>;
}

export const SetRepairStatusBody = z.object({
  agentKey,
  ips,
  status: z.enum(REPAIR_STATUSES, { message: 'validation.repairStatus' }),
  /** Replaces the note when given ('' clears it); kept when left out. */
  note: z.string().trim().max(500, 'validation.remarkMax').optional(),
});
export type SetRepairStatusBody = z.infer<typeof SetRepairStatusBody>;

export const MaintainOnShelfBody = z.object({ agentKey, ips });
export type MaintainOnShelfBody = z.infer<typeof MaintainOnShelfBody>;

/** Why a miner of a request was left alone: it is not off shelf (any more), or it is scrapped (back on shelf). */
export interface MaintenanceRefusal {
  ip: string;
  reason: 'notOffShelf' | 'scrapped';
}

export interface MaintenanceChangeResult {
  changed: string[];
  refused: MaintenanceRefusal[];
}
