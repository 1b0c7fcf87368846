/**
 * Abnormal alarms: suspicious SSH behaviour (spec 3 §2 /alarm/security, §3 "Security record: status (online or
 * offline), description, scanTime, processingTime", §4 "a suspicious-SSH miner that is processed returns to normal",
 * §5 "security scan supports only miners above the S19 model"). The findings come from the agent's security scan
 * (shared/security-scan.ts); this is what the console asks and gets.
 */
import { z } from 'zod';
import { type SecurityKind, type SecurityScanReport } from '../security-scan';
import { isIPv4 } from '../validation';
import { refineRange } from './scan-ip';
import type { Page } from './common';

export const SECURITY_RECORD_STATUSES = ['suspicious', 'processed'] as const;
export type SecurityRecordStatus = (typeof SECURITY_RECORD_STATUSES)[number];

const agentKey = z.string().trim().min(1, 'validation.agentKeyRequired').max(64);
const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ipField = z.string('validation.ipAddress').trim().refine(isIPv4, 'validation.ipAddress');

export const SecurityListQuery = z.object({
  agentKey,
  status: z.preprocess(blank, z.enum(SECURITY_RECORD_STATUSES, { message: 'validation.invalid' }).optional()),
  /** IP prefix or part of the SN. */
  keyword: z.preprocess(blank, z.string().trim().max(64).optional()),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
});
export type SecurityListQuery = z.infer<typeof SecurityListQuery>;

export interface SecurityRecordRow {
  id: string;
  ip: string;
  sn: string;
  model: string;
  status: SecurityRecordStatus;
  /** The findings, most serious first: the console writes the description from them and `report`. */
  kinds: SecurityKind[];
  report: SecurityScanReport;
  /** The miner as the agent reads it now (spec 3 §3 "status (online or offline)"); null: no miner at that IP any more. */
  online: boolean | null;
  firstSeenAt: string;
  /** The last scan that saw it (spec 3 §3 scanTime). */
  scanTime: string;
  /** When and by whom it was marked processed (spec 3 §3 processingTime). */
  processedAt: string | null;
  processedBy: string | null;
  processNote: string;
}

export interface SecurityPage extends Page<SecurityRecordRow> {
  /** Records per status (the search applies, the status filter does not). */
  counts: Record<SecurityRecordStatus, number>;
}

/** Scan now: every miner of the farm the scan covers (online, S19 and newer), or those in a range. */
export const SecurityScanBody = z
  .object({
    agentKey,
    ipBegin: z.preprocess(blank, ipField.optional()),
    ipEnd: z.preprocess(blank, ipField.optional()),
  })
  .superRefine(refineOptionalRange);
export type SecurityScanBody = z.infer<typeof SecurityScanBody>;

export interface SecurityScanStarted {
  taskId: string;
  /** Miners handed to the agent. */
  targets: number;
  /** Miners of the range left out: offline, or a model the scan does not cover. */
  skipped: { offline: number; unsupported: number };
}

export const SecurityScansQuery = z.object({
  agentKey,
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});
export type SecurityScansQuery = z.infer<typeof SecurityScansQuery>;

/** One scan of the history: what it covered and what it found. */
export interface SecurityScanRow {
  taskId: string;
  status: 'pending' | 'running' | 'done';
  createdAt: string;
  doneAt: string | null;
  createdBy: string | null;
  /** Range asked for (null: the whole farm). */
  ipBegin: string | null;
  ipEnd: string | null;
  targets: number;
  /** Miners with a result, of which failed (unreachable, refused …). */
  done: number;
  failed: number;
  /** Miners with at least one finding in this scan. */
  found: number;
}

export const SecurityProcessBody = z.object({
  agentKey,
  ids: z.array(z.string().regex(UUID_RE, 'validation.id')).min(1, 'validation.required').max(1000),
  note: z.string().trim().max(500, 'validation.remarkMax').optional(),
});
export type SecurityProcessBody = z.infer<typeof SecurityProcessBody>;

export interface SecurityProcessResult {
  /** Records that were suspicious and are processed now (the others were processed already). */
  processed: number;
}

/** Batch reboot of the farm's miners from ipBegin to ipEnd (a reboot ends what a hijacker runs in memory). */
export const SecurityRebootBody = z.object({ agentKey, ipBegin: ipField, ipEnd: ipField }).superRefine(refineRange);
export type SecurityRebootBody = z.infer<typeof SecurityRebootBody>;

export interface SecurityRebootResult {
  taskId: string;
  /** Miners queued for reboot, and those refused (offline …) with reasons. */
  accepted: number;
  refused: number;
}

/** Automatic scans: off, daily or weekly (hours between scans). */
export const SECURITY_AUTO_SCAN_HOURS = [0, 24, 168] as const;
export const DEFAULT_SECURITY_AUTO_SCAN_HOURS = 24;

export const SecuritySettingsBody = z.object({
  agentKey,
  autoScanHours: z.coerce
    .number('validation.invalid')
    .refine((v) => (SECURITY_AUTO_SCAN_HOURS as readonly number[]).includes(v), 'validation.invalid'),
});
export type SecuritySettingsBody = z.infer<typeof SecuritySettingsBody>;

export interface SecuritySettings {
  autoScanHours: number;
  /** When the next automatic scan is due (null: automatic scans are off). It starts once the farm's agent is online. */
  nextScanAt: string | null;
}

export const SecurityTaskQuery = z.object({ agentKey, taskId: z.string().regex(UUID_RE, 'validation.id') });
export type SecurityTaskQuery = z.infer<typeof SecurityTaskQuery>;

/** The range fields of the page's dialogs (scan a range, reboot a range). */
export const SecurityRangeForm = z.object({ ipBegin: ipField, ipEnd: ipField }).superRefine(refineRange);
export type SecurityRangeForm = z.infer<typeof SecurityRangeForm>;

/** A range is both addresses or none; when both, begin ≤ end and at most a /16. */
function refineOptionalRange(v: { ipBegin?: string; ipEnd?: string }, ctx: z.RefinementCtx): void {
  if (!v.ipBegin && !v.ipEnd) return;
  if (!v.ipBegin) {
    ctx.addIssue({ code: 'custom', message: 'validation.ipAddress', path: ['ipBegin'] });
    return;
  }
  if (!v.ipEnd) {
    ctx.addIssue({ code: 'custom', message: 'validation.ipAddress', path: ['ipEnd'] });
    return;
  }
  refineRange({ ipBegin: v.ipBegin, ipEnd: v.ipEnd }, ctx);
}
