/**
 * The farm's stamps: what tells a server that keeps a result (a count, an ordered id list, the counters) whether the
 * farm's miners changed since it was made (find-miners.ts, miner-stats.ts). Read in the same statement as whatever
 * they validate, so a result and its stamp come from one snapshot.
 * - data: the farm's highest miners.version (every ingest, mark change or SN edit bumps it) and highest miners
 *   tombstone (every deletion leaves one) — changes whenever a miner of the farm is written or deleted;
 * - identity: miner_identity_stamps (migration 202611230330) — changes only when a miner is added, removed or changes
 *   identity (IP, SN, MAC, make, model, family, firmware).
 */
import { type RawBuilder, sql } from 'kysely';
import type { MinerFilter } from '@shared/schemas/miner';

/** Which stamp a kept result is valid under. */
export type StampKind = 'data' | 'identity';
/** The farm's two stamps. */
export interface Stamps {
  data: string;
  identity: string;
}

/** The farm's stamps as two columns: `stamp` (data) and `identity_stamp`. */
export function stampsSql(agentKey: string): RawBuilder<unknown> {
  return sql`(coalesce((select max(version) from miners where agent_key = ${agentKey})::text, '') || '/' ||
    coalesce((select max(version) from sync_tombstones where collection = 'miners' and agent_key = ${agentKey})::text, '')) as stamp,
    coalesce((select stamp from miner_identity_stamps where agent_key = ${agentKey})::text, '') as identity_stamp`;
}

export const stampsOf = (r: { stamp: string; identity_stamp: string } | undefined): Stamps => ({ data: r?.stamp ?? '', identity: r?.identity_stamp ?? '' });

/** Whether the data stamp tells every change of this filter's result (filters on other tables — customer, sub-area — are not covered). */
export const stampCovers = (filter: MinerFilter): boolean => filter.customer === undefined && filter.subArea === undefined;

/** The key of a farm's filter (its set parts in name order): equal filters, equal keys. */
export function filterKey(agentKey: string, filter: MinerFilter): string {
  const parts = Object.entries(filter)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return `${agentKey}\u0000${JSON.stringify(parts)}`;
}
