import { type Kysely, sql } from 'kysely';

/**
 * "Duplicate SN" follows the SNs we record, not only the ones the firmware reports. The agent labels two miners
 * duplicate-sn when their firmware reports the same SN (state-flags.ts, markDuplicateSns): a control board moved from
 * one miner to another during a repair does that. Once a technician sets the right SN by hand on one of them
 * (POST /api/miner/updateSn, miners.sn_override, which the agent does not know), neither is a duplicate any more, but
 * every reading brought the label back on both: the list's fault column, the counters and the filter kept them.
 *
 * A row that arrives with the label loses it when no other miner of the farm (another IP) has its SN in miners.sn
 * (the hand-set one where there is one) and an SN set by hand made that difference: the row's own, or another
 * miner's that reports this SN. Without a hand-set SN the agent's label stands as it is (two new miners reporting one
 * SN in a farm's first batch are inserted one after the other in one statement: the first sees no other yet). The
 * trigger fires only for rows carrying the label (rare), and after miners_sn_override (triggers fire in name order:
 * it has set miners.sn already), so a reading costs nothing more; the first check is an index lookup
 * (miners_farm_sn), the second reads only the farm's rows with an SN set by hand. It only removes: a hand-set SN
 * equal to another miner's does not add the label (the SN is what the technician read). fault_bits (generated)
 * follows. The rows holding the label now are checked here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function miners_sn_unique_check() returns trigger language plpgsql as $$
    begin
      if new.sn = '' or exists (select 1 from miners o where o.agent_key = new.agent_key and o.sn = new.sn and o.ip <> new.ip) then
        return new;
      end if;
      -- No other miner has this SN now: the label stands for the agent's reason only when an SN set by hand made the
      -- difference (this one's, or another's that reports this SN).
      if new.sn_override is not null or exists (
        select 1 from miners o where o.agent_key = new.agent_key and o.ip <> new.ip and o.sn_override is not null and o.snapshot ->> 'sn' = new.sn
      ) then
        new.fault_labels := array_remove(new.fault_labels, 'duplicate-sn');
      end if;
      return new;
    end $$;
    create trigger miners_sn_unique_check before insert or update on miners
      for each row when ('duplicate-sn' = any(new.fault_labels)) execute function miners_sn_unique_check();
    update miners set fault_labels = fault_labels where 'duplicate-sn' = any(fault_labels);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger miners_sn_unique_check on miners;
    drop function miners_sn_unique_check();
  `.execute(db);
}
