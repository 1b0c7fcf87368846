/** Kysely table types. Keep in step with migrations/. */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamp with a database default. */
type TimestampDefault = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | T, string | T>;

export interface UsersTable {
  id: Generated<string>;
  user_name: string;
  password_hash: string;
  email: string | null;
  mobile: string | null;
  area_code: Generated<string>;
  is_admin: Generated<boolean>;
  role_id: string | null;
  disabled: Generated<boolean>;
  created_at: TimestampDefault;
  updated_at: TimestampDefault;
  last_login_at: Timestamp | null;
}

export interface RolesTable {
  id: Generated<string>;
  name: string;
  remark: Generated<string>;
  permissions: ColumnType<number[], number[], number[]>;
  builtin: Generated<boolean>;
  created_at: TimestampDefault;
}

export interface SessionsTable {
  id: string; // sha-256 of the cookie token
  user_id: string;
  created_at: TimestampDefault;
  last_seen_at: TimestampDefault;
  expires_at: Timestamp;
  user_agent: string | null;
  ip: string | null;
}

export interface FarmsTable {
  agent_key: string;
  agent_name: string;
  notice_emails: Generated<string>;
  agent_addr: Generated<string>;
  self_managed: Generated<boolean>;
  region: Generated<string>;
  region_read: Generated<boolean>;
  secret_hash: string;
  version: string | null;
  last_online_at: Timestamp | null;
  net_delay: Generated<number>;
  host_info: Json<Record<string, unknown> | null>;
  miner_count: Generated<number>;
  created_by: string | null;
  created_at: TimestampDefault;
  updated_at: TimestampDefault;
}

export interface UserFarmsTable {
  user_id: string;
  agent_key: string;
}

export interface NotificationsTable {
  id: Generated<string>;
  user_id: string;
  agent_key: string | null;
  type: string;
  title: string;
  content: Generated<string>;
  summary: string | null;
  publish_time: TimestampDefault;
  read_at: Timestamp | null;
}

export interface PageViewsTable {
  id: Generated<string>;
  user_id: string | null;
  path: string;
  locale: string | null;
  title: string | null;
  referrer: string | null;
  created_at: TimestampDefault;
}

export interface IdempotencyTable {
  key: string;
  scope: string;
  request_hash: string;
  state: 'running' | 'done';
  http_status: number | null;
  response: string | null;
  created_at: TimestampDefault;
}

export interface RateLimitHitsTable {
  bucket: string;
  hit_at: TimestampDefault;
}

export interface Database {
  users: UsersTable;
  roles: RolesTable;
  sessions: SessionsTable;
  farms: FarmsTable;
  user_farms: UserFarmsTable;
  notifications: NotificationsTable;
  page_views: PageViewsTable;
  idempotency_keys: IdempotencyTable;
  rate_limit_hits: RateLimitHitsTable;
}

export type UserRecord = Selectable<UsersTable>;
export type FarmRecord = Selectable<FarmsTable>;
export type NewFarm = Insertable<FarmsTable>;
export type FarmUpdate = Updateable<FarmsTable>;
export type RoleRecord = Selectable<RolesTable>;
export type NotificationRecord = Selectable<NotificationsTable>;
