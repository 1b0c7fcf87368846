/**
 * The farm's power against its limit (setAgentPower, spec 3 §7): the limit kept with the agent settings
 * (agent_settings.powerLimitKw, 0 or absent = none) and what the farm draws now — the sum of the power its online
 * miners on shelf report in their latest reading (Whatsminer, Braiins OS, LuxOS and newer Antminers report it; a miner
 * that does not is counted apart, so a partial sum is never taken for the whole farm).
 */
import { sql } from 'kysely';
import type { FarmPower } from '@shared/schemas/farm';
import type { DB } from '../../db/kysely';
import { listFigureSql, minerWhere } from '../miners/miner-sql';
import { hasOffShelf } from '../miners/miner-stamps';

export async function farmPower(db: DB, agentKey: string, agentSettings: Record<string, unknown>): Promise<FarmPower> {
  const limit = typeof agentSettings.powerLimitKw === 'number' && agentSettings.powerLimitKw > 0 ? agentSettings.powerLimitKw : null;
  const where = minerWhere(agentKey, { network: 'online' }, await hasOffShelf(db, agentKey));
  // The power figure of each reading: from its list figures (what the ingest stored), else from the reading itself.
  const watts = sql`coalesce((${listFigureSql('powerW')} #>> '{}')::float8, (m.snapshot ->> 'powerW')::float8)`;
  const { rows } = await sql<{ online: number; reporting: number; watts: number | null }>`
    select count(*)::int as online, count(w)::int as reporting, sum(w) as watts
    from (select ${watts} as w from miners m where ${where}) r
  `.execute(db);
  const r = rows[0] ?? { online: 0, reporting: 0, watts: null };
  return {
    powerLimitKw: limit,
    powerNowKw: r.reporting > 0 && r.watts !== null ? Math.round(r.watts / 100) / 10 : null,
    onlineMiners: r.online,
    reportingMiners: r.reporting,
  };
}
