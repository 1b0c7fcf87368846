/**
 * In-process cache of the caller's session (user, role permissions) and of their farm memberships: every /api call
 * loads both, and on the miner list at 20 clients (tests/bench/miner-list.bench.ts) those two statements were a tenth
 * of the work. Safe because:
 * - an entry lives at most AUTH_CACHE_TTL_MS, and never past the session's expiry;
 * - every write call of this process (any non-GET /api request except the agent uplink, which never touches users,
 *   roles, sessions or farms) forgets the whole cache when it ends, so a logout, a disabled user, a changed role or
 *   farm list is seen by this process's next call;
 * - a load that started before such a forget is not stored (generation check), so it cannot put stale data back;
 * - another server process on the same PostgreSQL sees a change at most AUTH_CACHE_TTL_MS later.
 * Code that changes users, roles, sessions or memberships outside a request (tests writing SQL directly) calls
 * forgetAuth.
 */
import type { DB } from '../../db/kysely';
import type { UserRecord } from '../../db/schema';

export const AUTH_CACHE_TTL_MS = 3000;
const MAX_SESSIONS = 10_000;

export interface LoadedSession {
  sessionId: string;
  user: UserRecord;
  rolePermissions: number[];
}

/** A farm check's outcome: member, or the error it raised. */
export type FarmCheck = 'ok' | 'notFound' | 'notMember';

interface Entry {
  loaded: LoadedSession;
  /** When it was loaded (ms). */
  at: number;
  /** The session's expiry (ms). */
  expiresAt: number;
  /** When the session row's last_seen_at was last written (ms). */
  seenAt: number;
  farms: Map<string, FarmCheck>;
}

interface Cache {
  generation: number;
  sessions: Map<string, Entry>;
}

const caches = new WeakMap<DB, Cache>();

function cacheOf(db: DB): Cache {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = { generation: 0, sessions: new Map() }));
  return c;
}

/** The current generation: pass it to rememberSession / rememberFarm, which store nothing if a forget came between. */
export function authGeneration(db: DB): number {
  return cacheOf(db).generation;
}

function live(db: DB, sessionId: string, now = Date.now()): Entry | undefined {
  const c = cacheOf(db);
  const e = c.sessions.get(sessionId);
  if (!e) return undefined;
  if (now - e.at >= AUTH_CACHE_TTL_MS || now >= e.expiresAt) {
    c.sessions.delete(sessionId);
    return undefined;
  }
  return e;
}

export function cachedSession(db: DB, sessionId: string): { loaded: LoadedSession; seenAt: number } | undefined {
  return live(db, sessionId);
}

export function rememberSession(db: DB, generation: number, loaded: LoadedSession, expiresAt: number, seenAt: number): void {
  const c = cacheOf(db);
  if (c.generation !== generation) return;
  if (c.sessions.size >= MAX_SESSIONS) c.sessions.delete(c.sessions.keys().next().value!);
  c.sessions.set(loaded.sessionId, { loaded, at: Date.now(), expiresAt, seenAt, farms: new Map() });
}

/** After the sliding expiry was written for a cached session. */
export function sessionTouched(db: DB, sessionId: string, seenAt: number, expiresAt: number): void {
  const e = live(db, sessionId);
  if (e) {
    e.seenAt = seenAt;
    e.expiresAt = expiresAt;
  }
}

export function cachedFarm(db: DB, sessionId: string, agentKey: string): FarmCheck | undefined {
  return live(db, sessionId)?.farms.get(agentKey);
}

export function rememberFarm(db: DB, generation: number, sessionId: string, agentKey: string, check: FarmCheck): void {
  if (cacheOf(db).generation !== generation) return;
  const farms = live(db, sessionId)?.farms;
  if (farms && farms.size < 1000) farms.set(agentKey, check);
}

/** Forgets every cached session and membership of this database (after any write that may change them). */
export function forgetAuth(db: DB): void {
  const c = cacheOf(db);
  c.generation++;
  c.sessions.clear();
}
