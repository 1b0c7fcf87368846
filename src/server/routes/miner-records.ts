/**
 * Miner records and the dashboard (issue 4 scope 2, 6, 7): dashboard period panels, off-shelf records and
 * "back on shelf", the SN override, a miner's operation log, history-log requests and the agent's upload of
 * a history log. Reads need the page's menu key, writes its operation key (view + 500) — the dashboard's miner
 * figures need the miners key (10000) like every miner read; every user route checks membership of the farm
 * named by agentKey.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AGENT_UPLINK_PREFIX } from '@shared/schemas/agent-uplink';
import { PERMISSION, findMenuByKey } from '@shared/menu-catalogue';
import {
  DashboardQuery,
  DashboardSeriesQuery,
  HistoryLogBody,
  HistoryLogStatusQuery,
  HistoryLogUpload,
  MinerOpLogQuery,
  OffShelfQuery,
  OnShelfBody,
  UpdateSnBody,
} from '@shared/schemas/miner-records';
import { ShelfImportApplyBody, ShelfImportRowsQuery } from '@shared/schemas/shelf-import';
import { MaintainOnShelfBody, MaintenanceQuery, SetRepairStatusBody } from '@shared/schemas/off-shelf-maintenance';
import { getDashboardSeries, getDashboardSummary } from '../domains/miner-records/dashboard';
import { createHistoryLog, getHistoryLog, storeHistoryLog } from '../domains/miner-records/history-log';
import { updateMinerSn } from '../domains/miner-records/miner-sn';
import { findOffShelf, putOnShelf } from '../domains/miner-records/off-shelf';
import { findMinerOpLog } from '../domains/miner-records/op-log';
import { applyShelfImport, shelfImportRows } from '../domains/miner-records/shelf-import';
import { findMaintenance, maintainOnShelf, setRepairStatus } from '../domains/miner-records/off-shelf-maintenance';
import { parseUploadedIpList, storeIpList } from '../domains/batch/ip-lists';
import { AppError } from '../errors';
import { ok } from '../plugins/envelope';

const offShelfMenu = findMenuByKey('offShelfRecords');
if (!offShelfMenu) throw new Error('menu entry offShelfRecords missing');
const OFF_SHELF_VIEW = offShelfMenu.permission;
const OFF_SHELF_OPERATE = offShelfMenu.operation;

const batchOnlineMenu = findMenuByKey('batchOnline');
if (!batchOnlineMenu) throw new Error('menu entry batchOnline missing');
/** Batch on/off shelf from a file (/setting/agent/online): every call of the page changes or prepares a change, so all need its operation key. */
const SHELF_IMPORT = { permission: batchOnlineMenu.operation, farmScoped: true };

const maintainMenu = findMenuByKey('unshelveMaintain');
if (!maintainMenu) throw new Error('menu entry unshelveMaintain missing');
/** Off-shelf maintenance (/unshelve-miner/maintain): the page's key reads, its operation key changes. */
const MAINTAIN_VIEW = { permission: maintainMenu.permission, farmScoped: true };
const MAINTAIN_OPERATE = { permission: maintainMenu.operation, farmScoped: true };

const TaskIdParams = z.object({ taskId: z.string().uuid('validation.id') });

