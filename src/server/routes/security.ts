/**
 * Abnormal alarms: suspicious SSH behaviour (spec 3 §2 /alarm/security; domains/security/security-records.ts). The
 * page's menu key (13000) reads; its operation key (13500) scans, marks processed and reboots a range. Every call
 * names its farm (agentKey) and needs membership of it.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { findMenuByKey } from '@shared/menu-catalogue';
import { AgentKeyQuery } from '@shared/schemas/common';
import { SecurityListQuery, SecurityProcessBody, SecurityRebootBody, SecurityScanBody, SecurityScansQuery, SecuritySettingsBody, SecurityTaskQuery } from '@shared/schemas/security';
import { getBatchProgress } from '../domains/batch/batch-log';
import {
  SECURITY_SCAN_OP,
  findSecurityRecords,
  findSecurityScans,
  getSecuritySettings,
  processSecurityRecords,
  rebootRange,
  saveSecuritySettings,
  startSecurityScan,
} from '../domains/security/security-records';
import { AppError } from '../errors';
import { ok } from '../plugins/envelope';

const menu = findMenuByKey('abnormalAlarms');
if (!menu) throw new Error('menu entry abnormalAlarms missing');
const VIEW = { permission: menu.permission, farmScoped: true };
const OPERATE = { permission: menu.operation, farmScoped: true };

export async function securityRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const tags = ['security alarms'];

  app.get(
    '/api/security/list',
    {
      config: VIEW,
      schema: {
        tags,
        description:
          'Suspicious SSH behaviour found by security scans: { list: [{ id, ip, sn, model, status suspicious | processed, kinds (ssh-login | ssh-brute-force | ssh-open, most serious first), report { sshOpen, banner, logRead, events [{ kind login | failed, source, user, count, lastLine }] }, online (the miner now; null: gone), firstSeenAt, scanTime, processedAt, processedBy, processNote }], total, curPage, pageSize, counts { suspicious, processed } }. Suspicious first, then the latest scanned. keyword: IP prefix or part of the SN.',
        querystring: SecurityListQuery,
      },
    },
    async (req) => ok(await findSecurityRecords(db, req.query)),
  );

  app.get(
    '/api/security/scans',
    {
      config: VIEW,
      schema: {
        tags,
        description: 'The farm\'s security scans, newest first: { list: [{ taskId, status pending | running | done, createdAt, doneAt, createdBy, ipBegin, ipEnd, targets, done, failed, found }], total, curPage, pageSize }.',
        querystring: SecurityScansQuery,
      },
    },
    async (req) => ok(await findSecurityScans(db, req.query)),
  );

  app.post(
    '/api/security/scan',
    {
      config: OPERATE,
      schema: {
        tags,
        description:
          'Scan now: queues a security scan of the farm\'s online miners of the S19 model and above (or of those from ipBegin to ipEnd). Answers { taskId, targets, skipped { offline, unsupported } }. One scan at a time per farm (code 1070 while one is queued or running); code 1071 when no miner can be scanned.',
        body: SecurityScanBody,
      },
    },
    async (req) => ok(await startSecurityScan(db, req.user!.id, req.body)),
  );

  app.post(
    '/api/security/process',
    {
      config: OPERATE,
      schema: {
        tags,
        description: 'Marks suspicious records processed (the miner returns to normal), with an optional note. Answers { processed }: records already processed are left as they were.',
        body: SecurityProcessBody,
      },
    },
    async (req) => ok(await processSecurityRecords(db, req.user!.id, req.body)),
  );

  app.post(
    '/api/security/rebootRange',
    {
      config: OPERATE,
      schema: {
        tags,
        description: 'Batch reboot of the farm\'s miners from ipBegin to ipEnd (a batchReboot: batch log, progress, offline miners refused). Answers { taskId, accepted, refused }; code 1072 when the farm has no miner in the range.',
        body: SecurityRebootBody,
      },
    },
    async (req) => ok(await rebootRange(db, req.user!.id, req.body)),
  );

  app.get(
    '/api/security/task',
    {
      config: VIEW,
      schema: {
        tags,
        description: 'Progress of a scan or a range reboot started on this page: as /api/minerv2/batchProgress.',
        querystring: SecurityTaskQuery,
      },
    },
    async (req) => {
      const p = await getBatchProgress(db, req.query.agentKey, req.query.taskId);
      if (!p || (p.op !== SECURITY_SCAN_OP && p.op !== 'batchReboot')) throw new AppError('notFound');
      return ok(p);
    },
  );

  app.get(
    '/api/security/settings',
    {
      config: VIEW,
      schema: { tags, description: 'Automatic scans of the farm: { autoScanHours: 0 (off) | 24 (daily, the default) | 168 (weekly), nextScanAt (null when off) }.', querystring: AgentKeyQuery },
    },
    async (req) => ok(await getSecuritySettings(db, req.query.agentKey)),
  );

  app.post(
    '/api/security/settings',
    {
      config: OPERATE,
      schema: { tags, description: 'Sets the automatic scans: autoScanHours 0 (off), 24 (daily) or 168 (weekly). Answers the settings as GET does.', body: SecuritySettingsBody },
    },
    async (req) => ok(await saveSecuritySettings(db, req.body)),
  );
}
