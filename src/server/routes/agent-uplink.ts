/**
 * The agent's side of the server (contract: src/shared/schemas/agent-uplink.ts). Authenticated by the
 * farm's Bearer agentKey.secret; a user session can never call these, and an agent token nothing else.
 */
import { createGunzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { AGENT_UPLINK_PREFIX, AgentConfig, Heartbeat, SnapshotBatch, TaskResultReport } from '@shared/schemas/agent-uplink';
import { whitelistForAgent } from '../domains/customers-pools/pools.repository';
import { agentCredentials } from '../domains/miner-logins/miner-logins';
import { SECURITY_SCAN_OP, recordSecurityResults, scanFindings } from '../domains/security/security-records';
import { chunkSizeOf, ingestPrepared } from '../domains/miners/ingest-snapshots';
import { offShelfIps } from '../domains/miners/miner-stamps';
import { parseUpload } from '../domains/miners/upload-parser';
import { AppError } from '../errors';
import { ok } from '../plugins/envelope';
import { createSecretBox } from '../secret-box';

const TaskIdParams = z.object({ id: z.string().uuid('validation.id') });

export async function agentUplinkRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const box = createSecretBox(app.config);
  const cfg = { permission: 'agent' as const };
  const tags = ['agent uplink'];
  const p = (path: string) => `${AGENT_UPLINK_PREFIX}${path}`;

  // Uploads are gzip-compressed JSON. Fastify compares Content-Length with the stream's
  // receivedEncodedLength (the compressed bytes read), not with the inflated size.
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (request.url.startsWith(AGENT_UPLINK_PREFIX) && request.headers['content-encoding'] === 'gzip') {
      delete request.headers['content-encoding'];
      const inflated = createGunzip() as ReturnType<typeof createGunzip> & { receivedEncodedLength: number };
      inflated.receivedEncodedLength = 0;
      payload.on('data', (chunk: Buffer) => (inflated.receivedEncodedLength += chunk.length));
      return payload.pipe(inflated);
    }
    return payload;
  });

  app.get(p('/config'), { config: cfg, schema: { tags } }, async (req) => {
    const key = req.agent!.agentKey;
    const farm = await db.selectFrom('farms').select(['agent_settings']).where('agent_key', '=', key).executeTakeFirstOrThrow();
    const ranges = await db.selectFrom('scan_ip_ranges').select(['ip_begin', 'ip_end']).where('agent_key', '=', key).orderBy('sort_no').orderBy('created_at').execute();
    const poolWhitelist = await whitelistForAgent(db, key);
    const settings = AgentConfig.parse({ ...farm.agent_settings, scanRanges: ranges.map((r) => ({ ipBegin: r.ip_begin, ipEnd: r.ip_end })), poolWhitelist });
    // The farm's miner logins (decrypted for its agent only), in front of any its settings held.
    const config: AgentConfig = { ...settings, credentials: await agentCredentials(db, box, key, settings.credentials) };
    return ok(config);
  });

  // Uploads (up to 20,000 miners, ~30 MB of JSON) are read, checked and prepared by the upload worker
  // (domains/miners/upload-parser.ts) off the main thread, with the same checks as the body schema (isExactSnapshotBatch,
  // else zod with its usual field messages); the route takes the body as bytes. The schema stays for the API docs.
  await app.register(async (child) => {
    child.removeContentTypeParser('application/json');
    child.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    child.post(
      p('/snapshots'),
      { config: cfg, bodyLimit: 256 * 1024 * 1024, schema: { tags, body: SnapshotBatch }, validatorCompiler: () => (data: unknown) => ({ value: data }) },
      async (req) => {
        const { head, chunks } = await parseUpload(req.body as unknown as Buffer, chunkSizeOf(db), await offShelfIps(db, req.agent!.agentKey));
        return ok(await ingestPrepared(db, req.agent!.agentKey, head, chunks));
      },
    );
  });

  app.post(p('/heartbeat'), { config: cfg, schema: { tags, body: Heartbeat } }, async (req) => {
    const b = req.body;
    await db
      .updateTable('farms')
      .set({
        last_online_at: new Date(),
        net_delay: Math.round(b.netDelayMs),
        version: b.agentVersion,
        ...(b.host ? { host_info: JSON.stringify(b.host) } : {}),
      })
      .where('agent_key', '=', req.agent!.agentKey)
      .execute();
    return ok({ serverTime: new Date().toISOString() });
  });

  app.get(p('/tasks'), { config: cfg, schema: { tags } }, async (req) => {
    const key = req.agent!.agentKey;
    const rows = await db
      .updateTable('agent_tasks')
      .set({ status: 'running', picked_at: sql`coalesce(picked_at, now())` })
      .where('agent_key', '=', key)
      .where('status', '<>', 'done')
      .returningAll()
      .execute();
    rows.sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime());
    return ok(rows.map((t) => ({ id: t.id, op: t.op, params: t.params, targets: t.targets, createdAt: new Date(t.created_at).toISOString() })));
  });

  app.post(p('/tasks/:id/results'), { config: cfg, schema: { tags, params: TaskIdParams, body: TaskResultReport } }, async (req) => {
    const task = await db.selectFrom('agent_tasks').select(['id', 'agent_key', 'op']).where('id', '=', req.params.id).executeTakeFirst();
    if (!task || task.agent_key !== req.agent!.agentKey) throw new AppError('notFound');
    const results = req.body.results;
    // A security scan's findings, derived once: kept on each result (the history's counts) and as records.
    const findings = task.op === SECURITY_SCAN_OP ? scanFindings(results) : [];
    const kindsOf = new Map(findings.map((f) => [f.ip, f.kinds]));
    await db.transaction().execute(async (trx) => {
      if (results.length)
        await trx
          .insertInto('agent_task_results')
          .values(
            results.map((r) => ({
              task_id: task.id,
              ip: r.ip,
              ok: r.ok,
              reason: r.reason ?? null,
              security_kinds: kindsOf.get(r.ip) ?? null,
            })),
          )
          .onConflict((oc) =>
            oc.columns(['task_id', 'ip']).doUpdateSet((eb) => ({ ok: eb.ref('excluded.ok'), reason: eb.ref('excluded.reason'), security_kinds: eb.ref('excluded.security_kinds'), at: sql`now()` })),
          )
          .execute();
      if (findings.length) await recordSecurityResults(trx, task.agent_key, task.id, findings);
      if (req.body.done) await trx.updateTable('agent_tasks').set({ status: 'done', done_at: new Date() }).where('id', '=', task.id).execute();
    });
    return ok({ received: results.length });
  });
}
