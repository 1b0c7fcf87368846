import { type Kysely, sql } from 'kysely';

/**
 * Each rate-limit hit gets an id (plugins/rate-limit.ts, takeAttempt): an attempt is recorded before the work it
 * guards and counted with the others in the window, so parallel attempts cannot all pass a check made before any of
 * them was recorded; an attempt that turns out not to count (a login that succeeded) is given back by its id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rate_limit_hits add column id bigint generated always as identity primary key`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rate_limit_hits drop column id`.execute(db);
}
