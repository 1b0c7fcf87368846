import { type Kysely, sql } from 'kysely';

/**
 * Ingest speed (issue 3; tests/bench/snapshot-ingest.bench.ts): every agent upload rewrites each miner's row, so
 * what one row update costs is paid 20,000 times a minute on a 20,000-miner farm.
 * - PostgreSQL (where the server has lz4; PGlite has only pglz, and there nothing changes): miners.snapshot is
 *   compressed with lz4, and toast_tuple_target is 2700. pglz cost PostgreSQL ~0.45 s of CPU per 20,000 rewritten
 *   snapshots (update of the ~2.3 kB jsonb: 640 ms with pglz, 180–250 ms with lz4, 160 ms uncompressed). A row is
 *   ~0.9 kB besides its snapshot: with pglz (~1,070 bytes) it just fit the default 2 kB target, with lz4 (~1,190)
 *   it did not, and PostgreSQL moved every snapshot out of line into the TOAST table (one more heap insert, index
 *   insert and delete per update). With 2700 the row stays inline (~2.3 kB, 3 rows a page instead of 4: the heap is
 *   ~1/3 larger) and rows over 2700 bytes are still compressed first. Ingest DB CPU per 20,000 miners: 2.9 s
 *   (pglz) → 2.6 s (lz4, out of line) → 2.3 s (lz4 inline). Values written before keep pglz until replaced.
 * - One index fewer to maintain on every (never HOT) update: the unique (agent_key, ip) index now uses
 *   text_pattern_ops and replaces miners_farm_ip_prefix (agent_key, ip text_pattern_ops). It still serves equality
 *   (the ingest's ON CONFLICT (agent_key, ip), lookups by IP) and the IP-prefix LIKE the prefix index was for; its
 *   name stays miners_agent_key_ip_key. Each index costs ~60 ms of CPU per 20,000 updates on PostgreSQL and ~70 ms
 *   on PGlite.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    do $$
    begin
      if exists (select 1 from pg_settings where name = 'default_toast_compression' and 'lz4' = any(enumvals)) then
        alter table miners alter column snapshot set compression lz4;
        alter table miners set (toast_tuple_target = 2700);
      end if;
    end $$;
    create unique index miners_farm_ip_unique on miners (agent_key, ip text_pattern_ops);
    alter table miners drop constraint miners_agent_key_ip_key;
    drop index miners_farm_ip_prefix;
    alter index miners_farm_ip_unique rename to miners_agent_key_ip_key;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index miners_farm_ip_prefix on miners (agent_key, ip text_pattern_ops);
    alter index miners_agent_key_ip_key rename to miners_farm_ip_unique;
    alter table miners add constraint miners_agent_key_ip_key unique (agent_key, ip);
    drop index miners_farm_ip_unique;
    alter table miners reset (toast_tuple_target);
    alter table miners alter column snapshot set compression default;
  `.execute(db);
}
