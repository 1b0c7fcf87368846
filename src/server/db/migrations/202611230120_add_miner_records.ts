import { type Kysely, sql } from 'kysely';

/**
 * Miner records kept by the console beside what the agent reports (issue 4 scope 2, 6):
 * - miners.sn_override: a manual SN (POST /api/miner/updateSn). A trigger keeps miners.sn equal to it on
 *   every later write (the agent's ingest sets sn from its reading; the WHEN clause makes the trigger free
 *   for the miners without an override), so the list, detail, search and sync show the manual SN and the
 *   reported one stays in snapshot.sn.
 * - miner_record_log: record changes touching one miner (SN update, back on shelf) for its operation log.
 * - miner_history_logs: history-log requests (POST /api/miner/historyLog): one agent task each, the log text
 *   the agent uploads, its status.
 * - agent_task_results (ip, at): one miner's operation log reads its batch results by IP.
 * - farm_stats_hour: an hourly roll-up of farm_stats_minute kept by a trigger (insert adds the row, an update
 *   adds the difference), so the dashboard's 30-day and 1-year ranges read 720 / 8,760 rows instead of
 *   43,200 / 525,600; it outlives any pruning of the minute rows. Filled from the existing minute rows. Hours
 *   are UTC hours whatever the session's time zone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table miners add column sn_override text;
    create function miners_keep_sn_override() returns trigger language plpgsql as $$
    begin
      new.sn := new.sn_override;
      return new;
    end $$;
    create trigger miners_sn_override before insert or update on miners
      for each row when (new.sn_override is not null) execute function miners_keep_sn_override();

    create table miner_record_log (
      id uuid primary key default gen_random_uuid(),
      agent_key text not null references farms(agent_key) on delete cascade,
      ip text not null,
      action text not null,
      detail jsonb not null default '{}',
      user_id uuid references users(id) on delete set null,
      at timestamptz not null default now()
    );
    create index miner_record_log_miner on miner_record_log (agent_key, ip, at desc);

    create table miner_history_logs (
      id uuid primary key default gen_random_uuid(),
      agent_key text not null references farms(agent_key) on delete cascade,
      ip text not null,
      task_id uuid references agent_tasks(id) on delete set null,
      status text not null default 'pending',
      content text,
      source text,
      reason text,
      created_by uuid references users(id) on delete set null,
      created_at timestamptz not null default now(),
      done_at timestamptz
    );
    create index miner_history_logs_task on miner_history_logs (task_id);
    create index miner_history_logs_miner on miner_history_logs (agent_key, ip, created_at desc);

    create index agent_task_results_ip on agent_task_results (ip, at desc);

    create table farm_stats_hour (
      agent_key text not null references farms(agent_key) on delete cascade,
      at timestamptz not null,
      samples integer not null,
      real_sum double precision not null,
      ideal_sum double precision not null,
      total_sum bigint not null,
      online_sum bigint not null,
      qualified_sum bigint not null,
      temp_max double precision,
      temp_avg_sum double precision not null default 0,
      temp_avg_n integer not null default 0,
      primary key (agent_key, at)
    );
    insert into farm_stats_hour
      select agent_key, date_trunc('hour', at, 'UTC'), count(*), sum(real_ghs), sum(ideal_ghs), sum(total), sum(online), sum(qualified),
        max(temp_max), coalesce(sum(temp_avg), 0), count(temp_avg)
      from farm_stats_minute group by 1, 2;
    create function farm_stats_hour_rollup() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into farm_stats_hour as h values (new.agent_key, date_trunc('hour', new.at, 'UTC'), 1, new.real_ghs, new.ideal_ghs, new.total, new.online,
          new.qualified, new.temp_max, coalesce(new.temp_avg, 0), (new.temp_avg is not null)::int)
        on conflict (agent_key, at) do update set samples = h.samples + 1, real_sum = h.real_sum + excluded.real_sum,
          ideal_sum = h.ideal_sum + excluded.ideal_sum, total_sum = h.total_sum + excluded.total_sum, online_sum = h.online_sum + excluded.online_sum,
          qualified_sum = h.qualified_sum + excluded.qualified_sum, temp_max = greatest(h.temp_max, excluded.temp_max),
          temp_avg_sum = h.temp_avg_sum + excluded.temp_avg_sum, temp_avg_n = h.temp_avg_n + excluded.temp_avg_n;
      else
        update farm_stats_hour set real_sum = real_sum + new.real_ghs - old.real_ghs, ideal_sum = ideal_sum + new.ideal_ghs - old.ideal_ghs,
          total_sum = total_sum + new.total - old.total, online_sum = online_sum + new.online - old.online,
          qualified_sum = qualified_sum + new.qualified - old.qualified, temp_max = greatest(temp_max, new.temp_max),
          temp_avg_sum = temp_avg_sum + coalesce(new.temp_avg, 0) - coalesce(old.temp_avg, 0),
          temp_avg_n = temp_avg_n + (new.temp_avg is not null)::int - (old.temp_avg is not null)::int
        where agent_key = new.agent_key and at = date_trunc('hour', new.at, 'UTC');
      end if;
      return null;
    end $$;
    create trigger farm_stats_minute_rollup after insert or update of real_ghs, ideal_ghs, total, online, qualified, temp_max, temp_avg on farm_stats_minute
      for each row execute function farm_stats_hour_rollup();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger farm_stats_minute_rollup on farm_stats_minute;
    drop function farm_stats_hour_rollup();
    drop table farm_stats_hour;
    drop index agent_task_results_ip;
    drop table miner_history_logs;
    drop table miner_record_log;
    drop trigger miners_sn_override on miners;
    drop function miners_keep_sn_override();
    alter table miners drop column sn_override;
  `.execute(db);
}
