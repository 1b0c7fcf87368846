/** Sessions live in the database: the cookie holds a random token, the table its SHA-256. */
import type { FastifyReply } from 'fastify';
import { sql } from 'kysely';
import type { ServerConfig } from '../../config';
import type { DB } from '../../db/kysely';
import { newToken, sha256 } from '../../security';
import { type LoadedSession, authGeneration, cachedSession, forgetAuth, rememberSession, sessionTouched } from './auth-cache';

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

/**
 * The session's user and the permission keys of the user's role, in one query (it runs on every call), kept a few
 * seconds in the auth cache (auth-cache.ts: any write call of this process forgets it).
 */
export async function loadSession(db: DB, config: ServerConfig, token: string): Promise<LoadedSession | null> {
  const id = sha256(token);
  const now = Date.now();
  const cached = cachedSession(db, id);
  if (cached) {
    if (now - cached.seenAt > TOUCH_EVERY_MS) await touchSession(db, config, id, now);
    return cached.loaded;
  }
  const generation = authGeneration(db);
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .leftJoin('roles', 'roles.id', 'users.role_id')
    .selectAll('users')
    .select(['sessions.last_seen_at as session_seen', 'sessions.expires_at as session_expires', 'roles.permissions as role_permissions'])
    .where('sessions.id', '=', id)
    .where('sessions.expires_at', '>', new Date(now))
    .executeTakeFirst();
  if (!row) return null;
  const { session_seen, session_expires, role_permissions, ...user } = row;
  const loaded: LoadedSession = { sessionId: id, user, rolePermissions: role_permissions ?? [] };
  let seenAt = new Date(session_seen).getTime();
  let expiresAt = new Date(session_expires).getTime();
  if (now - seenAt > TOUCH_EVERY_MS) ({ seenAt, expiresAt } = await touchSession(db, config, id, now));
  rememberSession(db, generation, loaded, expiresAt, seenAt);
  return loaded;
}

/** Sliding expiry: the session lives sessionTtlHours from now. */
async function touchSession(db: DB, config: ServerConfig, id: string, now: number): Promise<{ seenAt: number; expiresAt: number }> {
  const expiresAt = now + config.sessionTtlHours * 3600_000;
  await db.updateTable('sessions').set({ last_seen_at: new Date(now), expires_at: new Date(expiresAt) }).where('id', '=', id).execute();
  sessionTouched(db, id, now, expiresAt);
  return { seenAt: now, expiresAt };
}

export async function endSession(db: DB, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
  forgetAuth(db);
}

export async function endOtherSessions(db: DB, userId: string, keepSessionId: string | null): Promise<void> {
  let q = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepSessionId) q = q.where('id', '<>', keepSessionId);
  await q.execute();
  forgetAuth(db);
}

export async function pruneExpiredSessions(db: DB): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<', sql<Date>`now()`).execute();
}
