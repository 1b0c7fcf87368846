/**
 * Batch pool-setting approval (spec 2 §2 "Batch pool-setting approval page", §3 "Pool approval info",
 * §4 one-shot, §7 getPoolConfInfo / agreeMinerBatchSetPool / disagreeMinerBatchSetPool, §8 code -1).
 *
 * Decided where the spec is silent: each farm names an approver (a user with an e-mail address) and the
 * roles whose batch pool settings — and firmware upgrades (the page's type 'upload') — need approval.
 * Such a request is checked (targets, verification code) and stored pending; the approver gets an e-mail
 * with a link to /poolApproval?uuid=…&type=pool|upload. Agree queues the batch for the agent (nothing
 * reaches the miners before); Disagree ends it. Either can happen once. Pending requests do not expire.
 */
import { z } from 'zod';
import { commaList } from './common';

/** The batch ops that may need approval, and the page's `type` of each. */
export const APPROVAL_OPS = { batchSetPool: 'pool', batchUpgrade: 'upload' } as const;
export type ApprovalOp = keyof typeof APPROVAL_OPS;
export type ApprovalType = (typeof APPROVAL_OPS)[ApprovalOp];
export type ApprovalStatus = 'pending' | 'agreed' | 'disagreed';

export function isApprovalOp(op: string): op is ApprovalOp {
  return Object.prototype.hasOwnProperty.call(APPROVAL_OPS, op);
}

/** The console page the approver's e-mail links to. */
export const APPROVAL_PAGE_PATH = '/poolApproval';

export function approvalPageUrl(uuid: string, type: ApprovalType): string {
  return `${APPROVAL_PAGE_PATH}?uuid=${encodeURIComponent(uuid)}&type=${type}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const ApprovalQuery = z.object({ uuid: z.string('validation.approvalUuid').trim().regex(UUID_RE, 'validation.approvalUuid') });

export const ApprovalSettingQuery = z.object({ agentKey: z.string().min(1, 'validation.agentKeyRequired').max(64) });

export const ApprovalSettingBody = z.object({
  agentKey: z.string().trim().min(1, 'validation.agentKeyRequired').max(64),
  /** Required; empty = approval off. */
  approverId: z
    .union([z.literal(''), z.string('validation.approverUnknown').regex(UUID_RE, 'validation.approverUnknown')], 'validation.approverUnknown')
    .transform((v) => (v === '' ? undefined : v)),
  /** Required; comma-joined role ids, empty = none. */
  roleIds: commaList.pipe(z.array(z.string().regex(UUID_RE, 'validation.roleRequired')).max(100)),
});
export type ApprovalSettingBody = z.infer<typeof ApprovalSettingBody>;

export interface ApprovalSetting {
  agentKey: string;
  approverId: string | null;
  approverName: string | null;
  roleIds: string[];
}

/** Pool1..3 Url, User, Suffix (spec 2 §3). */
export interface PoolGroupInfo {
  Pool1Url: string;
  Pool1User: string;
  Pool1Suffix: string;
  Pool2Url: string;
  Pool2User: string;
  Pool2Suffix: string;
  Pool3Url: string;
  Pool3User: string;
  Pool3Suffix: string;
}

/** GET /api/minerv2/getPoolConfInfo (spec 2 §3 "Pool approval info" plus the state of the request). */
export interface PoolConfInfo {
  uuid: string;
  type: ApprovalType;
  status: ApprovalStatus;
  initiatorRole: string;
  initiator: string;
  agentName: string;
  agentKey: string;
  /** Worker-name suffix rule of the pool setting: ip | sn | none ('' for an upgrade). */
  poolConfig: string;
  poolGroupInfo: PoolGroupInfo | null;
  /** type upload: the firmware file. */
  fileUrl: string | null;
  /** Miners the batch addresses. */
  ipLen: number;
  createdAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
  taskId: string | null;
  failure: string | null;
  /** The viewer is the approver (or an administrator) and the request is still pending. */
  canDecide: boolean;
}

/** Answer of batchSetPool / batchUpgrade when the request went to the approver instead of the agent. */
export interface ApprovalPendingResult {
  pending: true;
  uuid: string;
  type: ApprovalType;
  /** The approver's masked e-mail address. */
  approver: string;
  ipLen: number;
  taskId: null;
  queued: 0;
  refused: [];
}

export interface ApprovalDecisionResult {
  status: ApprovalStatus;
  taskId: string | null;
  queued: number;
  refused: { ip: string; reason: string }[];
}
