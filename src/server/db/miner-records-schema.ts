/** Kysely table types of migrations 202611230120_add_miner_records and 202611230480_add_miner_analyses, merged into `Database`. */
import type { ColumnType, Generated } from 'kysely';

type TimestampDefault = ColumnType<Date, Date | string | undefined, Date | string>;
type Json = ColumnType<Record<string, unknown>, string | undefined, string>;

export interface MinerRecordLogTable {
  id: Generated<string>;
  agent_key: string;
  ip: string;
  /** updateSn | onShelf | historyLog | repairStatus */
  action: string;
  detail: Json;
  user_id: string | null;
  at: TimestampDefault;
}

export interface MinerHistoryLogsTable {
  id: Generated<string>;
  agent_key: string;
  ip: string;
  task_id: string | null;
  status: ColumnType<'pending' | 'running' | 'done' | 'failed', 'pending' | 'running' | 'done' | 'failed' | undefined, 'pending' | 'running' | 'done' | 'failed'>;
  content: string | null;
  source: string | null;
  reason: string | null;
  created_by: string | null;
  created_at: TimestampDefault;
  done_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** A fault analysis of one miner (shared/schemas/fault-analysis.ts): its findings as analysed, kept to be read again. */
export interface MinerAnalysesTable {
  id: Generated<string>;
  agent_key: string;
  ip: string;
  sn: string;
  model: string;
  status: ColumnType<'pending' | 'running' | 'done' | 'failed', 'pending' | 'running' | 'done' | 'failed' | undefined, 'pending' | 'running' | 'done' | 'failed'>;
  /** [{ code, severity, params }], most serious first (texts are made in the reader's language). */
  findings: ColumnType<{ code: string; severity: string; params: Record<string, string | number> }[], string, string>;
  reading_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_by: string | null;
  created_at: TimestampDefault;
  /** The history-log request that reads the miner's log for this run (migration 202611230500). */
  history_log_id: ColumnType<string | null, string | null | undefined, string | null>;
  log_status: ColumnType<AnalysisLogStatus | null, AnalysisLogStatus | null | undefined, AnalysisLogStatus | null>;
}

type AnalysisLogStatus = 'waiting' | 'read' | 'unavailable';

declare module './schema' {
  interface Database {
    miner_record_log: MinerRecordLogTable;
    miner_history_logs: MinerHistoryLogsTable;
    miner_analyses: MinerAnalysesTable;
  }
}
