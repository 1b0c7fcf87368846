/** Sessions live in the database: the cookie holds a random token, the table its SHA-256. */
import type { FastifyReply } from 'fastify';
import { sql } from 'kysely';
import type { ServerConfig } from '../../config';
import type { DB } from '../../db/kysely';
import type { UserRecord } from '../../db/schema';
import { newToken, sha256 } from '../../security';

export const SESSION_COOKIE = 'hf_session';
/** Sliding expiry is refreshed at most this often, to keep reads cheap. */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

export async function createSession(
  db: DB,
  config: ServerConfig,
  reply: FastifyReply,
  userId: string,
  meta: { userAgent: string | null; ip: string | null },
): Promise<void> {
  const token = newToken();
  const expires = new Date(Date.now() + config.sessionTtlHours * 3600_000);
  await db
    .insertInto('sessions')
    .values({ id: sha256(token), user_id: userId, expires_at: expires, user_agent: meta.userAgent?.slice(0, 300) ?? null, ip: meta.ip })
    .execute();
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.cookieSecure,
    maxAge: config.sessionTtlHours * 3600,
  });
}

/** The session's user and the permission keys of the user's role, in one query (it runs on every call). */
export async function loadSession(
  db: DB,
  config: ServerConfig,
  token: string,
): Promise<{ sessionId: string; user: UserRecord; rolePermissions: number[] } | null> {
  const id = sha256(token);
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .leftJoin('roles', 'roles.id', 'users.role_id')
    .selectAll('users')
    .select(['sessions.last_seen_at as session_seen', 'roles.permissions as role_permissions'])
    .where('sessions.id', '=', id)
    .where('sessions.expires_at', '>', new Date())
    .executeTakeFirst();
  if (!row) return null;
  const { session_seen, role_permissions, ...user } = row;
  if (Date.now() - new Date(session_seen).getTime() > TOUCH_EVERY_MS) {
    await db
      .updateTable('sessions')
      .set({ last_seen_at: new Date(), expires_at: new Date(Date.now() + config.sessionTtlHours * 3600_000) })
      .where('id', '=', id)
      .execute();
  }
  return { sessionId: id, user, rolePermissions: role_permissions ?? [] };
}

export async function endSession(db: DB, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

export async function endOtherSessions(db: DB, userId: string, keepSessionId: string | null): Promise<void> {
  let q = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepSessionId) q = q.where('id', '<>', keepSessionId);
  await q.execute();
}

export async function pruneExpiredSessions(db: DB): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<', sql<Date>`now()`).execute();
}
