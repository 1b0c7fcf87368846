/**
 * Delta sync for the offline caches (api-conventions.md "Delta sync for offline caches"):
 * GET /api/sync/<collection>?agentKey=&since=&limit=&format= → data { rows, deleted, cursor, more, reset? }
 * (format=columns: plus `columns`, rows as arrays; the console's sync uses it).
 * GET /api/sync/miners/row?agentKey=&id= → data { row }: one miner now (the phone's open card).
 * One route per collection, each with the permission of the data it serves (miners 10000, customers 61000),
 * all farm-scoped. An unknown collection is a 404 (the not-found handler).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PERMISSION } from '@shared/menu-catalogue';
import { CUSTOMER_PERMISSION } from '@shared/schemas/customer';
import { SyncMinerRowQuery, SyncQuery } from '@shared/schemas/sync';
import { SYNC_PAGE_DEFAULT, SYNC_PAGE_MAX } from '@shared/sync-collections';
import { customerSyncSource } from '../domains/sync/customer-sync-rows';
import { SYNC_READINGS_REFRESH_MINUTES } from '../domains/miners/ingest-snapshots';
import { minerSyncSource, readMinerSyncRow } from '../domains/sync/miner-sync-rows';
import { SYNC_TOMBSTONE_RETENTION_DAYS } from '../domains/sync/prune-tombstones';
import { readSyncPage, syncAnswerJson } from '../domains/sync/sync-feed';
import { ok } from '../plugins/envelope';

const FEED_DOC =
  `since = the cursor of the previous answer (a decimal version; absent = everything), limit 1–${SYNC_PAGE_MAX} (default ${SYNC_PAGE_DEFAULT}). ` +
  'Answers data { rows (ordered by version), deleted (ids removed since the cursor), cursor (pass as since next time; unchanged when nothing changed), more (true = ask again at once) }. ' +
  `Deletions are kept ${SYNC_TOMBSTONE_RETENTION_DAYS} days: an older cursor gets the feed from the beginning with reset: true (drop the cached rows first). ` +
  'format=columns answers the same page compactly: data.columns lists the row fields once and each row is an array of their values in that order (about half the bytes of format=objects, the default).';

export async function syncRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const tags = ['sync'];

  app.get(
    '/api/sync/miners',
    {
      config: { permission: PERMISSION.miners, farmScoped: true },
      schema: {
        tags,
        description: `Changed miners of the farm for the offline cache (ip, upper-case sn, model, statuses, hashrate, temperatures, fans, faults, customer and accident marks with marksVersion, shelf and seat). A miner gets a new version when a reading changes its identity, online state, state flags, faults, work mode or ideal hashrate, when its marks or SN change, and otherwise every ${SYNC_READINGS_REFRESH_MINUTES} minutes with its latest readings (hashrate, temperatures, fans). ${FEED_DOC}`,
        querystring: SyncQuery,
      },
    },
    // The body is written as JSON text around the rows' JSON from the database (sync-feed.ts syncAnswerJson).
    async (req, reply) => reply.type('application/json; charset=utf-8').send(syncAnswerJson(await readSyncPage(db, 'miners', req.query, minerSyncSource), minerSyncSource, req.query.format)),
  );

  app.get(
    '/api/sync/miners/row',
    {
      config: { permission: PERMISSION.miners, farmScoped: true },
      schema: {
        tags,
        description:
          'One miner of the farm now, as the miners feed gives it (data { row }; row null when the farm has no such miner). The phone refreshes an open miner card from it while online, since the feed sends unchanged readings only every few minutes.',
        querystring: SyncMinerRowQuery,
      },
    },
    async (req) => ok({ row: await readMinerSyncRow(db, req.query.agentKey, req.query.id) }),
  );

  app.get(
    '/api/sync/customers',
    {
      config: { permission: CUSTOMER_PERMISSION.view, farmScoped: true },
      schema: { tags, description: `Changed customers of the farm (id, name) for the offline cache. ${FEED_DOC}`, querystring: SyncQuery },
    },
    async (req, reply) =>
      reply.type('application/json; charset=utf-8').send(syncAnswerJson(await readSyncPage(db, 'customers', req.query, customerSyncSource), customerSyncSource, req.query.format)),
  );
}
