/**
 * The farm's pool configuration file (spec 3 §7 "pool config file"; domains/batch/pool-config-file.ts): download the
 * miners' current pools as .xlsx (miners key 10000), upload the edited file to check it, apply the checked plan with a
 * verification code as batchSetPool batches (miner-operations key 10500). Every route is farm-scoped.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PERMISSION } from '@shared/menu-catalogue';
import { PoolConfigApplyBody, PoolConfigDownloadQuery } from '@shared/schemas/pool-config-file';
import { applyPoolConfig, buildPoolConfigXlsx, checkPoolConfig, parseUploadedPoolConfig, poolConfigFileName, readMinerPools } from '../domains/batch/pool-config-file';
import { ok } from '../plugins/envelope';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export async function poolConfigFileRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const tags = ['batch operations'];
  const write = { permission: PERMISSION.minerOperations, farmScoped: true };
  const read = { permission: PERMISSION.miners, farmScoped: true };

  app.get(
    '/api/minerv2/getuploadPoolConfigFile',
    {
      config: read,
      schema: {
        tags,
        description:
          'The pool configuration file (.xlsx attachment pool-config-<agentKey>-<YYYYMMDD-HHmm>.xlsx): columns IP, SN, Model, Pool 1 URL, Pool 1 worker, Pool 2 URL, Pool 2 worker, Pool 3 URL, Pool 3 worker (header in the request language), one row per miner of the farm in IP order with the pools it reports now — or only those of ips (comma-joined), or those matching filter (JSON of the /api/miner/list filters, as a batch takes it) less exclude (comma-joined, at most 800); no miners: the header and a sample row. Errors are envelopes.',
        querystring: PoolConfigDownloadQuery,
      },
    },
    async (req, reply) => {
      const { agentKey, ips, filter, exclude } = req.query;
      const miners = await readMinerPools(db, agentKey, { ips, filter, exclude });
      const file = await buildPoolConfigXlsx(req.locale, miners);
      return reply
        .header('Content-Type', XLSX_TYPE)
        .header('Content-Disposition', `attachment; filename="${poolConfigFileName(req.query.agentKey)}"`)
        .header('Cache-Control', 'no-store')
        .send(file);
    },
  );

  app.post(
    '/api/minerv2/uploadPoolConfig',
    {
      config: write,
      schema: {
        tags,
        description:
          'multipart: agentKey, file (.xlsx, .xls, .csv or .txt with the columns of getuploadPoolConfigFile; the header row is skipped), optional fileName. At most 10,000 rows. Checks each row (IPv4 of a miner of the farm, pool 1 URL and worker required, URLs well formed without sensitive words) against the miner\'s current pools. Answers { fileId, counts: { change, same, unknown, invalid }, groups: [{ pools: [{ url, user }], count }], invalid: [{ line, ip, field, message }] (first 200), expiresAt }; fileId is applicable for one hour by this user (applyPoolConfig).',
        consumes: ['multipart/form-data'],
      },
    },
    async (req) => ok(await checkPoolConfig(db, req.locale, req.farmKey!, req.user!.id, await parseUploadedPoolConfig(req.body))),
  );

  app.post(
    '/api/minerv2/applyPoolConfig',
    {
      config: write,
      schema: {
        tags,
        description:
          'Body: agentKey, fileId (uploadPoolConfig), code (the verification code from sendCode, used once). Queues one batchSetPool batch (workerSuffix none) per distinct pool set of the checked file. Only the uploader, once; a role whose pool changes need approval is refused (poolConfigNeedsApproval). Answers { batches: [{ taskId, ips, pool1Url }], refused: [{ ip, reason }] }.',
        body: PoolConfigApplyBody,
      },
    },
    async (req) => {
      const r = await applyPoolConfig(db, req.farmKey!, req.user!, req.body.fileId, req.body.code);
      req.log.info({ agentKey: req.farmKey, fileId: req.body.fileId, batches: r.batches.length }, 'pool config applied');
      return ok(r);
    },
  );
}
