/** Kysely table types of migration 202611230490_add_miner_security_records, merged into `Database`. */
import type { ColumnType, Generated } from 'kysely';
import type { SecurityKind, SecurityScanReport } from '@shared/security-scan';

type Time = ColumnType<Date, Date | string | undefined, Date | string>;
type MaybeTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** One episode of suspicious SSH behaviour on a miner (suspicious until processed). */
export interface MinerSecurityRecordsTable {
  id: Generated<string>;
  agent_key: string;
  ip: string;
  sn: ColumnType<string, string | undefined, string>;
  model: ColumnType<string, string | undefined, string>;
  status: ColumnType<'suspicious' | 'processed', 'suspicious' | 'processed' | undefined, 'suspicious' | 'processed'>;
  kinds: SecurityKind[];
  report: ColumnType<SecurityScanReport, string, string>;
  fingerprint: string;
  task_id: string | null;
  first_seen_at: Time;
  scan_time: Time;
  processed_at: MaybeTime;
  processed_by: string | null;
  process_note: string | null;
}

declare module './schema' {
  interface Database {
    miner_security_records: MinerSecurityRecordsTable;
  }
}
