import { type Kysely, sql } from 'kysely';

/**
 * Hosting customers, sub-accounts (password encrypted at rest), successful observer tests, pool groups and the
 * pool whitelist (spec 2 §3). Everything belongs to a farm and goes with it. A customer or sub-account used by
 * a pool group cannot be deleted (restrict).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table customers (
      id uuid primary key default gen_random_uuid(),
      agent_key text not null references farms(agent_key) on delete cascade,
      name text not null,
      contract text not null,
      email text not null default '',
      mobile text not null default '',
      area_code text not null default '',
      electric_unit text not null check (electric_unit in ('USD', 'CNY')),
      electric_price numeric(14, 4) not null,
      hosting_result jsonb not null default '[]',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index customers_farm on customers (agent_key, created_at);
    create table sub_accounts (
      id uuid primary key default gen_random_uuid(),
      agent_key text not null references farms(agent_key) on delete cascade,
      account_name text not null,
      password_enc text not null,
      pool_name text not null,
      coin_type text not null,
      observer_url text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index sub_accounts_farm on sub_accounts (agent_key, created_at);
    create table observer_tests (
      agent_key text not null references farms(agent_key) on delete cascade,
      observer_url text not null,
      coin_type text not null,
      tested_at timestamptz not null default now(),
      primary key (agent_key, observer_url, coin_type)
    );
    create table pool_groups (
      id uuid primary key default gen_random_uuid(),
      agent_key text not null references farms(agent_key) on delete cascade,
      name text not null,
      customer_id uuid not null references customers(id) on delete restrict,
      pool1_url text not null,
      pool2_url text not null default '',
      pool3_url text not null default '',
      pool1_user text not null default '',
      pool2_user text not null default '',
      pool3_user text not null default '',
      sub_account1_id uuid not null references sub_accounts(id) on delete restrict,
      sub_account2_id uuid references sub_accounts(id) on delete restrict,
      sub_account3_id uuid references sub_accounts(id) on delete restrict,
      hosting jsonb not null default '[]',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index pool_groups_farm on pool_groups (agent_key, created_at);
    create index pool_groups_customer on pool_groups (customer_id);
    create table pool_whitelist (
      id uuid primary key default gen_random_uuid(),
      agent_key text not null references farms(agent_key) on delete cascade,
      pool_urls text[] not null,
      created_at timestamptz not null default now()
    );
    create index pool_whitelist_farm on pool_whitelist (agent_key, created_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table pool_whitelist, pool_groups, observer_tests, sub_accounts, customers`.execute(db);
}
