/**
 * Every /api route declares `config.permission`; registering one without it fails at start (and a test
 * lists them). Before validation the caller is checked: session, permission key, CSRF header on writes,
 * farm membership for farm-scoped routes; agent routes take a Bearer agentKey.secret token.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type FarmCheck, authGeneration, cachedFarm, rememberFarm } from '../domains/auth/auth-cache';
import { AppError } from '../errors';
import type { RoutePermission } from '../fastify-types';
import { sha256 } from '../security';

export interface DeclaredRoute {
  method: string;
  url: string;
  permission: RoutePermission;
  farmScoped: boolean;
  hasBody: boolean;
  hasQuery: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    apiRoutes: DeclaredRoute[];
  }
}

/**
 * The farm a call is about: its agentKey in the query or the body, else the agentKey header (the console sends its
 * current farm there with every call, also when a page acts on another farm by naming it). Where the query and the
 * body both name one they must agree: the membership check covers the one key the call is about, never one while a
 * handler reads the other (a member of farm A asking `?agentKey=A` with `agentKey: B` in the body must not reach B).
 */
function agentKeyOf(request: FastifyRequest): string | null {
  const q = request.query as Record<string, unknown> | undefined;
  const b = request.body as Record<string, unknown> | undefined;
  const named = [q?.agentKey, b && typeof b === 'object' ? b.agentKey : undefined]
    .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
    .map((v) => v.trim());
  if (named.length === 2 && named[0] !== named[1]) throw new AppError('validation', {}, { fields: { agentKey: 'validation.agentKeyConflict' } });
  const v = named[0] ?? request.headers.agentkey;
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

/** Farm membership: administrators see every farm; others the farms they were given (kept in the auth cache). */
export async function assertFarmMember(app: FastifyInstance, request: FastifyRequest, agentKey: string): Promise<void> {
  const user = request.user;
  if (!user) throw new AppError('unauthorized');
  const sessionId = request.sessionId;
  let check = sessionId ? cachedFarm(app.db, sessionId, agentKey) : undefined;
  if (!check) {
    const generation = authGeneration(app.db);
    check = await farmCheck(app, user, agentKey);
    if (sessionId) rememberFarm(app.db, generation, sessionId, agentKey, check);
  }
  if (check !== 'ok') throw new AppError(check);
}

async function farmCheck(app: FastifyInstance, user: NonNullable<FastifyRequest['user']>, agentKey: string): Promise<FarmCheck> {
  if (user.is_admin) {
    const farm = await app.db.selectFrom('farms').select('agent_key').where('agent_key', '=', agentKey).executeTakeFirst();
    return farm ? 'ok' : 'notFound';
  }
  const member = await app.db
    .selectFrom('user_farms')
    .select('agent_key')
    .where('user_id', '=', user.id)
    .where('agent_key', '=', agentKey)
    .executeTakeFirst();
  return member ? 'ok' : 'notMember';
}

async function authenticateAgent(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  const h = request.headers.authorization ?? '';
  const m = /^Bearer ([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{16,128})$/.exec(h);
  if (!m) throw new AppError('unauthorized');
  const [, agentKey, secret] = m as unknown as [string, string, string];
  const farm = await app.db.selectFrom('farms').select(['agent_key', 'secret_hash']).where('agent_key', '=', agentKey).executeTakeFirst();
  const given = Buffer.from(sha256(secret));
  const expected = Buffer.from(farm?.secret_hash ?? sha256('no-farm'));
  if (!farm || !timingSafeEqual(given, expected)) throw new AppError('unauthorized');
  request.agent = { agentKey };
}

export function registerPermissions(app: FastifyInstance): void {
  app.decorate('apiRoutes', [] as DeclaredRoute[]);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    const permission = route.config?.permission;
    if (permission === undefined) throw new Error(`route ${String(route.method)} ${route.url} declares no permission`);
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      app.apiRoutes.push({
        method,
        url: route.url,
        permission,
        farmScoped: Boolean(route.config?.farmScoped),
        hasBody: Boolean(route.schema?.body),
        hasQuery: Boolean(route.schema?.querystring),
      });
    }
  });

  // Agent routes authenticate before the body is read: an unauthenticated upload is never decompressed or parsed.
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.permission === 'agent') await authenticateAgent(app, request);
  });

  app.addHook('preValidation', async (request) => {
    const cfg = request.routeOptions.config;
    const permission = cfg?.permission;
    if (permission === undefined || !request.url.startsWith('/api/')) return;
    if (permission === 'agent') return;
    if (request.agent) throw new AppError('forbidden');
    if (request.method !== 'GET' && request.method !== 'HEAD' && !request.headers['x-requested-with']) throw new AppError('csrf');
    if (permission === 'public') return;
    if (!request.user) throw new AppError('unauthorized');
    if (typeof permission === 'number' && !request.permissions.has(permission)) throw new AppError('forbidden');
    if (cfg.farmScoped) {
      const key = agentKeyOf(request);
      if (!key) throw new AppError('validation', {}, { fields: { agentKey: 'validation.agentKeyRequired' } });
      await assertFarmMember(app, request, key);
      request.farmKey = key;
    }
  });
}
