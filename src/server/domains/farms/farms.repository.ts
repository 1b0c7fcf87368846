import { sql } from 'kysely';
import type { FarmInfo, FarmRow, HostInfo, NucStatus } from '@shared/schemas/farm';
import type { DB } from '../../db/kysely';
import type { FarmRecord, UserRecord } from '../../db/schema';

/** An agent counts as online when its last heartbeat is this recent (it beats every poll cycle, 60 s). */
export const AGENT_ONLINE_WINDOW_MS = 180_000;

export function isFarmOnline(f: Pick<FarmRecord, 'last_online_at'>, now = Date.now()): boolean {
  return f.last_online_at !== null && now - new Date(f.last_online_at).getTime() <= AGENT_ONLINE_WINDOW_MS;
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** Farms the user may see: administrators all, others their memberships. */
export function visibleFarms(db: DB, user: UserRecord) {
  let q = db.selectFrom('farms');
  if (!user.is_admin) q = q.where('agent_key', 'in', db.selectFrom('user_farms').select('agent_key').where('user_id', '=', user.id));
  return q;
}

export function toFarmRow(f: FarmRecord): FarmRow {
  return {
    agentKey: f.agent_key,
    agentName: f.agent_name,
    name: f.agent_name,
    noticeEmails: f.notice_emails,
    agentAddr: f.agent_addr,
    selfManaged: f.self_managed,
    version: f.version,
    isOnline: isFarmOnline(f),
    lastOnlineAt: iso(f.last_online_at),
    netDelay: isFarmOnline(f) ? f.net_delay : 0,
    minerCount: f.miner_count,
    createdAt: new Date(f.created_at).toISOString(),
  };
}

export function toFarmInfo(f: FarmRecord): FarmInfo {
  return {
    timeout: AGENT_ONLINE_WINDOW_MS / 1000,
    agentKey: f.agent_key,
    version: f.version,
    noticeEmails: f.notice_emails,
    name: f.agent_name,
    agentAddr: f.agent_addr,
    selfManaged: f.self_managed,
    lastOnlineAt: iso(f.last_online_at),
  };
}

export function toNucStatus(f: FarmRecord): NucStatus {
  const online = isFarmOnline(f);
  return { isOnline: online, lastOnlineAt: iso(f.last_online_at), netDelay: online ? f.net_delay : 0 };
}

export function toHostInfo(f: FarmRecord): HostInfo {
  const h = (f.host_info ?? {}) as Record<string, unknown>;
  const n = (k: string) => (typeof h[k] === 'number' ? (h[k] as number) : null);
  const s = (k: string) => (typeof h[k] === 'string' ? (h[k] as string) : null);
  return {
    agentKey: f.agent_key,
    agentName: f.agent_name,
    isOnline: isFarmOnline(f),
    lastOnlineAt: iso(f.last_online_at),
    netDelay: isFarmOnline(f) ? f.net_delay : 0,
    version: f.version,
    hostname: s('hostname'),
    os: s('os'),
    cpuCores: n('cpuCores'),
    memoryMb: n('memoryMb'),
    diskFreeMb: n('diskFreeMb'),
    uptimeSec: n('uptimeSec'),
    ip: s('ip'),
    minerCount: f.miner_count,
  };
}

export async function findFarmsPage(
  db: DB,
  user: UserRecord,
  q: { page: number; pageSize: number; keyword?: string },
): Promise<{ list: FarmRecord[]; total: number }> {
  let base = visibleFarms(db, user);
  if (q.keyword) {
    const like = `%${q.keyword.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) => eb.or([eb('agent_name', 'ilike', like), eb('agent_key', 'ilike', like)]));
  }
  const [list, count] = await Promise.all([
    base.selectAll().orderBy('created_at', 'asc').orderBy('agent_key').limit(q.pageSize).offset((q.page - 1) * q.pageSize).execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list, total: count.n };
}

export async function getFarm(db: DB, agentKey: string): Promise<FarmRecord | undefined> {
  return db.selectFrom('farms').selectAll().where('agent_key', '=', agentKey).executeTakeFirst();
}
