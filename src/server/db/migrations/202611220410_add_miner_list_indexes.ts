import { type Kysely, sql } from 'kysely';

/**
 * Indexes of the miner list (src/server/domains/miners/find-miners.ts):
 * - miner_ip_inet(ip): the list's IP order (numeric, 10.0.0.9 before 10.0.0.10). A plain `ip::inet` would make
 *   one malformed address from an agent fail every insert and every sort, so non-IPv4 text maps to null and
 *   sorts last (by text). SQL-language and free of exception blocks, so it stays cheap on 20,000-row uploads.
 * - (agent_key, ip text_pattern_ops): the keyword search by IP prefix (`ip like '10.0.3.%'`).
 * - (agent_key, rt5s) and (agent_key, taken_at): the hashrate sort and the "offline over 24 hours" counter.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function miner_ip_inet(ip text) returns inet language sql immutable parallel safe as $$
      select case when ip ~ '^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])([.](25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$'
                  then ip::inet end
    $$;
    create index miners_farm_ip_inet on miners (agent_key, miner_ip_inet(ip));
    create index miners_farm_ip_prefix on miners (agent_key, ip text_pattern_ops);
    create index miners_farm_rt5s on miners (agent_key, rt5s);
    create index miners_farm_taken_at on miners (agent_key, taken_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index miners_farm_taken_at, miners_farm_rt5s, miners_farm_ip_prefix, miners_farm_ip_inet;
    drop function miner_ip_inet(text);
  `.execute(db);
}
