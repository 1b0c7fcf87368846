/** Loads the caller: a session cookie (users) or a Bearer agent token (agent uplink). */
import type { FastifyInstance } from 'fastify';
import { ALL_PERMISSION_KEYS } from '@shared/menu-catalogue';
import { SESSION_COOKIE, loadSession } from '../domains/auth/sessions';
import { requestLocale } from '../i18n';

const ALL = new Set(ALL_PERMISSION_KEYS);
const NONE: ReadonlySet<number> = new Set();

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
    request.permissions = found.user.is_admin ? ALL : new Set(found.rolePermissions);
  });
}
