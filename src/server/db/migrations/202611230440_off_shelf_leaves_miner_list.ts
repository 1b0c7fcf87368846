import { type Kysely, sql } from 'kysely';

/**
 * /device/miner lists the farm's on-shelf miners only (spec 3 §2; the ones taken off shelf are /device/miners'
 * records): the list's filter (find-miners.ts, miner-sql.ts minerWhere) leaves out a miner marked off shelf. Its
 * results kept under the identity stamp (the IP order, a model filter, a search) must then be made again when a miner
 * is taken off or put back on shelf, as when one is added or removed: such a mark change bumps the farm's identity
 * stamp (the data stamp already moves: miner_marks_touch_miner).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function miner_marks_shelf_changed() returns trigger language plpgsql as $$
    begin
      perform miner_identity_bump(coalesce(new.agent_key, old.agent_key));
      return null;
    end $$;
    create trigger miner_marks_shelf_inserted after insert on miner_marks for each row when (new.off_shelf)
      execute function miner_marks_shelf_changed();
    create trigger miner_marks_shelf_updated after update on miner_marks for each row when (old.off_shelf is distinct from new.off_shelf)
      execute function miner_marks_shelf_changed();
    create trigger miner_marks_shelf_deleted after delete on miner_marks for each row when (old.off_shelf)
      execute function miner_marks_shelf_changed();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger miner_marks_shelf_deleted on miner_marks;
    drop trigger miner_marks_shelf_updated on miner_marks;
    drop trigger miner_marks_shelf_inserted on miner_marks;
    drop function miner_marks_shelf_changed();
  `.execute(db);
}
