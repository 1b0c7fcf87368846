import { type Kysely, sql } from 'kysely';

/**
 * Fault analyses of single miners (spec 3 §7 POST /api/ai/analysis, GET /api/ai/status, GET /api/ai/result;
 * domains/miners/fault-analysis.ts): each run keeps its findings (codes and figures, not texts: they are read in the
 * reader's language) so its result can be read again. The 10-minute maintenance removes runs older than 30 days.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table miner_analyses (
      id uuid primary key default gen_random_uuid(),
      agent_key text not null references farms(agent_key) on delete cascade,
      ip text not null,
      sn text not null default '',
      model text not null default '',
      status text not null default 'pending' check (status in ('pending', 'running', 'done', 'failed')),
      findings jsonb not null default '[]',
      reading_at timestamptz,
      created_by uuid references users(id) on delete set null,
      created_at timestamptz not null default now()
    );
    create index miner_analyses_created_at on miner_analyses (created_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table miner_analyses`.execute(db);
}