export async function minerRecordRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const read = { permission: PERMISSION.miners, farmScoped: true };
  const write = { permission: PERMISSION.minerOperations, farmScoped: true };

  app.get(
    '/api/dashboard/summary',
    {
      config: read,
      schema: {
        tags: ['dashboard'],
        description:
          "Dashboard figures: counters of the farm's miners now (total, each state, offline24h = offline with a last reading older than 24 h, each fault label, topFaults most frequent first, offlineReasons: the offline miners per reason their agent gave, code -110 no answer / -111 refused / -104 closed before a reply / -113 unreachable, most frequent first; offlineZones: the three sub-areas holding the most offline miners, id, path and count); panels for today (from the viewer's midnight, tzOffsetMin minutes east of UTC), the last 3 days and the last week, averaged from the hourly roll-up of the per-cycle rows (periods start at the hour) — real and ideal hashrate (GH/s), efficiency (real/ideal %), online rate (online/total %), qualified rate (qualified/online %), temperature max and average, samples (cycles); and the temperature distribution of the online miners now (buckets below 40, 40–50 … 80–90, 90 °C and above; unknown = no reading).",
        querystring: DashboardQuery,
      },
    },
    async (req) => ok(await getDashboardSummary(db, req.query.agentKey, req.query.tzOffsetMin)),
  );

  app.get(
    '/api/dashboard/series',
    {
      config: read,
      schema: {
        tags: ['dashboard'],
        description:
          "The dashboard chart: the farm's real vs ideal hashrate (GH/s) with miner counts and temperatures — range hour = each cycle of the last 60 minutes, 30d = per hour over 30 days, 1y = per day over a year (hourly roll-up).",
        querystring: DashboardSeriesQuery,
      },
    },
    async (req) => ok(await getDashboardSeries(db, req.query.agentKey, req.query.range)),
  );

  app.get(
    '/api/miner/offShelfList',
    {
      config: { permission: OFF_SHELF_VIEW, farmScoped: true },
      schema: {
        tags: ['miners'],
        description: 'Off-shelf records (spec 3 §2 /device/miners): miners marked off shelf, newest first: ip, sn, model, customer, offShelfAt, by (user), op (the marking batch), present (the farm still has a miner at that IP), online. keyword: IP prefix, part of the SN or of the customer. Paged: list, total, curPage, pageSize.',
        querystring: OffShelfQuery,
      },
    },
    async (req) => ok(await findOffShelf(db, req.query)),
  );

  app.post(
    '/api/miner/onShelf',
    {
      config: { permission: OFF_SHELF_OPERATE, farmScoped: true },
      schema: {
        tags: ['miners'],
        description: 'Puts off-shelf miners back on shelf (records only). Idempotent: answers { changed: [ip] } — the miners that were still off shelf; each change is in the miner\'s operation log.',
        body: OnShelfBody,
      },
    },
    async (req) => ok(await putOnShelf(db, req.body.agentKey, req.user!.id, req.body.ips)),
  );

  app.post(
    '/api/miner/shelfImport/upload',
    {
      config: SHELF_IMPORT,
      schema: {
        tags: ['miners'],
        description:
          'Batch on/off shelf from a file (/setting/agent/online), step 1. multipart: agentKey, file (.txt one IP per line, or Excel .xlsx / legacy .xls: column 1 IP, 2 SN, 3 customer of the first sheet; the first row may be a header), optional fileName. At most 10,000 rows. Answers { fileId, count, matched, unmatched, invalid, expiresAt } as /api/minerv2/uploadIpList; the list is kept one hour for its uploader.',
        consumes: ['multipart/form-data'],
      },
    },
    async (req) => ok(await storeIpList(db, req.farmKey!, req.user!.id, await parseUploadedIpList(req.body))),
  );

  app.get(
    '/api/miner/shelfImport/rows',
    {
      config: SHELF_IMPORT,
      schema: {
        tags: ['miners'],
        description:
          'Step 2: the uploaded rows checked for action off | on: { summary: { change, already, snMismatch, unknown }, list: [{ n, ip, fileSn, fileCustomer, sn, model, offShelf, online, outcome }], total, curPage, pageSize }, in file order, optionally only one outcome. snMismatch: the file gives an SN and the miner at that IP has another.',
        querystring: ShelfImportRowsQuery,
      },
    },
    async (req) => ok(await shelfImportRows(db, req.user!.id, req.query)),
  );

  app.post(
    '/api/miner/shelfImport/apply',
    {
      config: SHELF_IMPORT,
      schema: {
        tags: ['miners'],
        description:
          'Step 3: applies action off (the records-only batch batchOffline) or on (back on shelf) to the rows whose outcome is change, and snMismatch too with includeSnMismatch. Answers { action, changed, taskId, summary, skipped }. Applying again changes nothing.',
        body: ShelfImportApplyBody,
      },
    },
    async (req) => {
      const r = await applyShelfImport(db, req.user!.id, { ...req.body, agentKey: req.farmKey! });
      req.log.info({ agentKey: req.farmKey, action: r.action, changed: r.changed, taskId: r.taskId }, 'shelf import applied');
      return ok(r);
    },
  );

  app.get(
    '/api/miner/maintain/list',
    {
      config: MAINTAIN_VIEW,
      schema: {
        tags: ['miners'],
        description:
          'Off-shelf maintenance (/unshelve-miner/maintain): the miners marked off shelf, longest off shelf first, with repairStatus (awaiting | onsite | outsourced | pendingShelf | scrapped; awaiting until one is set), repairNote, repairAt, repairBy; counts per status. status filters; keyword: IP prefix, part of the SN, customer or note. Paged: list, total, curPage, pageSize, counts.',
        querystring: MaintenanceQuery,
      },
    },
    async (req) => ok(await findMaintenance(db, req.query)),
  );

  app.post(
    '/api/miner/maintain/status',
    {
      config: MAINTAIN_OPERATE,
      schema: {
        tags: ['miners'],
        description:
          "Sets the repair status (and the note, when given: '' clears it) of off-shelf miners. Idempotent: answers { changed: [ip], refused: [{ ip, reason: notOffShelf }] }; each change is in the miner's operation log.",
        body: SetRepairStatusBody,
      },
    },
    async (req) => ok(await setRepairStatus(db, { ...req.body, agentKey: req.farmKey!, userId: req.user!.id })),
  );

  app.post(
    '/api/miner/maintain/onShelf',
    {
      config: MAINTAIN_OPERATE,
      schema: {
        tags: ['miners'],
        description:
          'Puts repaired miners back on shelf (ends their repair). A scrapped miner is refused until it is given another status. Idempotent: answers { changed: [ip], refused: [{ ip, reason: notOffShelf | scrapped }] }.',
        body: MaintainOnShelfBody,
      },
    },
    async (req) => ok(await maintainOnShelf(db, req.farmKey!, req.user!.id, req.body.ips)),
  );

  app.post(
    '/api/miner/updateSn',
    {
      config: write,
      schema: {
        tags: ['miners'],
        description: 'Sets our record of the miner\'s SN (trimmed, upper case, exactly 17 characters: "SN must be 17"). Kept over what the agent reports later; the reported SN stays in the snapshot (reportedSn). Idempotent: the same SN again answers changed false. 404 when the farm has no miner at that IP.',
        body: UpdateSnBody,
      },
    },
    async (req) => ok(await updateMinerSn(db, req.body.agentKey, req.user!.id, req.body.ip, req.body.sn)),
  );

  app.get(
    '/api/miner/opLog',
    {
      config: read,
      schema: {
        tags: ['miners'],
        description: "One miner's operation log, newest first: batch operations that reached it (ok, reason), batches still queued for it (ok null), record changes (updateSn, onShelf, historyLog). Paged: list, total, curPage, pageSize (max 200).",
        querystring: MinerOpLogQuery,
      },
    },
    async (req) => ok(await findMinerOpLog(db, req.query.agentKey, req.query.ip, req.query.page, req.query.pageSize)),
  );

  app.post(
    '/api/miner/historyLog',
    {
      config: write,
      schema: {
        tags: ['miners'],
        description: "Asks the farm's agent to read the miner's log (Antminer get_kernel_log.cgi / log.cgi). Answers { id, status: pending }; poll GET /api/miner/historyLog/status. 404 when the farm has no miner at that IP.",
        body: HistoryLogBody,
      },
    },
    async (req) => ok(await createHistoryLog(db, req.body.agentKey, req.user!.id, req.body.ip)),
  );

  app.get(
    '/api/miner/historyLog/status',
    {
      config: read,
      schema: {
        tags: ['miners'],
        description: 'Status of a history-log request: pending | running | done (content: the log text, size in bytes, source) | failed (reason).',
        querystring: HistoryLogStatusQuery,
      },
    },
    async (req) => {
      const info = await getHistoryLog(db, req.query.agentKey, req.query.id);
      if (!info) throw new AppError('notFound');
      return ok(info);
    },
  );

  app.post(
    `${AGENT_UPLINK_PREFIX}/history-logs/:taskId`,
    {
      config: { permission: 'agent' as const },
      bodyLimit: 4 * 1024 * 1024,
      schema: { tags: ['agent uplink'], description: 'The agent uploads the log it read for a history-log task: { ip, ok, content?, source?, reason? }.', params: TaskIdParams, body: HistoryLogUpload },
    },
    async (req) => ok(await storeHistoryLog(db, req.agent!.agentKey, req.params.taskId, req.body)),
  );
}
