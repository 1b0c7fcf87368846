import { type Kysely, sql } from 'kysely';

/**
 * A miner whose SN was set by hand (POST /api/miner/updateSn, miners.sn_override) has an SN: the agent's fault label
 * "empty-sn" (from the SN its firmware reports, state-flags.ts) no longer applies to it. Before, the detail showed the
 * new SN beside "Empty SN", the list's fault column and the fault counters kept counting it, and the label came back
 * with every reading. The trigger that keeps miners.sn equal to the override (migration 202611230120) now also leaves
 * "empty-sn" out of the row's fault labels, on the hand-set write itself and on every reading after it; fault_bits
 * (generated, migration 202611230400) follows, since generated columns are computed after BEFORE triggers. The miners
 * already set by hand lose the label here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function miners_keep_sn_override() returns trigger language plpgsql as $$
    begin
      new.sn := new.sn_override;
      if new.sn_override <> '' then new.fault_labels := array_remove(new.fault_labels, 'empty-sn'); end if;
      return new;
    end $$;
    update miners set fault_labels = array_remove(fault_labels, 'empty-sn')
      where sn_override is not null and sn_override <> '' and 'empty-sn' = any(fault_labels);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function miners_keep_sn_override() returns trigger language plpgsql as $$
    begin
      new.sn := new.sn_override;
      return new;
    end $$;
  `.execute(db);
}
