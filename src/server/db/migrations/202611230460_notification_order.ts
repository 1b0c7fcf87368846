import { type Kysely, sql } from 'kysely';

/**
 * Notifications get a creation sequence that breaks ties of publish_time: PGlite's clock counts milliseconds, so two
 * notices made within one millisecond had the same time and came in the order of their random ids (the newest could
 * be listed second, and "the last unread" could be the one before it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table notifications add column seq bigint generated always as identity;
    drop index notifications_user_time;
    create index notifications_user_time on notifications (user_id, publish_time desc, seq desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index notifications_user_time;
    alter table notifications drop column seq;
    create index notifications_user_time on notifications (user_id, publish_time desc);
  `.execute(db);
}
