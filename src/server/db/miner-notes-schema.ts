/** Kysely table type of migration 202611230110_create_miner_notes, merged into `Database`. */
import type { ColumnType } from 'kysely';

type TimestampDefault = ColumnType<Date, Date | string | undefined, Date | string>;

export interface MinerNotesTable {
  id: string;
  agent_key: string;
  ip: string;
  kind: 'note' | 'fault';
  fault_type: string | null;
  text: string;
  author_id: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  received_at: TimestampDefault;
}

declare module './schema' {
  interface Database {
    miner_notes: MinerNotesTable;
  }
}
