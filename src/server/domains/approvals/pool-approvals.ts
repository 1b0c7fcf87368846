/**
 * Batch pool-setting approval (spec 2 §2, §4, §7; model in src/shared/schemas/approvals.ts).
 *
 * State machine of a request: pending → agreed (the batch is queued for the agent at that moment; task_id
 * kept, or `failure` when nothing could be queued, e.g. every miner has left the farm) or pending →
 * disagreed (nothing is queued, nothing reaches the miners). The move out of pending is one conditional
 * UPDATE, so two clicks, two tabs or two approvers cannot both decide. Nothing is queued before agreement.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { BatchBody, MinerBatchOp } from '@shared/schemas/batch-operations';
import {
  APPROVAL_OPS,
  type ApprovalDecisionResult,
  type ApprovalOp,
  type ApprovalPendingResult,
  type ApprovalSetting,
  type PoolConfInfo,
  type PoolGroupInfo,
  approvalPageUrl,
} from '@shared/schemas/approvals';
import type { Option } from '@shared/schemas/common';
import type { Locale } from '@shared/validation';
import type { DB } from '../../db/kysely';
import type { UserRecord } from '../../db/schema';
import type {} from '../../db/sub-areas-schema';
import { AppError } from '../../errors';
import { translate } from '../../i18n';
import { type MailSender, maskEmail } from '../batch/message-senders';
import { resolveTargets } from '../batch/resolve-targets';
import { runMinerBatch, targetSpecOf } from '../batch/run-batch';
import { consumeVerificationCode } from '../batch/verification-codes';

export async function getApprovalSetting(db: DB, agentKey: string): Promise<ApprovalSetting> {
  const row = await db
    .selectFrom('approval_settings as s')
    .leftJoin('users as u', 'u.id', 's.approver_id')
    .select(['s.approver_id', 's.role_ids', 'u.user_name'])
    .where('s.agent_key', '=', agentKey)
    .executeTakeFirst();
  return { agentKey, approverId: row?.approver_id ?? null, approverName: row?.user_name ?? null, roleIds: row?.role_ids ?? [] };
}

/** Saves the farm's approver and the roles needing approval. The approver must be a member of the farm (or an administrator) with an e-mail address. */
export async function saveApprovalSetting(db: DB, agentKey: string, byUserId: string, input: { approverId?: string; roleIds: string[] }): Promise<ApprovalSetting> {
  const roleIds = [...new Set(input.roleIds)];
  if (input.approverId) {
    const u = await db.selectFrom('users').select(['id', 'email', 'is_admin', 'disabled']).where('id', '=', input.approverId).executeTakeFirst();
    if (!u || u.disabled) throw new AppError('validation', {}, { fields: { approverId: 'validation.approverUnknown' } });
    if (!u.is_admin) {
      const member = await db.selectFrom('user_farms').select('user_id').where('user_id', '=', u.id).where('agent_key', '=', agentKey).executeTakeFirst();
      if (!member) throw new AppError('validation', {}, { fields: { approverId: 'validation.approverUnknown' } });
    }
    if (!u.email) throw new AppError('validation', {}, { fields: { approverId: 'validation.approverNoEmail' } });
  }
  if (roleIds.length) {
    const found = await db.selectFrom('roles').select('id').where('id', 'in', roleIds).execute();
    if (found.length !== roleIds.length) throw new AppError('validation', {}, { fields: { roleIds: 'validation.roleRequired' } });
  }
  await db
    .insertInto('approval_settings')
    .values({ agent_key: agentKey, approver_id: input.approverId ?? null, role_ids: roleIds, updated_by: byUserId, updated_at: new Date() })
    .onConflict((oc) => oc.column('agent_key').doUpdateSet({ approver_id: input.approverId ?? null, role_ids: roleIds, updated_by: byUserId, updated_at: new Date() }))
    .execute();
  return getApprovalSetting(db, agentKey);
}

/**
 * Who can be chosen as the farm's approver (GET /api/options/auditorList): the users saveApprovalSetting accepts —
 * enabled members of the farm or administrators, with an e-mail address (without one the server refuses them,
 * approverNoEmail). Text "user (masked e-mail)", value the user's id; by name.
 */
export async function approverOptions(db: DB, agentKey: string): Promise<Option[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'user_name', 'email'])
    .where('disabled', '=', false)
    .where('email', 'is not', null)
    .where('email', '<>', '')
    .where((eb) => eb.or([eb('is_admin', '=', true), eb('id', 'in', eb.selectFrom('user_farms').select('user_id').where('agent_key', '=', agentKey))]))
    .orderBy('user_name')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ text: `${r.user_name} (${maskEmail(r.email ?? '')})`, value: r.id }));
}

