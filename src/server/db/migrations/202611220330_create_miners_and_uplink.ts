import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create sequence row_version_seq;
    alter table farms add column agent_settings jsonb not null default '{}';
    create table miners (
      id uuid primary key default gen_random_uuid(),
      agent_key text not null references farms(agent_key) on delete cascade,
      ip text not null,
      sn text not null default '',
      mac text not null default '',
      make text not null default '',
      model text not null default '',
      family text not null default 'unknown',
      firmware_version text not null default '',
      compile_time timestamptz,
      online boolean not null default false,
      missed_polls integer not null default 0,
      rt5s double precision not null default 0,
      rate30m double precision not null default 0,
      avg double precision not null default 0,
      ideal double precision not null default 0,
      work_mode text not null default 'normal',
      elapsed_sec bigint not null default 0,
      temp_max double precision,
      fault_labels text[] not null default '{}',
      state jsonb not null default '{}',
      snapshot jsonb not null,
      taken_at timestamptz not null,
      first_seen_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      version bigint not null default nextval('row_version_seq'),
      unique (agent_key, ip)
    );
    create index miners_farm_sn on miners (agent_key, sn);
    create index miners_farm_model on miners (agent_key, model);
    create index miners_version on miners (agent_key, version);
    create table snapshot_batches (
      agent_key text not null references farms(agent_key) on delete cascade,
      batch_seq bigint not null,
      cycle_started_at timestamptz not null,
      received_at timestamptz not null default now(),
      miner_count integer not null,
      rolled_up boolean not null default false,
      primary key (agent_key, batch_seq)
    );
    create table farm_stats_minute (
      agent_key text not null references farms(agent_key) on delete cascade,
      at timestamptz not null,
      real_ghs double precision not null,
      ideal_ghs double precision not null,
      total integer not null,
      online integer not null,
      qualified integer not null,
      temp_max double precision,
      temp_avg double precision,
      primary key (agent_key, at)
    );
    create table miner_stats_hour (
      miner_id uuid not null references miners(id) on delete cascade,
      at timestamptz not null,
      samples integer not null,
      real_sum double precision not null,
      ideal_sum double precision not null,
      temp_max double precision,
      online_samples integer not null,
      primary key (miner_id, at)
    );
    create table agent_tasks (
      id uuid primary key default gen_random_uuid(),
      agent_key text not null references farms(agent_key) on delete cascade,
      op text not null,
      params jsonb not null default '{}',
      targets jsonb not null,
      target_count integer not null,
      status text not null default 'pending',
      created_by uuid references users(id) on delete set null,
      created_at timestamptz not null default now(),
      picked_at timestamptz,
      done_at timestamptz
    );
    create index agent_tasks_pending on agent_tasks (agent_key, created_at) where status <> 'done';
    create table agent_task_results (
      task_id uuid not null references agent_tasks(id) on delete cascade,
      ip text not null,
      ok boolean not null,
      reason text,
      at timestamptz not null default now(),
      primary key (task_id, ip)
    );
    create table scan_ip_ranges (
      id uuid primary key default gen_random_uuid(),
      agent_key text not null references farms(agent_key) on delete cascade,
      sort_no integer not null default 0,
      ip_begin text not null,
      ip_end text not null,
      remark text not null default '',
      created_at timestamptz not null default now()
    );
    create index scan_ip_ranges_farm on scan_ip_ranges (agent_key, sort_no);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table scan_ip_ranges, agent_task_results, agent_tasks, miner_stats_hour, farm_stats_minute, snapshot_batches, miners; drop sequence row_version_seq; alter table farms drop column agent_settings`.execute(db);
}
