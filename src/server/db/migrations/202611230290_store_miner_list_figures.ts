import { type Kysely, sql } from 'kysely';

/**
 * List speed (issue 4; tests/bench/miner-list.bench.ts): the figures a list row shows from the latest reading
 * (temperatures, fans, chips, pools, error codes …) are stored by the ingest as JSON beside the reading, so a page
 * reads ~0.4 kB per miner instead of the 1.5 kB snapshot (src/server/domains/miners/miner-sql.ts listFigures).
 * Null for rows the ingest has not written since: the list then computes them from the snapshot.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table miners add column list_figures text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table miners drop column list_figures`.execute(db);
}
