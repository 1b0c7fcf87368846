/** Kysely table types of migration 202611230510_create_pool_config_plans, merged into `Database`. */
import type { ColumnType, Generated } from 'kysely';
import type { PoolConfigPool, PoolConfigRowStatus } from '@shared/schemas/pool-config-file';

type Time = ColumnType<Date, Date | string | undefined, Date | string>;
type MaybeTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** One group of a plan: the miners (IPs) that get this pool set. */
export interface PoolConfigPlanGroup {
  pools: PoolConfigPool[];
  ips: string[];
}

/** A checked pool configuration file of one user and farm, applicable once within its hour. */
export interface PoolConfigPlansTable {
  id: Generated<string>;
  agent_key: string;
  user_id: string;
  groups: ColumnType<PoolConfigPlanGroup[], string, string>;
  counts: ColumnType<Record<PoolConfigRowStatus, number>, string, string>;
  created_at: Time;
  expires_at: Time;
  applied_at: MaybeTime;
  task_ids: ColumnType<string[] | null, string | null | undefined, string | null>;
}

declare module './schema' {
  interface Database {
    pool_config_plans: PoolConfigPlansTable;
  }
}
