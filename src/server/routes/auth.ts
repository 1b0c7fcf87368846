/** Accounts and sessions: setup of the first administrator, login, logout, the current user, user center. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { ALL_PERMISSION_KEYS } from '@shared/menu-catalogue';
import { BindEmailBody, BindMobileBody, ChangePasswordBody, LoginBody, SetupBody } from '@shared/schemas/auth';
import type { PublicConfig } from '@shared/schemas/auth';
import { AgentKeyQuery } from '@shared/schemas/common';
import { PageViewBody } from '@shared/schemas/notification';
import { SESSION_COOKIE, createSession, endOtherSessions, endSession } from '../domains/auth/sessions';
import { countUsers, findUserByName, toCurrentUser } from '../domains/users/users.repository';
import { AppError, fieldError } from '../errors';
import { ok } from '../plugins/envelope';
import { maskEmail, maskMobile } from '../domains/batch/message-senders';
import { assertFarmMember } from '../plugins/permissions';
import { clearRateLimit, releaseAttempt, takeAttempt } from '../plugins/rate-limit';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../security';

export const ADMIN_ROLE_NAME = 'administrator';

export async function authRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const meta = (req: { headers: Record<string, unknown>; ip: string }) => ({
    userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : null,
    ip: req.ip,
  });

  app.get('/api/config/public', { config: { permission: 'public' }, schema: { tags: ['session'] } }, async () => {
    const c = app.config;
    const data: PublicConfig = {
      setupNeeded: (await countUsers(db)) === 0,
      version: c.version,
      promoUrl: c.promoUrl,
      supportChat: { zh: c.supportChatZh, other: c.supportChatOther },
      analyticsEndpoint: c.analyticsEndpoint,
      accountCenterUrl: c.accountCenterUrl,
    };
    return ok(data);
  });

  app.post('/api/userv3/setup', { config: { permission: 'public' }, schema: { tags: ['session'], body: SetupBody } }, async (req, reply) => {
    const hash = await hashPassword(req.body.password);
    const user = await db.transaction().execute(async (trx) => {
      // Serialise concurrent setups: only the first one finds no user.
      await sql`lock table users in exclusive mode`.execute(trx);
      const n = await trx.selectFrom('users').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
      if (n.n > 0) throw new AppError('setupDone');
      let role = await trx.selectFrom('roles').selectAll().where('name', '=', ADMIN_ROLE_NAME).executeTakeFirst();
      role ??= await trx
        .insertInto('roles')
        .values({ name: ADMIN_ROLE_NAME, remark: '', permissions: [...ALL_PERMISSION_KEYS], builtin: true })
        .returningAll()
        .executeTakeFirstOrThrow();
      return trx
        .insertInto('users')
        .values({ user_name: req.body.user, password_hash: hash, email: req.body.email ?? null, is_admin: true, role_id: role.id, last_login_at: new Date() })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    await createSession(db, app.config, reply, user.id, meta(req));
    return ok(await toCurrentUser(db, user));
  });

  app.post('/api/userv3/login', { config: { permission: 'public' }, schema: { tags: ['session'], body: LoginBody } }, async (req, reply) => {
    const rule = app.config.loginRateLimit;
    const ipBucket = `login:ip:${req.ip}`;
    const userBucket = `login:user:${req.body.user.toLowerCase()}`;
    // Both attempts are taken before the password is checked (a wrong one leaves them counted): guesses sent in
    // parallel cannot all pass a check made before any of them was recorded.
    const ipAttempt = await takeAttempt(db, ipBucket, { max: rule.max * 5, windowSec: rule.windowSec });
    try {
      await takeAttempt(db, userBucket, rule);
    } catch (err) {
      await releaseAttempt(db, ipAttempt); // a user waiting out their limit does not use up the address's
      throw err;
    }
    if ((await countUsers(db)) === 0) throw new AppError('setupNeeded');
    const user = await findUserByName(db, req.body.user);
    const good = await verifyPassword(req.body.password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !good) throw new AppError('wrongCredentials');
    if (user.disabled) throw new AppError('userDisabled');
    // A good login: the user's failures are forgotten and the address's attempt given back (a farm's technicians
    // log in from one address at the start of a shift).
    await clearRateLimit(db, userBucket);
    await releaseAttempt(db, ipAttempt);
    await db.updateTable('users').set({ last_login_at: new Date() }).where('id', '=', user.id).execute();
    await createSession(db, app.config, reply, user.id, meta(req));
    return ok(await toCurrentUser(db, user));
  });

  app.get('/api/userv3/logout', { config: { permission: 'public' }, schema: { tags: ['session'] } }, async (req, reply) => {
    if (req.sessionId) await endSession(db, req.sessionId);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return ok('/login');
  });

  app.get('/api/userv2/userCurrent', { config: { permission: 'authenticated' }, schema: { tags: ['session'], querystring: AgentKeyQuery.partial() } }, async (req) => {
    if (req.query.agentKey) await assertFarmMember(app, req, req.query.agentKey);
    return ok(await toCurrentUser(db, req.user!));
  });

  app.get('/api/userv2/info', { config: { permission: 'authenticated' }, schema: { tags: ['session'] } }, async (req) => ok(await toCurrentUser(db, req.user!)));

  app.get('/api/userv2/search', { config: { permission: 'authenticated', farmScoped: true }, schema: { tags: ['session'], querystring: AgentKeyQuery } }, async (req) => {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'user_name', 'mobile', 'email', 'area_code'])
      .where('disabled', '=', false)
      .where((eb) => eb.or([eb('is_admin', '=', true), eb('id', 'in', eb.selectFrom('user_farms').select('user_id').where('agent_key', '=', req.query.agentKey))]))
      .orderBy('user_name')
      .execute();
    // Any member of the farm may ask: the contacts are masked (whether a user has a phone or an e-mail is what the
    // alarm settings need, spec 2 §6), never another user's full address or number.
    return ok(
      rows.map((r) => ({
        id: r.id,
        user: r.user_name,
        mobile: r.mobile ? maskMobile(r.area_code, r.mobile) : null,
        email: r.email ? maskEmail(r.email) : null,
        areaCode: r.area_code,
      })),
    );
  });

  app.post('/api/userv2/changePassword', { config: { permission: 'authenticated' }, schema: { tags: ['user center'], body: ChangePasswordBody } }, async (req) => {
    const user = req.user!;
    const attempt = await takeAttempt(db, `pwd:${user.id}`, app.config.loginRateLimit);
    if (!(await verifyPassword(req.body.oldPassword, user.password_hash))) throw fieldError('oldPassword', 'wrongOldPassword', 'wrongOldPassword');
    await releaseAttempt(db, attempt);
    await db.updateTable('users').set({ password_hash: await hashPassword(req.body.newPassword), updated_at: new Date() }).where('id', '=', user.id).execute();
    await endOtherSessions(db, user.id, req.sessionId);
    return ok(null);
  });

  app.post('/api/userv2/bindEmail', { config: { permission: 'authenticated' }, schema: { tags: ['user center'], body: BindEmailBody } }, async (req) => {
    const u = await db.updateTable('users').set({ email: req.body.email, updated_at: new Date() }).where('id', '=', req.user!.id).returningAll().executeTakeFirstOrThrow();
    return ok(await toCurrentUser(db, u));
  });

  app.post('/api/userv2/bindMobile', { config: { permission: 'authenticated' }, schema: { tags: ['user center'], body: BindMobileBody } }, async (req) => {
    const u = await db
      .updateTable('users')
      .set({ mobile: req.body.mobile, area_code: req.body.areaCode, updated_at: new Date() })
      .where('id', '=', req.user!.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return ok(await toCurrentUser(db, u));
  });

  app.get('/api/userv2/sessions', { config: { permission: 'authenticated' }, schema: { tags: ['user center'] } }, async (req) => {
    const rows = await db.selectFrom('sessions').selectAll().where('user_id', '=', req.user!.id).where('expires_at', '>', new Date()).orderBy('last_seen_at', 'desc').execute();
    return ok(
      rows.map((r) => ({
        id: r.id.slice(0, 16),
        createdAt: new Date(r.created_at).toISOString(),
        lastSeenAt: new Date(r.last_seen_at).toISOString(),
        expiresAt: new Date(r.expires_at).toISOString(),
        userAgent: r.user_agent,
        ip: r.ip,
        current: r.id === req.sessionId,
      })),
    );
  });

  app.post(
    '/api/userv2/sessions/revoke',
    { config: { permission: 'authenticated' }, schema: { tags: ['user center'], body: z.object({ id: z.string().regex(/^[0-9a-f]{16}$/, 'validation.id') }) } },
    async (req) => {
      // Sessions are shown by a prefix of their hash: the full hash never leaves the server.
      await db.deleteFrom('sessions').where('user_id', '=', req.user!.id).where(sql`left(id, 16)`, '=', req.body.id).execute();
      return ok(null);
    },
  );

  app.post('/api/analytics/pageview', { config: { permission: 'public' }, schema: { tags: ['analytics'], body: PageViewBody } }, async (req) => {
    await db
      .insertInto('page_views')
      .values({ user_id: req.user?.id ?? null, path: req.body.path, locale: req.body.locale ?? null, title: req.body.title ?? null, referrer: req.body.referrer ?? null })
      .execute();
    return ok(null);
  });
}
