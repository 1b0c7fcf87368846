/**
 * Runs one miner batch operation: resolve the targets in SQL, check the verification code of a
 * sensitive op, check each miner's capability, then in one transaction apply the server-side records
 * (customer, off shelf, accident, removal), queue ONE agent task with the capable miners and record
 * every refused miner at once as a failed result with its reason. Records-only ops finish at once.
 */
import { type CapabilityOp, checkCapability } from '@shared/miner-capabilities';
import { type BatchBody, type BatchFailure, type BatchFilter, type MinerBatchOp, isSensitiveBatchOp } from '@shared/schemas/batch-operations';
import { type DB, inTransaction } from '../../db/kysely';
import { AppError, fieldError } from '../../errors';
import { noteShelfChange } from '../miners/miner-stamps';
import { type TargetMiner, type TargetSpec, resolveTargets } from './resolve-targets';
import { consumeVerificationCode } from './verification-codes';

/** The transaction a batch's record step runs in (its own, or one it is a step of: inTransaction). */
type Trx = DB;

/** The agent part of an op: task op name + params, and which capability rule filters the miners. */
interface AgentPart {
  op: string;
  params: Record<string, unknown>;
  /** 'online' = the miner only needs to be online (ops without a shared rule, e.g. set-fans). */
  capability: CapabilityOp | 'online';
  capabilityParams?: { percent?: number };
}

interface OpPlan {
  agent: AgentPart | null;
  /** Server-side change applied to every found miner. */
  record: ((trx: Trx, agentKey: string, userId: string, miners: TargetMiner[]) => Promise<void>) | null;
  /** What the log keeps as params of a records-only op. */
  recordParams: Record<string, unknown>;
}

const CHUNK = 1000;
function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

type MarkFields = { customer?: string | null; off_shelf?: boolean; off_shelf_at?: Date; accident?: string; accident_note?: string; accident_at?: Date };

async function upsertMarks(trx: Trx, agentKey: string, userId: string, miners: TargetMiner[], fields: MarkFields): Promise<void> {
  const now = new Date();
  for (const part of chunks(miners)) {
    await trx
      .insertInto('miner_marks')
      .values(part.map((m) => ({ agent_key: agentKey, ip: m.ip, updated_by: userId, updated_at: now, ...fields })))
      .onConflict((oc) => oc.columns(['agent_key', 'ip']).doUpdateSet({ ...fields, updated_by: userId, updated_at: now }))
      .execute();
  }
}

const markOffShelf = async (trx: Trx, agentKey: string, userId: string, miners: TargetMiner[]) => {
  await upsertMarks(trx, agentKey, userId, miners, { off_shelf: true, off_shelf_at: new Date() });
  noteShelfChange();
};

/** The plan of each op from its validated body. */
export function planOp<Op extends MinerBatchOp>(op: Op, body: BatchBody<Op>): OpPlan {
  const b = body as Record<string, unknown>;
  const agent = (a: AgentPart): OpPlan => ({ agent: a, record: null, recordParams: {} });
  switch (op) {
    case 'batchBlink':
      return agent({ op: b.on ? 'blink-on' : 'blink-off', params: {}, capability: b.on ? 'blink-on' : 'blink-off' });
    case 'batchChangeWorkMode':
      return agent({ op: 'work-mode', params: { mode: b.mode }, capability: 'work-mode' });
    case 'batchUpgrade':
      return agent({
        op: 'firmware-upgrade',
        params: { fileUrl: b.fileUrl, ...(b.fileName ? { fileName: b.fileName } : {}), keepSettings: b.keepSettings },
        capability: 'firmware-upgrade',
      });
    case 'batchReboot':
      return agent({ op: 'reboot', params: {}, capability: 'reboot' });
    case 'batchRecoverDHCP':
      return agent({ op: 'dhcp', params: {}, capability: 'dhcp' });
    case 'batchReset':
      return agent({ op: 'factory-reset', params: {}, capability: 'factory-reset' });
    case 'batchSetPool': {
      const pools = ([1, 2, 3] as const).flatMap((i) => {
        const url = b[`pool${i}Url`] as string | undefined;
        const user = b[`pool${i}User`] as string | undefined;
        const password = (b[`pool${i}Password`] as string | undefined) ?? 'x';
        return url && user ? [{ url, user, password }] : [];
      });
      return agent({ op: 'set-pools', params: { pools, workerSuffix: b.workerSuffix }, capability: 'set-pools' });
    }
    case 'batchAdjustHashRate':
      return agent({ op: 'adjust-hashrate', params: { percent: b.percent }, capability: 'adjust-hashrate', capabilityParams: { percent: b.percent as number } });
    case 'batchSetFrequency':
      return agent({ op: 'set-frequency', params: { freqMhz: b.freqMhz }, capability: 'set-frequency' });
    case 'batchChangePowerPercent':
      return agent({ op: 'power-percent', params: { percent: b.percent }, capability: 'power-percent', capabilityParams: { percent: b.percent as number } });
    case 'batchSetFans':
      return agent({ op: 'set-fans', params: { mode: b.mode, ...(b.percent === undefined ? {} : { percent: b.percent }) }, capability: 'online' });
    case 'batchDelete':
      return {
        agent: { op: 'remove', params: {}, capability: 'remove' },
        record: async (trx, agentKey, _userId, miners) => {
          for (const part of chunks(miners)) {
            await trx
              .deleteFrom('miners')
              .where('agent_key', '=', agentKey)
              .where(
                'id',
                'in',
                part.map((m) => m.id),
              )
              .execute();
          }
        },
        recordParams: {},
      };
    case 'batchOfflineRecoverDHCP':
      return { agent: { op: 'dhcp', params: {}, capability: 'dhcp' }, record: markOffShelf, recordParams: {} };
    case 'batchOffline':
      return { agent: null, record: markOffShelf, recordParams: {} };
    case 'batchCustomer':
      return {
        agent: null,
        record: (trx, agentKey, userId, miners) => upsertMarks(trx, agentKey, userId, miners, { customer: b.clear ? null : (b.customer as string) }),
        recordParams: { customer: b.clear ? null : b.customer },
      };
    case 'batchAccident':
      return {
        agent: null,
        record: (trx, agentKey, userId, miners) =>
          upsertMarks(trx, agentKey, userId, miners, { accident: b.accident as string, accident_note: b.note as string, accident_at: new Date() }),
        recordParams: { accident: b.accident, note: b.note },
      };
    default:
      throw new Error(`unknown batch op ${String(op)}`);
  }
}

