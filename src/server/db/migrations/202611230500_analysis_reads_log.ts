import { type Kysely, sql } from 'kysely';

/**
 * A fault analysis also reads the miner's own log (spec 3 §4 "AI analysis: waiting (20-60 s), result …";
 * miner-protocols.md: the kernel log's error lines — power lost, fan lost, over-temperature, a chain's EEPROM or
 * missing chips …): the run asks the agent for the log as a history-log request does (history_log_id) and stays
 * running until the log is read or cannot be (log_status waiting → read | unavailable; null: not asked — another
 * family, an offline miner or agent). Its findings from the reading are kept at the start and shown meanwhile.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table miner_analyses
      add column history_log_id uuid references miner_history_logs(id) on delete set null,
      add column log_status text check (log_status in ('waiting', 'read', 'unavailable'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table miner_analyses drop column history_log_id, drop column log_status`.execute(db);
}
