import { type Kysely, sql } from 'kysely';

/**
 * Batch pool-setting approval (spec 2 §2, §4, §7). approval_settings: per farm, the approver (a user) and
 * the roles whose batch pool settings (and firmware upgrades) need the approver's agreement.
 * pool_approvals: one pending request — the op, its validated body, the target miners frozen at request
 * time — until the approver agrees (the batch is queued for the agent, task_id set) or disagrees.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table approval_settings (
      agent_key text primary key references farms(agent_key) on delete cascade,
      approver_id uuid references users(id) on delete set null,
      role_ids uuid[] not null default '{}',
      updated_by uuid references users(id) on delete set null,
      updated_at timestamptz not null default now()
    );
    create table pool_approvals (
      id uuid primary key default gen_random_uuid(),
      agent_key text not null references farms(agent_key) on delete cascade,
      op text not null check (op in ('batchSetPool', 'batchUpgrade')),
      type text not null check (type in ('pool', 'upload')),
      body jsonb not null,
      ips text[] not null,
      initiator_id uuid references users(id) on delete set null,
      initiator_role text not null default '',
      approver_id uuid references users(id) on delete set null,
      status text not null default 'pending' check (status in ('pending', 'agreed', 'disagreed')),
      task_id uuid,
      failure text,
      created_at timestamptz not null default now(),
      decided_at timestamptz,
      decided_by uuid references users(id) on delete set null
    );
    create index pool_approvals_farm on pool_approvals (agent_key, created_at desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table pool_approvals; drop table approval_settings;`.execute(db);
}