export interface ApprovalDeps {
  db: DB;
  mail: MailSender | null;
  log: FastifyBaseLogger;
  locale: Locale;
  /** Origin of the console (scheme://host) for the link in the e-mail. */
  origin: string;
}

/** The approver this user's pool settings / upgrades on the farm must go through, or null when none is needed (no side effect). */
export async function approverFor(db: DB, agentKey: string, user: UserRecord): Promise<string | null> {
  if (user.is_admin || !user.role_id) return null;
  const setting = await db.selectFrom('approval_settings').select(['approver_id', 'role_ids']).where('agent_key', '=', agentKey).executeTakeFirst();
  if (!setting?.approver_id || setting.approver_id === user.id || !setting.role_ids.includes(user.role_id)) return null;
  return setting.approver_id;
}

/**
 * Called by batchSetPool / batchUpgrade before anything is queued. Answers null when the user needs no
 * approval on this farm (no approver set, an administrator, the approver, or a role not listed); else
 * checks the targets and the verification code, stores the request pending, mails the approver, and
 * answers the pending result. A mail that cannot be sent leaves nothing stored.
 */
export async function requestApprovalIfRequired(
  deps: ApprovalDeps,
  input: { op: ApprovalOp; agentKey: string; user: UserRecord; body: Record<string, unknown> },
): Promise<ApprovalPendingResult | null> {
  const { db } = deps;
  const { op, agentKey, user, body } = input;
  const approverId = await approverFor(db, agentKey, user);
  if (!approverId) return null;

  const approver = await db.selectFrom('users').select(['id', 'email', 'user_name', 'disabled']).where('id', '=', approverId).executeTakeFirst();
  if (!approver || approver.disabled || !approver.email) throw new AppError('approverNoEmail');
  if (!deps.mail) throw new AppError('mailUnavailable');

  const spec = targetSpecOf(body as { ips?: string[]; ipListFileId?: string });
  const { miners, missing } = await resolveTargets(db, agentKey, user.id, spec);
  if (miners.length === 0 && missing.length === 0) throw new AppError('noTargets');
  await consumeVerificationCode(db, user.id, body.code as string | undefined);

  const role = await db.selectFrom('roles').select('name').where('id', '=', user.role_id).executeTakeFirst();
  const farm = await db.selectFrom('farms').select('agent_name').where('agent_key', '=', agentKey).executeTakeFirstOrThrow();
  const stored: Record<string, unknown> = { ...body };
  delete stored.code;
  delete stored.ips;
  delete stored.filter;
  delete stored.ipListFileId;
  delete stored.agentKey;
  const ips = [...miners.map((m) => m.ip), ...missing];
  const type = APPROVAL_OPS[op];
  const row = await db
    .insertInto('pool_approvals')
    .values({
      agent_key: agentKey,
      op,
      type,
      body: JSON.stringify(stored),
      ips,
      initiator_id: user.id,
      initiator_role: role?.name ?? '',
      approver_id: approver.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  const link = `${deps.origin}/email?redirect=${encodeURIComponent(approvalPageUrl(row.id, type))}`;
  const vars = { user: user.user_name, role: role?.name ?? '', farm: farm.agent_name, count: ips.length, link, op: translate(deps.locale, `approvalMail.op.${type}`) };
  try {
    await deps.mail.send({ to: approver.email, subject: translate(deps.locale, 'approvalMail.subject', vars), text: translate(deps.locale, 'approvalMail.text', vars) });
  } catch (err) {
    await db.deleteFrom('pool_approvals').where('id', '=', row.id).execute();
    deps.log.warn({ to: maskEmail(approver.email), err: (err as Error).message }, 'approval mail not delivered');
    throw new AppError('approvalMailFailed');
  }
  deps.log.info({ agentKey, uuid: row.id, op, ipLen: ips.length, to: maskEmail(approver.email) }, 'batch waits for approval');
  return { pending: true, uuid: row.id, type, approver: maskEmail(approver.email), ipLen: ips.length, taskId: null, queued: 0, refused: [] };
}

async function loadRequest(db: DB, uuid: string) {
  return db
    .selectFrom('pool_approvals as a')
    .innerJoin('farms as f', 'f.agent_key', 'a.agent_key')
    .leftJoin('users as i', 'i.id', 'a.initiator_id')
    .leftJoin('users as d', 'd.id', 'a.decided_by')
    .select([
      'a.id',
      'a.agent_key',
      'a.op',
      'a.type',
      'a.body',
      'a.ips',
      'a.initiator_id',
      'a.initiator_role',
      'a.approver_id',
      'a.status',
      'a.task_id',
      'a.failure',
      'a.created_at',
      'a.decided_at',
      'f.agent_name',
      'i.user_name as initiator_name',
      'd.user_name as decided_by_name',
    ])
    .where('a.id', '=', uuid)
    .executeTakeFirst();
}

type RequestRow = NonNullable<Awaited<ReturnType<typeof loadRequest>>>;

function mayDecide(user: UserRecord, r: RequestRow): boolean {
  return user.is_admin || r.approver_id === user.id;
}

/** The viewer may see a request when they may decide it or asked for it. Anyone else: code -1, 403. */
async function visibleRequest(db: DB, user: UserRecord, uuid: string): Promise<RequestRow> {
  const r = await loadRequest(db, uuid);
  if (!r) throw new AppError('approvalNotFound');
  if (!mayDecide(user, r) && r.initiator_id !== user.id) throw new AppError('approvalForbidden');
  return r;
}

function poolGroupInfo(body: Record<string, unknown>): PoolGroupInfo {
  const suffix = typeof body.workerSuffix === 'string' ? body.workerSuffix : '';
  const s = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : '');
  return {
    Pool1Url: s('pool1Url'),
    Pool1User: s('pool1User'),
    Pool1Suffix: s('pool1Url') ? suffix : '',
    Pool2Url: s('pool2Url'),
    Pool2User: s('pool2User'),
    Pool2Suffix: s('pool2Url') ? suffix : '',
    Pool3Url: s('pool3Url'),
    Pool3User: s('pool3User'),
    Pool3Suffix: s('pool3Url') ? suffix : '',
  };
}

export async function getPoolConfInfo(db: DB, user: UserRecord, uuid: string): Promise<PoolConfInfo> {
  const r = await visibleRequest(db, user, uuid);
  const body = r.body;
  return {
    uuid: r.id,
    type: r.type,
    status: r.status,
    initiatorRole: r.initiator_role,
    initiator: r.initiator_name ?? '',
    agentName: r.agent_name,
    agentKey: r.agent_key,
    poolConfig: r.type === 'pool' && typeof body.workerSuffix === 'string' ? body.workerSuffix : '',
    poolGroupInfo: r.type === 'pool' ? poolGroupInfo(body) : null,
    fileUrl: r.type === 'upload' && typeof body.fileUrl === 'string' ? body.fileUrl : null,
    ipLen: r.ips.length,
    createdAt: new Date(r.created_at).toISOString(),
    decidedAt: r.decided_at ? new Date(r.decided_at).toISOString() : null,
    decidedBy: r.decided_by_name ?? null,
    taskId: r.task_id,
    failure: r.failure,
    canDecide: r.status === 'pending' && mayDecide(user, r),
  };
}

/** Moves the request out of pending once; a second decision (or a concurrent one) answers code -1. */
async function claim(db: DB, user: UserRecord, uuid: string, status: 'agreed' | 'disagreed'): Promise<RequestRow> {
  const r = await visibleRequest(db, user, uuid);
  if (!mayDecide(user, r)) throw new AppError('approvalForbidden');
  const moved = await db
    .updateTable('pool_approvals')
    .set({ status, decided_at: new Date(), decided_by: user.id })
    .where('id', '=', uuid)
    .where('status', '=', 'pending')
    .returning('id')
    .executeTakeFirst();
  if (!moved) throw new AppError('approvalDone');
  return r;
}

/** Agree: queue the stored batch for the agent, as the initiator asked it (their name in the batch log). */
export async function agreeRequest(db: DB, user: UserRecord, uuid: string, log: FastifyBaseLogger): Promise<ApprovalDecisionResult> {
  const r = await claim(db, user, uuid, 'agreed');
  try {
    const result = await runMinerBatch(db, {
      op: r.op as MinerBatchOp,
      agentKey: r.agent_key,
      userId: r.initiator_id ?? user.id,
      body: { ...r.body, ips: r.ips } as BatchBody<MinerBatchOp>,
      verified: true,
    });
    await db.updateTable('pool_approvals').set({ task_id: result.taskId }).where('id', '=', uuid).execute();
    log.info({ uuid, taskId: result.taskId, queued: result.accepted.length }, 'approved batch queued');
    return { status: 'agreed', taskId: result.taskId, queued: result.accepted.length, refused: result.refused };
  } catch (err) {
    const failure = err instanceof AppError ? err.errorName : 'server';
    await db.updateTable('pool_approvals').set({ failure }).where('id', '=', uuid).execute();
    throw err instanceof AppError ? new AppError('approvalQueueFailed') : err;
  }
}

export async function disagreeRequest(db: DB, user: UserRecord, uuid: string): Promise<ApprovalDecisionResult> {
  await claim(db, user, uuid, 'disagreed');
  return { status: 'disagreed', taskId: null, queued: 0, refused: [] };
}
