import { type Kysely, sql } from 'kysely';

/**
 * Batch operations (the log is agent_tasks plus the API op name and the total including refused miners),
 * per-IP marks of the records-only ops (customer, off shelf, accident), verification codes (hashed),
 * the outbox log of sent codes (never the code) and uploaded IP lists (kept one hour).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table agent_tasks add column batch_op text;
    alter table agent_tasks add column total_count integer;
    create index agent_tasks_batch_log on agent_tasks (agent_key, created_at desc) where batch_op is not null;
    create table miner_marks (
      agent_key text not null references farms(agent_key) on delete cascade,
      ip text not null,
      customer text,
      off_shelf boolean not null default false,
      off_shelf_at timestamptz,
      accident text,
      accident_note text,
      accident_at timestamptz,
      updated_by uuid references users(id) on delete set null,
      updated_at timestamptz not null default now(),
      primary key (agent_key, ip)
    );
    create index miner_marks_off_shelf on miner_marks (agent_key) where off_shelf;
    create table verification_codes (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      purpose text not null,
      channel text not null,
      code_hash text not null,
      expires_at timestamptz not null,
      attempts integer not null default 0,
      used_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index verification_codes_user on verification_codes (user_id, purpose, created_at desc);
    create table message_outbox (
      id uuid primary key default gen_random_uuid(),
      user_id uuid references users(id) on delete set null,
      channel text not null,
      recipient text not null,
      purpose text not null,
      provider text not null,
      status text not null,
      error text,
      created_at timestamptz not null default now()
    );
    create table ip_lists (
      id uuid primary key default gen_random_uuid(),
      agent_key text not null references farms(agent_key) on delete cascade,
      user_id uuid references users(id) on delete cascade,
      entries jsonb not null,
      entry_count integer not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table ip_lists, message_outbox, verification_codes, miner_marks;
    drop index agent_tasks_batch_log;
    alter table agent_tasks drop column total_count;
    alter table agent_tasks drop column batch_op;
  `.execute(db);
}
