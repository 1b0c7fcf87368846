/**
 * Batch pool-setting approval (spec 2 §7): GET /api/minerv2/getPoolConfInfo, agreeMinerBatchSetPool and
 * disagreeMinerBatchSetPool (uuid), answering code -1 with msg on any refusal (spec 2 §8); plus the farm's
 * approval setting (approver and roles), designed in the same style. The decisions are GETs as the spec
 * writes them; the request's uuid (random, known only from the approver's e-mail) and the approver check
 * guard them. GET /api/options/auditorList (spec 3 §7 option lists) offers the users the setting accepts as approver.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PERMISSION } from '@shared/menu-catalogue';
import { ApprovalQuery, ApprovalSettingBody, ApprovalSettingQuery } from '@shared/schemas/approvals';
import { agreeRequest, approverOptions, disagreeRequest, getApprovalSetting, getPoolConfInfo, saveApprovalSetting } from '../domains/approvals/pool-approvals';
import { ok } from '../plugins/envelope';

export async function approvalRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const tags = ['batch approval'];
  const viewer = { permission: 'authenticated' as const };

  app.get(
    '/api/minerv2/getPoolConfInfo',
    {
      config: viewer,
      schema: {
        tags,
        description:
          'One approval request, for its approver (or an administrator) and its applicant: { uuid, type pool | upload, status pending | agreed | disagreed, initiatorRole, initiator, agentName, agentKey, poolConfig (worker suffix), poolGroupInfo { Pool1Url, Pool1User, Pool1Suffix … Pool3 }, fileUrl, ipLen, createdAt, decidedAt, decidedBy, taskId, failure, canDecide }. Anyone else, or an unknown uuid: code -1.',
        querystring: ApprovalQuery,
      },
    },
    async (req) => ok(await getPoolConfInfo(db, req.user!, req.query.uuid)),
  );

  app.get(
    '/api/minerv2/agreeMinerBatchSetPool',
    {
      config: viewer,
      schema: {
        tags,
        description:
          'The approver agrees: the stored batch is queued for the agent now (answers { status, taskId, queued, refused }). Once only: a decided request answers code -1 (as does a viewer who is not the approver). If nothing can be queued (e.g. every miner left the farm), the request stays decided and the answer is code -1.',
        querystring: ApprovalQuery,
      },
    },
    async (req) => ok(await agreeRequest(db, req.user!, req.query.uuid, req.log)),
  );

  app.get(
    '/api/minerv2/disagreeMinerBatchSetPool',
    {
      config: viewer,
      schema: { tags, description: 'The approver disagrees: nothing is queued, nothing reaches the miners. Once only (code -1 afterwards).', querystring: ApprovalQuery },
    },
    async (req) => ok(await disagreeRequest(db, req.user!, req.query.uuid)),
  );

  app.get(
    '/api/approval/setting',
    {
      config: { permission: PERMISSION.farmSettings, farmScoped: true },
      schema: { tags, description: "The farm's approval setting: { agentKey, approverId, approverName, roleIds }.", querystring: ApprovalSettingQuery },
    },
    async (req) => ok(await getApprovalSetting(db, req.query.agentKey)),
  );

  app.get(
    '/api/options/auditorList',
    {
      // The same key as the setting it fills: the list names the farm's users (e-mails masked).
      config: { permission: PERMISSION.farmSettings, farmScoped: true },
      schema: {
        tags,
        description:
          "Users who can be the farm's approver (POST /api/approval/setting accepts them): enabled members of the farm, or administrators, with an e-mail address — users without one are not offered (the setting refuses them). [{ text: \"user (masked e-mail)\", value: user id }], by name.",
        querystring: ApprovalSettingQuery,
      },
    },
    async (req) => ok(await approverOptions(db, req.query.agentKey)),
  );

  app.post(
    '/api/approval/setting',
    {
      config: { permission: PERMISSION.farmSettingsOperations, farmScoped: true },
      schema: {
        tags,
        description:
          'Sets the approver (a member of the farm, or an administrator, with an e-mail address; empty = approval off) and roleIds (comma-joined): batch pool settings and firmware upgrades asked by users of these roles wait for the approver.',
        body: ApprovalSettingBody,
      },
    },
    async (req) => ok(await saveApprovalSetting(db, req.body.agentKey, req.user!.id, { approverId: req.body.approverId, roleIds: req.body.roleIds })),
  );
}
