/** Kysely table types of migrations 202611230140_create_sub_areas and 202611230141_create_pool_approvals, merged into `Database`. */
import type { ColumnType, Generated } from 'kysely';

type TimestampDefault = ColumnType<Date, Date | string | undefined, Date | string>;
/** bigint read as a string by pg, a number by PGlite: always convert with Number(). */
type BigintId = ColumnType<string | number, number | string, number | string>;

export interface SubAreasTable {
  id: Generated<string | number>;
  agent_key: string;
  parent_id: BigintId | null;
  name: string;
  level: number;
  created_at: TimestampDefault;
  updated_at: TimestampDefault;
}

export interface SubAreaSegmentsTable {
  id: Generated<string>;
  agent_key: string;
  area_id: BigintId;
  segment: string;
  begin_num: BigintId;
  end_num: BigintId;
  remark: Generated<string>;
  created_at: TimestampDefault;
}

export interface ApprovalSettingsTable {
  agent_key: string;
  approver_id: string | null;
  role_ids: ColumnType<string[], string[] | undefined, string[]>;
  updated_by: string | null;
  updated_at: TimestampDefault;
}

export interface PoolApprovalsTable {
  id: Generated<string>;
  agent_key: string;
  op: 'batchSetPool' | 'batchUpgrade';
  type: 'pool' | 'upload';
  body: ColumnType<Record<string, unknown>, string, string>;
  ips: ColumnType<string[], string[], string[]>;
  initiator_id: string | null;
  initiator_role: Generated<string>;
  approver_id: string | null;
  status: Generated<'pending' | 'agreed' | 'disagreed'>;
  task_id: string | null;
  failure: string | null;
  created_at: TimestampDefault;
  decided_at: ColumnType<Date, Date | string, Date | string> | null;
  decided_by: string | null;
}

declare module './schema' {
  interface Database {
    sub_areas: SubAreasTable;
    sub_area_segments: SubAreaSegmentsTable;
    approval_settings: ApprovalSettingsTable;
    pool_approvals: PoolApprovalsTable;
  }
}
