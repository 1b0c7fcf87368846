/**
 * Fresh planner statistics after a farm's fleet changes size. PGlite has no autovacuum, so until the maintenance
 * job's `analyze` (a minute after start, then every 10 minutes) every query on a newly filled miners table is
 * planned on guessed row counts — measured: the first 20,000-miner phone sync answered in ≈ 2 × the time it takes
 * once analysed. After an upload, when the farm's miner count moved by more than a fifth (and 100 miners) since the
 * last analyse this process ran, `analyze` the miner tables in the background (one at a time, never awaited by the
 * upload). Cheap on PostgreSQL too, where autovacuum would get there later.
 */
import { sql } from 'kysely';
import type { DB } from '../../db/kysely';

const analysedAt = new Map<string, number>();
let running: Promise<void> | null = null;

export function needsAnalyse(previous: number | undefined, now: number): boolean {
  const before = previous ?? 0;
  const moved = Math.abs(now - before);
  return moved > 100 && moved > before * 0.2;
}

/** Call after an upload was stored; returns at once. */
export function refreshPlannerStatsAfterUpload(db: DB, agentKey: string, onError: (err: unknown) => void): void {
  if (running) return;
  running = (async () => {
    const row = await db.selectFrom('farms').select('miner_count').where('agent_key', '=', agentKey).executeTakeFirst();
    const count = Number(row?.miner_count ?? 0);
    if (!needsAnalyse(analysedAt.get(agentKey), count)) return;
    analysedAt.set(agentKey, count);
    await sql`analyze miners, miner_marks, miner_stats_hour`.execute(db);
  })()
    .catch(onError)
    .finally(() => {
      running = null;
    });
}
