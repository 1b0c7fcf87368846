/** Loads the caller: a session cookie (users) or a Bearer agent token (agent uplink). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ALL_PERMISSION_KEYS } from '@shared/menu-catalogue';
import { forgetAuth } from '../domains/auth/auth-cache';
import { SESSION_COOKIE, loadSession } from '../domains/auth/sessions';
import { requestLocale } from '../i18n';

const ALL = new Set(ALL_PERMISSION_KEYS);
const NONE: ReadonlySet<number> = new Set();
/** One Set per loaded session (the cached session object is shared by the calls that reuse it). */
const sets = new WeakMap<object, ReadonlySet<number>>();
function permissionSet(found: { rolePermissions: number[] }): ReadonlySet<number> {
  let s = sets.get(found);
  if (!s) sets.set(found, (s = new Set(found.rolePermissions)));
  return s;
}

export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest('locale', 'zh-CN');
  app.decorateRequest('sessionId', null);
  app.decorateRequest('user', null);
  app.decorateRequest('permissions', null as unknown as ReadonlySet<number>);
  app.decorateRequest('farmKey', null);
  app.decorateRequest('agent', null);

  app.addHook('onRequest', async (request) => {
    request.locale = requestLocale(request.headers.i18n, request.headers['accept-language']);
    request.permissions = NONE;
    const token = request.cookies[SESSION_COOKIE];
    if (!token || request.url.startsWith('/api/agent-uplink/')) return;
    const found = await loadSession(app.db, app.config, token);
    if (!found || found.user.disabled) return;
    request.sessionId = found.sessionId;
    request.user = found.user;
    request.permissions = found.user.is_admin ? ALL : permissionSet(found);
  });

  // Any write call may change users, roles, sessions or farms: the auth cache starts afresh after it (auth-cache.ts).
  // The agent uplink writes readings and task results only.
  const forget = async (request: FastifyRequest) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && !request.url.startsWith('/api/agent-uplink/')) forgetAuth(app.db);
  };
  app.addHook('onResponse', forget);
  app.addHook('onRequestAbort', forget);
}
