/**
 * Technician writes that come from the phone's offline outbox (issue 5): notes and fault marks on a miner,
 * their list, and a change of the miner's customer guarded by the marks version (409 with the current value
 * when stale). Writes need the miner-operations key (10500), reads the miners key (10000); all farm-scoped.
 * Every write is safe to replay: the note's id is the client's UUIDv7, and the Idempotency-Key header
 * (sent by the outbox) answers the stored answer.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PERMISSION } from '@shared/menu-catalogue';
import { AddMinerNoteBody, ChangeMinerCustomerBody, MinerNotesQuery } from '@shared/schemas/miner-notes';
import { addMinerNote, changeMinerCustomer, listMinerNotes } from '../domains/miner-notes/miner-notes.repository';
import { ok } from '../plugins/envelope';

export async function minerNoteRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const tags = ['miner notes'];
  const write = { permission: PERMISSION.minerOperations, farmScoped: true };
  const read = { permission: PERMISSION.miners, farmScoped: true };

  app.post(
    '/api/miner/notes',
    {
      config: write,
      schema: {
        tags,
        description:
          "Adds a technician's note (kind note, text required) or fault mark (kind fault, faultType one of the fault labels, text optional; also sets the miner's accident mark) on the miner at ip. id is the client's UUIDv7 (the primary key): the same id with the same body answers the stored note, with another body 422. text ≤ 500; createdAt is the client's ISO time. Answers the note.",
        body: AddMinerNoteBody,
      },
    },
    async (req) => ok(await addMinerNote(db, req.user!.id, req.body)),
  );

  app.get(
    '/api/miner/notes',
    {
      config: read,
      schema: {
        tags,
        description: 'Notes and fault marks of the miner at ip, newest first: data { list: [{ id, kind, faultType, text, authorName, createdAt, receivedAt }], total, curPage, pageSize }.',
        querystring: MinerNotesQuery,
      },
    },
    async (req) => ok(await listMinerNotes(db, req.query.agentKey, req.query.ip, req.query.page, req.query.pageSize)),
  );

  app.post(
    '/api/miner/customer',
    {
      config: write,
      schema: {
        tags,
        description:
          "Sets the miner's customer (an existing customer name of the farm) or clears it (null). baseVersion is the marks version the client saw (marksVersion of /api/sync/miners; '0' when the miner had no marks): when it is stale the answer is 409 with data { current: { customer, marksVersion } }. Answers { marksVersion }.",
        body: ChangeMinerCustomerBody,
      },
    },
    async (req) => ok(await changeMinerCustomer(db, req.user!.id, req.body)),
  );
}
