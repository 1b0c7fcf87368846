import { type Kysely, sql } from 'kysely';

/**
 * The miner logins of a farm (issue 3: the agent "pulls its configuration (scan IP ranges, credentials per make…)"):
 * per firmware family, the user and password the agent tries on the miners' web and API logins, in order, before the
 * factory defaults. The password is stored encrypted (secret-box.ts, password_enc) and only the agent's configuration
 * (GET /api/agent-uplink/config) reads it back; the console sees the user and that a password is set.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table farm_miner_logins (
      id uuid primary key default gen_random_uuid(),
      agent_key text not null references farms(agent_key) on delete cascade,
      family text not null check (family in ('antminer', 'whatsminer', 'braiins', 'vnish', 'luxos')),
      username text not null default '',
      password_enc text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index farm_miner_logins_farm on farm_miner_logins (agent_key, family, created_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table farm_miner_logins`.execute(db);
}
