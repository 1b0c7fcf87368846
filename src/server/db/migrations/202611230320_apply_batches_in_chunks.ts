import { type Kysely, sql } from 'kysely';

/**
 * An agent upload is applied a chunk per transaction (src/server/domains/miners/ingest-snapshots.ts) on PGlite, so a
 * 20,000-miner batch no longer holds the only connection for seconds. snapshot_batches.complete tells a batch fully
 * applied (a duplicate) from one cut short (its retry finishes it); snapshot_batch_chunks marks the chunks of a batch
 * in progress that are applied, so a retry skips them. Batches stored before were applied whole: complete.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table snapshot_batches add column complete boolean not null default true;
    create table snapshot_batch_chunks (
      agent_key text not null,
      batch_seq bigint not null,
      chunk integer not null,
      primary key (agent_key, batch_seq, chunk),
      foreign key (agent_key, batch_seq) references snapshot_batches (agent_key, batch_seq) on delete cascade
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table snapshot_batch_chunks;
    alter table snapshot_batches drop column complete;
  `.execute(db);
}
