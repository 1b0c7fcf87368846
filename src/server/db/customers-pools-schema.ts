/** Kysely table types of migration 202611220440_create_customers_pools, merged into `Database`. */
import type { ColumnType, Generated } from 'kysely';

type TimestampDefault = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | T, string | T>;

export interface StoredHostingRow {
  type: string;
  coinType: string;
  hashRate: number;
  hashRateUnit: string;
  minerModel: string;
  minerNum: number;
}

export interface CustomersTable {
  id: Generated<string>;
  agent_key: string;
  name: string;
  contract: string;
  email: Generated<string>;
  mobile: Generated<string>;
  area_code: Generated<string>;
  electric_unit: string;
  /** numeric: read as a decimal string. */
  electric_price: ColumnType<string, string, string>;
  hosting_result: Json<StoredHostingRow[]>;
  created_at: TimestampDefault;
  updated_at: TimestampDefault;
  /** Sync version (migration 202611230100), bigint read as a string. */
  version: Generated<string>;
}

export interface SubAccountsTable {
  id: Generated<string>;
  agent_key: string;
  account_name: string;
  /** AES-256-GCM envelope (src/server/secret-box.ts). */
  password_enc: string;
  pool_name: string;
  coin_type: string;
  observer_url: string;
  created_at: TimestampDefault;
  updated_at: TimestampDefault;
}

export interface ObserverTestsTable {
  agent_key: string;
  observer_url: string;
  coin_type: string;
  tested_at: TimestampDefault;
}

export interface PoolGroupsTable {
  id: Generated<string>;
  agent_key: string;
  name: string;
  customer_id: string;
  pool1_url: string;
  pool2_url: Generated<string>;
  pool3_url: Generated<string>;
  pool1_user: Generated<string>;
  pool2_user: Generated<string>;
  pool3_user: Generated<string>;
  sub_account1_id: string;
  sub_account2_id: string | null;
  sub_account3_id: string | null;
  hosting: Json<StoredHostingRow[]>;
  created_at: TimestampDefault;
  updated_at: TimestampDefault;
}

export interface PoolWhitelistTable {
  id: Generated<string>;
  agent_key: string;
  pool_urls: ColumnType<string[], string[], string[]>;
  created_at: TimestampDefault;
}

declare module './schema' {
  interface Database {
    customers: CustomersTable;
    sub_accounts: SubAccountsTable;
    observer_tests: ObserverTestsTable;
    pool_groups: PoolGroupsTable;
    pool_whitelist: PoolWhitelistTable;
  }
}