function capable(part: AgentPart, m: TargetMiner): { ok: true } | { ok: false; reason: string } {
  if (part.capability === 'online') return m.state.online ? { ok: true } : { ok: false, reason: 'offline' };
  return checkCapability(part.capability, m, part.capabilityParams);
}

export interface BatchRunResult {
  taskId: string;
  /** IPs handed to the agent (or, for records-only ops, changed). */
  accepted: string[];
  refused: BatchFailure[];
}

export interface RunBatchInput<Op extends MinerBatchOp> {
  op: Op;
  agentKey: string;
  userId: string;
  body: BatchBody<Op>;
  /** The verification code was already checked (an approved request, see domains/approvals). */
  verified?: boolean;
}

export function targetSpecOf(body: { ips?: string[]; filter?: BatchFilter; ipListFileId?: string }): TargetSpec {
  if (body.ips) return { ips: body.ips };
  if (body.ipListFileId) return { ipListFileId: body.ipListFileId };
  return { filter: body.filter ?? {} };
}

/** batchCustomer names a customer of the farm (as the field app's change of customer does): else 400 on the field, nothing changed. */
async function checkCustomer(db: DB, agentKey: string, name: string): Promise<void> {
  const found = await db.selectFrom('customers').select('id').where('agent_key', '=', agentKey).where('name', '=', name).executeTakeFirst();
  if (!found) throw fieldError('customer', 'validation.customerUnknown');
}

export async function runMinerBatch<Op extends MinerBatchOp>(db: DB, input: RunBatchInput<Op>): Promise<BatchRunResult> {
  const { op, agentKey, userId, body } = input;
  const b = body as { ips?: string[]; filter?: BatchFilter; ipListFileId?: string; code?: string; customer?: string; clear?: boolean };
  if (op === 'batchCustomer' && !b.clear) await checkCustomer(db, agentKey, b.customer ?? '');
  const { miners, missing } = await resolveTargets(db, agentKey, userId, targetSpecOf(b));
  if (miners.length === 0 && missing.length === 0) throw new AppError('noTargets');
  if (isSensitiveBatchOp(op) && !input.verified) await consumeVerificationCode(db, userId, b.code);

  const plan = planOp(op, body);
  const refused: BatchFailure[] = missing.map((ip) => ({ ip, reason: 'not-found' }));
  const accepted: TargetMiner[] = [];
  for (const m of miners) {
    if (!plan.agent) {
      accepted.push(m);
      continue;
    }
    const c = capable(plan.agent, m);
    if (c.ok) accepted.push(m);
    else refused.push({ ip: m.ip, reason: c.reason });
  }
  const queued = plan.agent !== null && accepted.length > 0;
  const total = miners.length + missing.length;

  const taskId = await inTransaction(db, async (trx) => {
    if (plan.record) await plan.record(trx, agentKey, userId, miners);
    const task = await trx
      .insertInto('agent_tasks')
      .values({
        agent_key: agentKey,
        op: plan.agent?.op ?? op,
        params: JSON.stringify(plan.agent?.params ?? plan.recordParams),
        targets: JSON.stringify(accepted.map((m) => ({ minerId: m.id, ip: m.ip, ...(m.sn ? { sn: m.sn } : {}) }))),
        target_count: accepted.length,
        total_count: total,
        batch_op: op,
        created_by: userId,
        status: queued ? 'pending' : 'done',
        done_at: queued ? null : new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const results = [
      ...refused.map((r) => ({ task_id: task.id, ip: r.ip, ok: false, reason: r.reason })),
      ...(plan.agent ? [] : accepted.map((m) => ({ task_id: task.id, ip: m.ip, ok: true, reason: null }))),
    ];
    for (const part of chunks(results)) await trx.insertInto('agent_task_results').values(part).onConflict((oc) => oc.doNothing()).execute();
    return task.id;
  });
  return { taskId, accepted: accepted.map((m) => m.ip), refused };
}

/** setAgentPower: the farm's power limit (kW, 0 = none) kept with its agent settings, logged as a batch. */
export async function setAgentPower(db: DB, agentKey: string, userId: string, powerLimitKw: number): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const farm = await trx.selectFrom('farms').select('agent_settings').where('agent_key', '=', agentKey).executeTakeFirst();
    if (!farm) throw new AppError('notFound');
    await trx
      .updateTable('farms')
      .set({ agent_settings: JSON.stringify({ ...farm.agent_settings, powerLimitKw }), updated_at: new Date() })
      .where('agent_key', '=', agentKey)
      .execute();
    const task = await trx
      .insertInto('agent_tasks')
      .values({
        agent_key: agentKey,
        op: 'setAgentPower',
        params: JSON.stringify({ powerLimitKw }),
        targets: '[]',
        target_count: 0,
        total_count: 0,
        batch_op: 'setAgentPower',
        created_by: userId,
        status: 'done',
        done_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return task.id;
  });
}
