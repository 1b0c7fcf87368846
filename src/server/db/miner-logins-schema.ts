/** Kysely table types of migration 202611230520_create_farm_miner_logins, merged into `Database`. */
import type { ColumnType, Generated } from 'kysely';
import type { MinerLoginFamily } from '@shared/schemas/miner-logins';

type Time = ColumnType<Date, Date | string | undefined, Date | string>;

/** One login the farm's agent tries on the miners of a firmware family (password encrypted: secret-box.ts). */
export interface FarmMinerLoginsTable {
  id: Generated<string>;
  agent_key: string;
  family: MinerLoginFamily;
  username: string;
  password_enc: string;
  created_at: Time;
  updated_at: Time;
}

declare module './schema' {
  interface Database {
    farm_miner_logins: FarmMinerLoginsTable;
  }
}
