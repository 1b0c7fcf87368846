import { type Kysely, sql } from 'kysely';

/**
 * Off-shelf maintenance (spec 3 §2 /unshelve-miner/maintain; §3 Miner "repairStatus", §4 shelf-level statuses): a
 * miner taken off shelf carries where its repair stands — awaiting repair (no status set yet), onsite or outsourced
 * repair, repaired and pending shelf, or scrapped — with a note and who set it when. Putting it back on shelf ends
 * the repair (the columns are cleared). The partial index miner_marks_off_shelf already finds a farm's off-shelf
 * miners; a farm has at most a few hundred of them, so counting per status needs no index of its own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table miner_marks
      add column repair_status text,
      add column repair_note text,
      add column repair_at timestamptz,
      add column repair_by uuid references users(id) on delete set null,
      add constraint miner_marks_repair_status check (repair_status is null or repair_status in ('awaiting', 'onsite', 'outsourced', 'pendingShelf', 'scrapped'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table miner_marks
      drop constraint miner_marks_repair_status,
      drop column repair_by,
      drop column repair_at,
      drop column repair_note,
      drop column repair_status;
  `.execute(db);
}
