/**
 * Idempotency-Key semantics (api-conventions.md): a write carrying the header runs once. The same key
 * and body answer the stored answer; another body answers 422; the same key while the first is still
 * running answers 409. Answers are kept at least 7 days (pruned by the maintenance job), without the fields a route
 * declares unkept (config.unkeptFields: a secret shown once).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors';
import { sha256 } from '../security';

const KEY_RE = /^[A-Za-z0-9-]{8,100}$/;
export const IDEMPOTENCY_RETENTION_DAYS = 7;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: { key: string; scope: string } | null;
  }
}

function scopeOf(request: FastifyRequest): string {
  return request.user ? `u:${request.user.id}` : request.agent ? `a:${request.agent.agentKey}` : 'anon';
}

/** The answer as kept for replays: without the route's unkept fields of its data (set to null). */
function keptAnswer(json: string, unkept: readonly string[] | undefined): string {
  if (!unkept?.length) return json;
  try {
    const answer = JSON.parse(json) as { data?: unknown };
    const data = answer.data;
    if (data && typeof data === 'object' && !Array.isArray(data)) for (const f of unkept) if (f in data) (data as Record<string, unknown>)[f] = null;
    return JSON.stringify(answer);
  } catch {
    return 'null'; // not JSON: nothing of it is kept
  }
}

export function registerIdempotency(app: FastifyInstance): void {
  app.decorateRequest('idempotency', null);
  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || typeof key !== 'string') return;
    if (!KEY_RE.test(key)) throw new AppError('badRequest');
    const scope = scopeOf(request);
    const hash = sha256(`${request.method} ${request.url.split('?')[0]} ${JSON.stringify(request.body ?? null)}`);
    const inserted = await app.db
      .insertInto('idempotency_keys')
      .values({ key, scope, request_hash: hash, state: 'running' })
      .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (inserted) {
      request.idempotency = { key, scope };
      return;
    }
    const existing = await app.db.selectFrom('idempotency_keys').selectAll().where('scope', '=', scope).where('key', '=', key).executeTakeFirst();
    if (!existing) throw new AppError('idempotencyInFlight');
    if (existing.state === 'running') throw new AppError('idempotencyInFlight');
    if (existing.request_hash !== hash) throw new AppError('idempotencyMismatch');
    reply.header('Idempotent-Replayed', 'true');
    reply.status(existing.http_status ?? 200).type('application/json; charset=utf-8');
    return reply.send(existing.response ?? 'null');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const idem = request.idempotency;
    if (!idem) return payload;
    request.idempotency = null;
    if (reply.statusCode >= 500) {
      // A failure of ours: let the client retry with the same key.
      await app.db.deleteFrom('idempotency_keys').where('scope', '=', idem.scope).where('key', '=', idem.key).execute();
    } else {
      await app.db
        .updateTable('idempotency_keys')
        .set({ state: 'done', http_status: reply.statusCode, response: keptAnswer(typeof payload === 'string' ? payload : JSON.stringify(payload ?? null), request.routeOptions.config?.unkeptFields) })
        .where('scope', '=', idem.scope)
        .where('key', '=', idem.key)
        .execute();
    }
    return payload;
  });

}
