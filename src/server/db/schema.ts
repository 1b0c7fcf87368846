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
  /** Agent settings that override the defaults of AgentConfig (poll interval, ports, pacing…). */
  agent_settings: ColumnType<Record<string, unknown>, string | Record<string, unknown> | undefined, string | Record<string, unknown>>;
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
  /** Creation order: breaks ties of publish_time (migration 202611230460). */
  seq: ColumnType<string, never, never>;
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
  /** Generated (migration 202611230430). */
  id: Generated<string>;
  bucket: string;
  hit_at: TimestampDefault;
}

export interface MinersTable {
  id: Generated<string>;
  agent_key: string;
  ip: string;
  sn: Generated<string>;
  mac: Generated<string>;
  make: Generated<string>;
  model: Generated<string>;
  family: Generated<string>;
  firmware_version: Generated<string>;
  compile_time: Timestamp | null;
  online: Generated<boolean>;
  missed_polls: Generated<number>;
  rt5s: Generated<number>;
  rate30m: Generated<number>;
  avg: Generated<number>;
  ideal: Generated<number>;
  work_mode: Generated<string>;
  elapsed_sec: ColumnType<string, number | string | undefined, number | string>;
  temp_max: number | null;
  fault_labels: ColumnType<string[], string[] | undefined, string[]>;
  state: Json<Record<string, boolean>>;
  /** The rest of the latest reading, json (domains/miners/stored-reading.ts; migration 202611230310). */
  snapshot: Json<unknown>;
  taken_at: Timestamp;
  first_seen_at: TimestampDefault;
  updated_at: TimestampDefault;
  version: ColumnType<string, never, never>;
  /** The phone feed's version and when a reading last moved it (migration 202611230450): written by the ingest, SN edits and mark triggers. */
  sync_version: ColumnType<string, never, never>;
  sync_at: ColumnType<Date | null, never, never>;
  /** Generated from the snapshot (migration 202611230105_add_sync_feed_support) for the sync feed: read only. */
  sync_temp_chip_max: ColumnType<number | null, never, never>;
  sync_temp_pcb_max: ColumnType<number | null, never, never>;
  sync_fan_min: ColumnType<number | null, never, never>;
  sync_fan_max: ColumnType<number | null, never, never>;
  /** The latest reading's hourly bucket and the latest earlier unqualified hour (migration 202611230220), kept by the ingest. */
  stat_hour_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  stat_hour_samples: Generated<number>;
  stat_hour_online: Generated<number>;
  stat_hour_real_sum: Generated<number>;
  stat_hour_ideal_sum: Generated<number>;
  stat_unqualified_hour_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** {real_sum, samples} of the 23 whole hours before stat_hour_at (migration 202611230340); null = not kept yet. */
  stat_day_sums: number[] | null;
  /** miner_ip_inet(ip), generated (migration 202611230420): the IP order's key. Read only. */
  ip_inet: ColumnType<string | null, never, never>;
  /** The current bucket's highest temperature (migration 202611230410). */
  stat_hour_temp_max: number | null;
  /** The bucket the last update closed, handed to the history by the ingest (migration 202611230410): read only by it. */
  stat_hour_closed: number[] | null;
  /** The state flags and fault labels as bits (miner-sql.ts STATE_BITS / FAULT_BITS), generated (migration 202611230400): read only. */
  state_bits: ColumnType<number, never, never>;
  fault_bits: ColumnType<number, never, never>;
  /** The list's figures of the latest reading, JSON (miner-sql.ts listFiguresText; migration 202611230290); null until the ingest writes the row. */
  list_figures: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SnapshotBatchesTable {
  agent_key: string;
  batch_seq: ColumnType<string, number, never>;
  cycle_started_at: Timestamp;
  received_at: TimestampDefault;
  miner_count: number;
  rolled_up: Generated<boolean>;
  /** False while a batch applied a chunk per transaction is in progress (migration 202611230320). */
  complete: Generated<boolean>;
}

/** The chunks of a batch in progress that are applied (migration 202611230320). */
export interface SnapshotBatchChunksTable {
  agent_key: string;
  batch_seq: ColumnType<string, number | string, never>;
  chunk: number;
}

export interface FarmStatsMinuteTable {
  agent_key: string;
  at: Timestamp;
  real_ghs: number;
  ideal_ghs: number;
  total: number;
  online: number;
  qualified: number;
  temp_max: number | null;
  temp_avg: number | null;
}

export interface MinerStatsHourTable {
  miner_id: string;
  at: Timestamp;
  samples: number;
  real_sum: number;
  ideal_sum: number;
  temp_max: number | null;
  online_samples: number;
}

export interface AgentTasksTable {
  id: Generated<string>;
  agent_key: string;
  op: string;
  params: Json<Record<string, unknown>>;
  targets: Json<{ minerId?: string; ip: string; sn?: string }[]>;
  target_count: number;
  status: Generated<'pending' | 'running' | 'done'>;
  created_by: string | null;
  created_at: TimestampDefault;
  picked_at: Timestamp | null;
  done_at: Timestamp | null;
  /** API op name of a batch (batchReboot …); null for tasks not started as a batch. */
  batch_op: ColumnType<string | null, string | null | undefined, string | null>;
  /** Targets including the refused ones; null = target_count. */
  total_count: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface AgentTaskResultsTable {
  task_id: string;
  ip: string;
  ok: boolean;
  reason: string | null;
  at: TimestampDefault;
  /** Findings of a security-scan result (migration 202611230490); null for other ops. */
  security_kinds: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
}

export interface MinerMarksTable {
  agent_key: string;
  ip: string;
  customer: string | null;
  off_shelf: Generated<boolean>;
  off_shelf_at: Timestamp | null;
  accident: string | null;
  accident_note: string | null;
  accident_at: Timestamp | null;
  updated_by: string | null;
  updated_at: TimestampDefault;
  /** Off-shelf maintenance (migration 202611230470): REPAIR_STATUSES, null = awaiting repair; cleared back on shelf. */
  repair_status: string | null;
  repair_note: string | null;
  repair_at: Timestamp | null;
  repair_by: string | null;
  /** Bumped on every update (migration 202611230100); a change of customer from a phone sends it back. */
  version: Generated<string>;
}

/** Deleted rows of synced collections (migration 202611230100). */
export interface SyncTombstonesTable {
  collection: string;
  agent_key: string;
  row_key: string;
  version: Generated<string>;
  deleted_at: TimestampDefault;
}

/** Per (collection, farm): the highest tombstone version pruned so far (migration 202611230105_add_sync_feed_support); older cursors resync. */
export interface SyncPruneMarksTable {
  collection: string;
  agent_key: string;
  pruned_through: ColumnType<string, string | number | bigint, string | number | bigint>;
}

export interface VerificationCodesTable {
  id: Generated<string>;
  user_id: string;
  purpose: string;
  channel: string;
  code_hash: string;
  expires_at: Timestamp;
  attempts: Generated<number>;
  used_at: Timestamp | null;
  created_at: TimestampDefault;
}

export interface MessageOutboxTable {
  id: Generated<string>;
  user_id: string | null;
  channel: string;
  recipient: string;
  purpose: string;
  provider: string;
  status: string;
  error: string | null;
  created_at: TimestampDefault;
}

export interface IpListsTable {
  id: Generated<string>;
  agent_key: string;
  user_id: string | null;
  entries: Json<{ ip: string; sn?: string; customer?: string }[]>;
  entry_count: number;
  created_at: TimestampDefault;
  expires_at: Timestamp;
}

export interface ScanIpRangesTable {
  id: Generated<string>;
  agent_key: string;
  sort_no: Generated<number>;
  ip_begin: string;
  ip_end: string;
  remark: Generated<string>;
  created_at: TimestampDefault;
}

export interface Database {
  miners: MinersTable;
  snapshot_batches: SnapshotBatchesTable;
  snapshot_batch_chunks: SnapshotBatchChunksTable;
  farm_stats_minute: FarmStatsMinuteTable;
  miner_stats_hour: MinerStatsHourTable;
  /** View: the hourly history with every miner's current bucket (migration 202611230410). Read only. */
  miner_hours: MinerStatsHourTable;
  agent_tasks: AgentTasksTable;
  agent_task_results: AgentTaskResultsTable;
  scan_ip_ranges: ScanIpRangesTable;
  miner_marks: MinerMarksTable;
  sync_tombstones: SyncTombstonesTable;
  sync_prune_marks: SyncPruneMarksTable;
  verification_codes: VerificationCodesTable;
  message_outbox: MessageOutboxTable;
  ip_lists: IpListsTable;
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
