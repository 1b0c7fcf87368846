import { type Kysely, sql } from 'kysely';

/**
 * miner_notes: technicians' notes and fault marks on a miner, written from the phone's offline outbox.
 * Append-only; the primary key is the client's UUIDv7, so a replayed write inserts nothing
 * (insert … on conflict (id) do nothing) and is compared with the stored row instead.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table miner_notes (
      id uuid primary key,
      agent_key text not null references farms(agent_key) on delete cascade,
      ip text not null,
      kind text not null check (kind in ('note', 'fault')),
      fault_type text,
      text text not null default '',
      author_id uuid references users(id) on delete set null,
      created_at timestamptz not null,
      received_at timestamptz not null default now()
    );
    create index miner_notes_miner on miner_notes (agent_key, ip, created_at desc, id desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table miner_notes;`.execute(db);
}
