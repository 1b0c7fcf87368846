import { type Kysely, sql } from 'kysely';

/**
 * Ingest speed (issue 3; tests/bench/snapshot-ingest.bench.ts): miners.snapshot becomes `json` (the text as sent,
 * only checked on input) instead of `jsonb`, and from now on it keeps only the part of the reading that has no column
 * of its own (src/server/domains/miners/stored-reading.ts). Turning every miner's reading into jsonb every cycle was
 * the largest single cost of an upload (~30 MB of readings per 20,000 miners). Existing values keep the whole reading
 * and read the same. The list's few sort expressions over the snapshot (miner-sql.ts) read it as json, or cast it
 * to jsonb for their jsonpath.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table miners alter column snapshot type json using snapshot::json`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table miners alter column snapshot type jsonb using snapshot::jsonb`.execute(db);
}
