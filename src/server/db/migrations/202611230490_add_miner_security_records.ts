import { type Kysely, sql } from 'kysely';

/**
 * Suspicious SSH behaviour (spec 3 §2 /alarm/security; shared/security-scan.ts; domains/security/security-records.ts):
 * what a security scan found on a miner, one record per finding episode.
 * - status suspicious until a user marks it processed (spec 3 §4: "a suspicious-SSH miner that is processed returns to
 *   normal"); at most one suspicious record per miner (miner_security_open): later scans update it.
 * - report: what the agent saw (SecurityScanReport: port banner, log events by source); kinds: the findings derived
 *   from it; fingerprint: the evidence (kinds, banner, last line per source), so a processed record is not reopened
 *   by a scan that only sees the same old log lines again — new evidence opens a new record.
 * - task_id: the scan (agent_tasks, op security-scan) that found it last; the scan history is those tasks.
 * - agent_task_results.security_kinds: the findings of each miner in each scan, so a scan of the history still says
 *   how many miners it found suspicious after later scans have moved the records on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table miner_security_records (
      id uuid primary key default gen_random_uuid(),
      agent_key text not null references farms(agent_key) on delete cascade,
      ip text not null,
      sn text not null default '',
      model text not null default '',
      status text not null default 'suspicious' check (status in ('suspicious', 'processed')),
      kinds text[] not null,
      report jsonb not null,
      fingerprint text not null,
      task_id uuid,
      first_seen_at timestamptz not null default now(),
      scan_time timestamptz not null default now(),
      processed_at timestamptz,
      processed_by uuid references users(id) on delete set null,
      process_note text
    );
    create unique index miner_security_open on miner_security_records (agent_key, ip) where status = 'suspicious';
    create index miner_security_list on miner_security_records (agent_key, scan_time desc);
    create index miner_security_fingerprint on miner_security_records (agent_key, ip, fingerprint);
    create index agent_tasks_security_scans on agent_tasks (agent_key, created_at desc) where op = 'security-scan';
    alter table agent_task_results add column security_kinds text[];
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table agent_task_results drop column security_kinds;
    drop index agent_tasks_security_scans;
    drop table miner_security_records;
  `.execute(db);
}
