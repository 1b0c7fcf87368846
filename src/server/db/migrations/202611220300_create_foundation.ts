import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table roles (
      id uuid primary key default gen_random_uuid(),
      name text not null unique,
      remark text not null default '',
      permissions integer[] not null default '{}',
      builtin boolean not null default false,
      created_at timestamptz not null default now()
    );
    create table users (
      id uuid primary key default gen_random_uuid(),
      user_name text not null,
      password_hash text not null,
      email text,
      mobile text,
      area_code text not null default '86',
      is_admin boolean not null default false,
      role_id uuid references roles(id) on delete restrict,
      disabled boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      last_login_at timestamptz
    );
    create unique index users_name_lower on users (lower(user_name));
    create table sessions (
      id text primary key,
      user_id uuid not null references users(id) on delete cascade,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null,
      user_agent text,
      ip text
    );
    create index sessions_user on sessions (user_id);
    create index sessions_expires on sessions (expires_at);
    create table farms (
      agent_key text primary key,
      agent_name text not null,
      notice_emails text not null default '',
      agent_addr text not null default '',
      self_managed boolean not null default false,
      region text not null default 'auto',
      region_read boolean not null default false,
      secret_hash text not null,
      version text,
      last_online_at timestamptz,
      net_delay integer not null default 0,
      host_info jsonb,
      miner_count integer not null default 0,
      created_by uuid references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create table user_farms (
      user_id uuid not null references users(id) on delete cascade,
      agent_key text not null references farms(agent_key) on delete cascade,
      primary key (user_id, agent_key)
    );
    create index user_farms_farm on user_farms (agent_key);
    create table notifications (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      agent_key text references farms(agent_key) on delete cascade,
      type text not null,
      title text not null,
      content text not null default '',
      summary text,
      publish_time timestamptz not null default now(),
      read_at timestamptz
    );
    create index notifications_user_time on notifications (user_id, publish_time desc);
    create index notifications_unread on notifications (user_id) where read_at is null;
    create table page_views (
      id bigserial primary key,
      user_id uuid references users(id) on delete set null,
      path text not null,
      locale text,
      title text,
      referrer text,
      created_at timestamptz not null default now()
    );
    create index page_views_time on page_views (created_at);
    create table idempotency_keys (
      key text not null,
      scope text not null,
      request_hash text not null,
      state text not null,
      http_status integer,
      response text,
      created_at timestamptz not null default now(),
      primary key (scope, key)
    );
    create index idempotency_created on idempotency_keys (created_at);
    create table rate_limit_hits (
      bucket text not null,
      hit_at timestamptz not null default now()
    );
    create index rate_limit_bucket on rate_limit_hits (bucket, hit_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table rate_limit_hits, idempotency_keys, page_views, notifications, user_farms, farms, sessions, users, roles`.execute(db);
}
