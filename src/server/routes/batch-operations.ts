/**
 * Miner batch operations (spec 3 §4, §5, §7): POST /api/minerv2/<op> for the 17 ops, the verification
 * code (sendCode), the IP-list upload used as a target, the batch log and one batch's progress. Writes
 * need the miner-operations key (10500) and membership of the farm; reads need the miners key (10000).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PERMISSION } from '@shared/menu-catalogue';
import {
  BATCH_BODIES,
  BATCH_OPS,
  BatchListQuery,
  BatchProgressQuery,
  type BatchListResult,
  type BatchQueuedResult,
  LIST_ANSWER_OPS,
  type MinerBatchOp,
  RECORD_ONLY_OPS,
  SENSITIVE_BATCH_OPS,
  SendCodeBody,
  isSensitiveBatchOp,
} from '@shared/schemas/batch-operations';
import { isApprovalOp } from '@shared/schemas/approvals';
import { requestApprovalIfRequired } from '../domains/approvals/pool-approvals';
import { findBatchLog, getBatchProgress } from '../domains/batch/batch-log';
import { parseUploadedIpList, storeIpList } from '../domains/batch/ip-lists';
import { createMailSender, createSmsProvider } from '../domains/batch/message-senders';
import { runMinerBatch, setAgentPower } from '../domains/batch/run-batch';
import { sendVerificationCode } from '../domains/batch/verification-codes';
import { AppError } from '../errors';
import { ok } from '../plugins/envelope';

const TARGET_DOC =
  'Body: agentKey and exactly one target — ips (comma-joined IPv4), filter (JSON of the /api/miner/list filters: every matching miner) or ipListFileId (from uploadIpList, valid 1 hour); at most 10,000 miners.';

const OP_DOC: Record<(typeof BATCH_OPS)[number], string> = {
  batchBlink: 'Blink the locate LED: on (true/false).',
  batchChangeWorkMode: 'Work mode: mode normal | sleep | low-power.',
  batchUpgrade: 'Firmware upgrade from fileUrl (http(s) URL or a server path), optional fileName, keepSettings (default true). Sensitive: needs code.',
  batchCustomer: "Records only: customer (a customer's name of the farm, /api/options/customer) becomes the miners' customer; clear=true instead removes it (the farm's own miners).",
  batchDelete: 'Removes the miners from the farm and queues "remove" for the agent. Sensitive: needs code.',
  batchOffline: 'Records only: marks the miners off shelf.',
  batchOfflineRecoverDHCP: 'Marks the miners off shelf and queues DHCP recovery. Sensitive: needs code.',
  batchReboot: 'Reboot.',
  batchRecoverDHCP: 'Switch the network to DHCP.',
  batchReset: 'Factory reset. Sensitive: needs code.',
  batchSetPool: 'Pools: pool1Url, pool1User, pool1Password, pool2…, pool3…; workerSuffix ip | sn | none. URLs must be well formed without gov / dhs. Sensitive: needs code.',
  batchAdjustHashRate: 'Hashrate percent (clamped to 65–100); S21/T21 stock firmware ≥ 2024-05-20, hashing, qualified, normal mode. Answers { taskId, success, failed }.',
  batchSetFrequency: 'Frequency freqMhz (1–2000); S19 stock firmware only. Answers { taskId, success, failed }.',
  batchChangePowerPercent: 'Power percent (1–100); S19 / S19 XP Hyd / T21 stock firmware after 2024-09. Answers { taskId, success, failed }.',
  batchSetFans: 'Fans: mode auto | manual, percent (0–100, required for manual). Queued as op "set-fans".',
  batchAccident: 'Records only: accident (label) and note on the miners.',
  setAgentPower: "The farm's power limit powerLimitKw (0 = none), kept with its agent settings. Body: agentKey, powerLimitKw.",
};

export async function batchOperationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const tags = ['batch operations'];
  const write = { permission: PERMISSION.minerOperations, farmScoped: true };
  const read = { permission: PERMISSION.miners, farmScoped: true };
  const mail = createMailSender(app.config);
  const sms = createSmsProvider(app.config, app.log);

  for (const op of BATCH_OPS) {
    if (op === 'setAgentPower') continue;
    const minerOp: MinerBatchOp = op;
    const lists = (LIST_ANSWER_OPS as readonly string[]).includes(op);
    const sensitive = isSensitiveBatchOp(op);
    const recordsOnly = (RECORD_ONLY_OPS as readonly string[]).includes(op);
    app.post(
      `/api/minerv2/${op}`,
      {
        config: write,
        schema: {
          tags,
          description: `${OP_DOC[op]} ${TARGET_DOC}${sensitive ? ' code: the verification code from sendCode (used once).' : ''} ${
            lists ? '' : `Answers { taskId, queued, refused: [{ ip, reason }] }${recordsOnly ? ' (records only: queued counts the changed miners, the batch is done at once)' : ''}.`
          }`,
          body: BATCH_BODIES[op],
        },
      },
      async (req) => {
        if (isApprovalOp(op)) {
          const deps = { db, mail, log: req.log, locale: req.locale, origin: `${req.protocol}://${req.host}` };
          const pending = await requestApprovalIfRequired(deps, { op, agentKey: req.farmKey!, user: req.user!, body: req.body as Record<string, unknown> });
          if (pending) return ok(pending);
        }
        const r = await runMinerBatch(db, { op: minerOp, agentKey: req.farmKey!, userId: req.user!.id, body: req.body as never });
        req.log.info({ op, agentKey: req.farmKey, taskId: r.taskId, accepted: r.accepted.length, refused: r.refused.length }, 'batch operation');
        if (lists) return ok<BatchListResult>({ taskId: r.taskId, success: r.accepted, failed: r.refused });
        return ok<BatchQueuedResult>({ taskId: r.taskId, queued: r.accepted.length, refused: r.refused });
      },
    );
  }

  app.post(
    '/api/minerv2/setAgentPower',
    { config: write, schema: { tags, description: OP_DOC.setAgentPower, body: BATCH_BODIES.setAgentPower } },
    async (req) => {
      const taskId = await setAgentPower(db, req.farmKey!, req.user!.id, req.body.powerLimitKw);
      return ok({ taskId, powerLimitKw: req.body.powerLimitKw });
    },
  );

  app.post(
    '/api/minerv2/sendCode',
    {
      config: { permission: PERMISSION.minerOperations },
      schema: {
        tags,
        description: `Sends a 6-digit verification code for the sensitive ops (${SENSITIVE_BATCH_OPS.join(', ')}) by channel email | sms to the address bound in the user center; valid 10 minutes, 5 attempts, one send per minute. Area code 86 cannot receive SMS (use e-mail).`,
        body: SendCodeBody,
      },
    },
    async (req) => ok(await sendVerificationCode({ db, mail, sms, log: req.log, locale: req.locale }, req.user!, req.body.channel)),
  );

  app.post(
    '/api/minerv2/uploadIpList',
    {
      config: write,
      schema: {
        tags,
        description:
          'multipart: agentKey, file (.txt one IP per line, or Excel .xlsx / legacy .xls: column 1 IP, 2 SN, 3 customer of the first sheet; the first row may be a header), optional fileName. At most 10,000 rows. Answers { fileId, count, matched, unmatched, invalid, expiresAt }; fileId is a batch target (ipListFileId) for one hour.',
        consumes: ['multipart/form-data'],
      },
    },
    async (req) => ok(await storeIpList(db, req.farmKey!, req.user!.id, await parseUploadedIpList(req.body))),
  );

  app.get(
    '/api/log/batchList',
    { config: read, schema: { tags, description: 'Paged batches of the farm, newest first: { list: [{ taskId, op, user, createdAt, doneAt, total, done, ok, failed, status }], total, curPage, pageSize }.', querystring: BatchListQuery } },
    async (req) => ok(await findBatchLog(db, req.query.agentKey, req.query.page, req.query.pageSize)),
  );

  app.get(
    '/api/minerv2/batchProgress',
    { config: read, schema: { tags, description: 'One batch: { taskId, op, status, total, done, successes: [ip], failures: [{ ip, reason }] } (refused miners count as failures from the start).', querystring: BatchProgressQuery } },
    async (req) => {
      const p = await getBatchProgress(db, req.query.agentKey, req.query.taskId);
      if (!p) throw new AppError('notFound');
      return ok(p);
    },
  );
}
