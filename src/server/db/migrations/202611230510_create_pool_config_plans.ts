import { type Kysely, sql } from 'kysely';

/**
 * The checked plans of uploaded pool configuration files (POST /api/minerv2/uploadPoolConfig): the miners to change
 * grouped by their new pool set, kept one hour for the uploader to apply once (applied_at, the queued task ids);
 * expired plans are pruned with the other batch leftovers (domains/batch/prune.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table pool_config_plans (
      id uuid primary key default gen_random_uuid(),
      agent_key text not null references farms(agent_key) on delete cascade,
      user_id uuid not null references users(id) on delete cascade,
      groups jsonb not null,
      counts jsonb not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      applied_at timestamptz,
      task_ids jsonb
    );
    create index pool_config_plans_expiry on pool_config_plans (expires_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table pool_config_plans`.execute(db);
}
